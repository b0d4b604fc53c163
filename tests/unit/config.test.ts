import path from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "@/lib/gateway/config";

/** A key that signs offers and receipts (lib/gateway/offer-receipt), as a real network requires one. */
const SIGNING_KEY = `0x${"5a".repeat(32)}`;
/** What a real network needs beside its network: a payee, a facilitator and a signing key. */
const REAL = { X402_NETWORK: "eip155:8453", PAY_TO_ADDRESS: "0x1111111111111111111111111111111111111111", FACILITATOR_URL: "https://facilitator.example", OFFER_RECEIPT_SIGNING_KEY: SIGNING_KEY };

function configError(env: Record<string, string | undefined>): ConfigError {
  try {
    loadConfig(env);
  } catch (err) {
    if (err instanceof ConfigError) return err;
    throw err;
  }
  throw new Error("expected a ConfigError");
}

describe("gateway configuration", () => {
  it("starts the embedded local stack with no configuration at all", () => {
    const config = loadConfig({});
    expect(config.port).toBe(3000);
    expect(config.publicUrl).toBe("http://localhost:3000");
    expect(config.database).toMatchObject({ kind: "embedded", dataDir: path.resolve(".data"), port: 54329 });
    expect(config.upstream.baseUrl).toBe("http://127.0.0.1:3001");
    expect(config.cronSecret).toBeUndefined();
    expect(config.payments.network).toBe("eip155:31337");
  });

  it("uses POSTGRES_URL, then DATABASE_URL", () => {
    expect(loadConfig({ DATABASE_URL: "postgres://a@h/db" }).database).toMatchObject({ kind: "url", url: "postgres://a@h/db" });
    expect(loadConfig({ POSTGRES_URL: "postgresql://p@h/db", DATABASE_URL: "postgres://a@h/db" }).database).toMatchObject({
      url: "postgresql://p@h/db",
    });
  });

  it("fails fast naming each bad variable", () => {
    const err = configError({ PORT: "http", PUBLIC_URL: "https://x.example/app", POSTGRES_URL: "mysql://x" });
    expect(err.variables.sort()).toEqual(["PORT", "POSTGRES_URL", "PUBLIC_URL"]);
    expect(err.message).toContain("PUBLIC_URL: must be an origin without a path");
    expect(err.message).toContain(".env.example");
  });

  it("refuses short secrets and malformed addresses", () => {
    expect(configError({ CRON_SECRET: "short" }).variables).toEqual(["CRON_SECRET"]);
    expect(configError({ PAY_TO_ADDRESS: "0x123" }).variables).toEqual(["PAY_TO_ADDRESS"]);
    expect(configError({ X402_NETWORK: "base" }).variables).toEqual(["X402_NETWORK"]);
  });

  it("reads the enclave the web build trusts, and fails the build on a setting it could not use, naming it", () => {
    expect(configError({ NEXT_PUBLIC_TRUSTED_ENCLAVE_REPO: "not a repo" }).variables).toEqual(["NEXT_PUBLIC_TRUSTED_ENCLAVE_REPO"]);
    const measurement = configError({ NEXT_PUBLIC_TRUSTED_ENCLAVE_REPO: "owner/enclave", NEXT_PUBLIC_TRUSTED_ENCLAVE_MEASUREMENT: "xyz" });
    expect(measurement.message).toContain("NEXT_PUBLIC_TRUSTED_ENCLAVE_MEASUREMENT: must be 64 or 96 hexadecimal digits");
    expect(configError({ NEXT_PUBLIC_TRUSTED_ENCLAVE_MEASUREMENT: "a1".repeat(32) }).variables).toEqual(["NEXT_PUBLIC_TRUSTED_ENCLAVE_MEASUREMENT"]);
    expect(loadConfig({ NEXT_PUBLIC_TRUSTED_ENCLAVE_REPO: "owner/enclave", NEXT_PUBLIC_TRUSTED_ENCLAVE_MEASUREMENT: "A1".repeat(32) }).webBuild.trustedEnclave).toEqual({ repo: "owner/enclave", measurement: "a1".repeat(32) });
    expect(loadConfig({ ENCLAVE_ATTESTATION_CONFIG_REPO: "owner/enclave" }).webBuild.trustedEnclave).toBeNull();
  });

  it("treats blank variables as unset", () => {
    expect(loadConfig({ PORT: "", CRON_SECRET: "  " }).port).toBe(3000);
  });

  it("derives PUBLIC_URL's default from PORT, and never from a request", () => {
    expect(loadConfig({ PORT: "4000" }).publicUrl).toBe("http://localhost:4000");
    expect(loadConfig({ PUBLIC_URL: "https://research.example/" }).publicUrl).toBe("https://research.example");
  });

  it("requires the no-default variables on a hosted deployment, and a real network", () => {
    const err = configError({ VERCEL_ENV: "production" });
    expect(err.variables.sort()).toEqual(["AGENT_SERVICE_KEY", "CRON_SECRET", "PAY_TO_ADDRESS", "POSTGRES_URL", "PUBLIC_URL", "X402_NETWORK"]);
    expect(err.message).toContain("local development chain");
  });

  it("never uses the local chain's public keys on a real network", () => {
    const err = configError({ X402_NETWORK: "eip155:8453" });
    // Nor a signing key generated on one machine: every instance must sign with the key it publishes.
    expect(err.variables.sort()).toEqual(["FACILITATOR_URL", "OFFER_RECEIPT_SIGNING_KEY", "PAY_TO_ADDRESS"]);
  });

  it("signs offers and receipts with OFFER_RECEIPT_SIGNING_KEY, generated in DATA_DIR on the local chain only, never a facilitator's key; earlier signers by address", () => {
    expect(loadConfig({ DATA_DIR: "/tmp/lra-data" }).offerReceipt).toEqual({ signingKey: null, keyFile: "/tmp/lra-data/offer-receipt-signing.key", previousSigners: [] });
    const previous = ["0x1111111111111111111111111111111111111111", "0x2222222222222222222222222222222222222222"];
    expect(loadConfig({ ...REAL, OFFER_RECEIPT_PREVIOUS_SIGNERS: previous.join(", ") }).offerReceipt).toMatchObject({ signingKey: SIGNING_KEY, previousSigners: previous });
    expect(configError({ ...REAL, OFFER_RECEIPT_PREVIOUS_SIGNERS: "0x123" }).variables).toEqual(["OFFER_RECEIPT_PREVIOUS_SIGNERS"]);
    expect(configError({ ...REAL, OFFER_RECEIPT_SIGNING_KEY: "0x12" }).variables).toEqual(["OFFER_RECEIPT_SIGNING_KEY"]);
    expect(configError({ ...REAL, FACILITATOR_URL: undefined, FACILITATOR_PRIVATE_KEYS: `${`0x${"33".repeat(32)}`},${SIGNING_KEY}` }).variables).toEqual(["OFFER_RECEIPT_SIGNING_KEY"]);
  });

  it("offers the page's built-in test wallet on the local chain only, and refuses its key elsewhere", () => {
    const key = `0x${"ab".repeat(32)}`;
    expect(loadConfig({ LOCAL_TEST_WALLET_PRIVATE_KEY: key }).web.localTestWalletKey).toBe(key);
    expect(loadConfig({}).web).toEqual({ localTestWalletKey: null, walletConnectProjectId: null, explorerTxUrl: null });
    const hosted = REAL;
    expect(configError({ ...hosted, LOCAL_TEST_WALLET_PRIVATE_KEY: key }).variables).toEqual(["LOCAL_TEST_WALLET_PRIVATE_KEY"]);
    expect(loadConfig(hosted).web).toEqual({ localTestWalletKey: null, walletConnectProjectId: null, explorerTxUrl: "https://basescan.org/tx/{tx}" });
    expect(configError({ WALLETCONNECT_PROJECT_ID: "not-an-id" }).variables).toEqual(["WALLETCONNECT_PROJECT_ID"]);
  });

  it("knows Base's and Base Sepolia's USDC and its EIP-712 domain, and needs them elsewhere", () => {
    const base = loadConfig(REAL);
    expect(base.payments).toMatchObject({ chainId: 8453, asset: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913", assetName: "USD Coin", assetVersion: "2", facilitator: { kind: "hosted" } });
    const sepolia = loadConfig({ ...REAL, X402_NETWORK: "eip155:84532" });
    expect(sepolia.payments.assetName).toBe("USDC");
    const other = configError({ ...REAL, X402_NETWORK: "eip155:10" });
    expect(other.variables.sort()).toEqual(["X402_ASSET", "X402_ASSET_NAME", "X402_ASSET_VERSION"]);
  });

  it("defaults to the local chain, its token and a self-hosted facilitator", () => {
    expect(loadConfig({}).payments).toMatchObject({
      network: "eip155:31337",
      chainId: 31337,
      asset: "0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512",
      payTo: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
      rpcUrl: "http://127.0.0.1:8545",
      facilitator: { kind: "self-hosted" },
    });
  });

  it("talks to the staging upstream on preview deployments only", () => {
    const hosted = {
      X402_NETWORK: "eip155:84532",
      OFFER_RECEIPT_SIGNING_KEY: SIGNING_KEY,
      FACILITATOR_URL: "https://facilitator.example",
      PUBLIC_URL: "https://preview.example",
      CRON_SECRET: "0123456789abcdef0123",
      PAY_TO_ADDRESS: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
      AGENT_SERVICE_KEY: "service-key-0123456789",
      POSTGRES_URL: "postgres://u@h/db",
      UPSTREAM_API_URL: "https://agent.example/",
      UPSTREAM_STAGING_API_URL: "https://staging-agent.example",
    };
    expect(loadConfig({ ...hosted, VERCEL_ENV: "preview" }).upstream.baseUrl).toBe("https://staging-agent.example");
    expect(loadConfig({ ...hosted, VERCEL_ENV: "production" }).upstream.baseUrl).toBe("https://agent.example");
  });

  it("uses Coinbase's facilitator with CDP credentials, another one's headers, and several self-hosted keys", () => {
    const mainnet = { X402_NETWORK: "eip155:8453", PAY_TO_ADDRESS: "0x1111111111111111111111111111111111111111", OFFER_RECEIPT_SIGNING_KEY: SIGNING_KEY };
    expect(loadConfig({ ...mainnet, CDP_API_KEY_ID: "key-id", CDP_API_KEY_SECRET: "secret" }).payments.facilitator).toEqual({
      kind: "hosted",
      url: "https://api.cdp.coinbase.com/platform/v2/x402",
      headers: {},
      cdp: { keyId: "key-id", keySecret: "secret" },
    });
    expect(configError({ ...mainnet, CDP_API_KEY_ID: "key-id" }).variables).toEqual(["CDP_API_KEY_SECRET"]);
    const headers = loadConfig({ ...mainnet, FACILITATOR_URL: "https://f.example", FACILITATOR_HEADERS: '{"X-API-Key":"k"}' }).payments.facilitator;
    expect(headers).toMatchObject({ kind: "hosted", url: "https://f.example", headers: { "X-API-Key": "k" }, cdp: null });
    expect(configError({ ...mainnet, FACILITATOR_URL: "https://f.example", FACILITATOR_HEADERS: "X-API-Key: k" }).variables).toEqual(["FACILITATOR_HEADERS"]);
    const keys = [`0x${"11".repeat(32)}`, `0x${"22".repeat(32)}`];
    expect(loadConfig({ ...mainnet, FACILITATOR_PRIVATE_KEYS: keys.join(", ") }).payments.facilitator).toEqual({ kind: "self-hosted", privateKeys: keys });
    expect(configError({ ...mainnet, FACILITATOR_PRIVATE_KEYS: `${keys[0]},${keys[0]}` }).variables).toEqual(["FACILITATOR_PRIVATE_KEYS"]);
  });

  it("refuses a preview that would take Base mainnet payments on a ledger of its own", () => {
    const preview = {
      VERCEL_ENV: "preview",
      X402_NETWORK: "eip155:8453",
      OFFER_RECEIPT_SIGNING_KEY: SIGNING_KEY,
      FACILITATOR_URL: "https://facilitator.example",
      PUBLIC_URL: "https://preview.example",
      CRON_SECRET: "0123456789abcdef0123",
      PAY_TO_ADDRESS: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
      AGENT_SERVICE_KEY: "service-key-0123456789",
      POSTGRES_URL: "postgres://u@h/db",
    };
    expect(configError(preview).message).toContain("PREVIEW_SHARES_PRODUCTION_LEDGER");
    expect(loadConfig({ ...preview, PREVIEW_SHARES_PRODUCTION_LEDGER: "true" }).payments.network).toBe("eip155:8453");
    expect(loadConfig({ ...preview, X402_NETWORK: "eip155:84532" }).payments.network).toBe("eip155:84532");
  });

  it("trusts forwarded addresses only from the proxy it is told about (Vercel's on Vercel)", () => {
    expect(loadConfig({}).payments.trustedProxy).toEqual({ kind: "none" });
    expect(loadConfig({ VERCEL: "1" }).payments.trustedProxy).toEqual({ kind: "vercel" });
    expect(loadConfig({ TRUSTED_PROXY: "2" }).payments.trustedProxy).toEqual({ kind: "hops", hops: 2 });
    expect(configError({ TRUSTED_PROXY: "all" }).variables).toEqual(["TRUSTED_PROXY"]);
  });

  it("bounds deep research's unsettled turns per payer and per client, and authorizations to what a route needs, with documented defaults", () => {
    expect(loadConfig({}).payments).toMatchObject({ deferredTurns: { maxPerPayer: 5, maxPerClient: 10 }, validityLeewaySeconds: 300 });
    expect(loadConfig({ DEEP_RESEARCH_MAX_UNSETTLED_PER_PAYER: "2", DEEP_RESEARCH_MAX_UNSETTLED_PER_CLIENT: "40", PAYMENT_VALIDITY_LEEWAY_SECONDS: "0" }).payments).toMatchObject({
      deferredTurns: { maxPerPayer: 2, maxPerClient: 40 },
      validityLeewaySeconds: 0,
    });
    for (const value of ["0", "-1", "1.5", "many"]) {
      expect(configError({ DEEP_RESEARCH_MAX_UNSETTLED_PER_PAYER: value }).variables).toEqual(["DEEP_RESEARCH_MAX_UNSETTLED_PER_PAYER"]);
      expect(configError({ DEEP_RESEARCH_MAX_UNSETTLED_PER_CLIENT: value }).variables).toEqual(["DEEP_RESEARCH_MAX_UNSETTLED_PER_CLIENT"]);
    }
    expect(configError({ PAYMENT_VALIDITY_LEEWAY_SECONDS: "-1" }).variables).toEqual(["PAYMENT_VALIDITY_LEEWAY_SECONDS"]);
    expect(configError({ PAYMENT_VALIDITY_LEEWAY_SECONDS: "86400" }).message).toContain("PAYMENT_VALIDITY_LEEWAY_SECONDS: must be at most 3600");
    // One payer's turns come from one client: a client bound below the payer's would silently replace it.
    expect(configError({ DEEP_RESEARCH_MAX_UNSETTLED_PER_PAYER: "8", DEEP_RESEARCH_MAX_UNSETTLED_PER_CLIENT: "4" }).message).toContain(
      "DEEP_RESEARCH_MAX_UNSETTLED_PER_CLIENT: must be at least DEEP_RESEARCH_MAX_UNSETTLED_PER_PAYER",
    );
  });

  it("reuses what the agent said before payment for 2 s by default, and never for longer than ten minutes", () => {
    expect(loadConfig({}).upstream.statusCacheMs).toBe(2_000);
    expect(loadConfig({ AGENT_STATUS_CACHE_MS: "5000" }).upstream.statusCacheMs).toBe(5_000);
    expect(configError({ AGENT_STATUS_CACHE_MS: "0" }).variables).toEqual(["AGENT_STATUS_CACHE_MS"]);
    expect(configError({ AGENT_STATUS_CACHE_MS: "600001" }).variables).toEqual(["AGENT_STATUS_CACHE_MS"]);
  });
});
