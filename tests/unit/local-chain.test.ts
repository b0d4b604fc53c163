import { getContractAddress } from "viem";
import { mnemonicToAccount, privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import {
  DEV_MNEMONIC,
  LOCAL_DEPLOYER,
  LOCAL_FACILITATOR,
  LOCAL_PAY_TO,
  LOCAL_USDC_ADDRESS,
} from "@/lib/shared/payments/local-chain";

describe("local chain constants", () => {
  it("are Hardhat's development accounts 0, 1 and 2", () => {
    const account = (i: number) => mnemonicToAccount(DEV_MNEMONIC, { addressIndex: i });
    expect(account(0).address).toBe(LOCAL_DEPLOYER.address);
    expect(account(1).address).toBe(LOCAL_PAY_TO);
    expect(account(2).address).toBe(LOCAL_FACILITATOR.address);
    expect(privateKeyToAccount(LOCAL_DEPLOYER.privateKey).address).toBe(LOCAL_DEPLOYER.address);
    expect(privateKeyToAccount(LOCAL_FACILITATOR.privateKey).address).toBe(LOCAL_FACILITATOR.address);
  });

  it("put the token at the deployer's second CREATE address", () => {
    expect(getContractAddress({ from: LOCAL_DEPLOYER.address, nonce: 1n })).toBe(LOCAL_USDC_ADDRESS);
  });
});
