// Hardhat 2 configuration of the local development chain (`npm run demo`, tests, benchmarks).
// Its own chain id (31337), never Base's: an authorization signed against the demo must not be
// valid on Base mainnet. Accounts are Hardhat's well-known development accounts: local use only.
/** @type {import("hardhat/config").HardhatUserConfig} */
module.exports = {
  networks: {
    hardhat: {
      chainId: 31337,
      // Mine each transaction at once, as tests and the demo expect a receipt right away.
      mining: { auto: true },
      // Block timestamps follow the wall clock unless a test moves time explicitly.
      allowBlocksWithSameTimestamp: true,
    },
  },
  paths: { root: __dirname, cache: "../../node_modules/.cache/hardhat", artifacts: "../../node_modules/.cache/hardhat/artifacts" },
};
