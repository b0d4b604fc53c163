/**
 * Facts of the local development chain that `npm run demo` and the tests start (scripts/chain):
 * Hardhat's chain id 31337 and its public development accounts. These keys are published with
 * Hardhat; they are for the local chain only, which is why configuration uses them only while no
 * hosted deployment is detected. A unit test derives every value here from the mnemonic.
 */
export const LOCAL_CHAIN_ID = 31337;
export const LOCAL_NETWORK = "eip155:31337";

/** Hardhat's public development mnemonic (accounts 0, 1 and 2 below). */
export const DEV_MNEMONIC = "test test test test test test test test test test test junk";

/** Account 0: deploys the token (nonce 0: SignatureChecker, nonce 1: FiatTokenV2_2) and mints. */
export const LOCAL_DEPLOYER = {
  address: "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266",
  privateKey: "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80",
} as const;

/** Account 1: receives the payments (PAY_TO_ADDRESS). */
export const LOCAL_PAY_TO = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";

/** Account 2: the self-hosted facilitator's gas payer (FACILITATOR_PRIVATE_KEY). */
export const LOCAL_FACILITATOR = {
  address: "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC",
  privateKey: "0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a",
} as const;

/** Where Circle's FiatTokenV2_2 lands on a fresh chain: the deployer's nonce-1 CREATE address. */
export const LOCAL_USDC_ADDRESS = "0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512";

export const LOCAL_RPC_PORT = 8545;
