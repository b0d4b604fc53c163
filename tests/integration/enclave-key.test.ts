import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { GET as gatewayEnclaveKey } from "@/app/api/enclave-key/route";
import { loadEnclaveKey } from "@/agent/private/enclave-key";
import { enclaveKeyResponseSchema, sealingPageSchema, servedEnclaveKeySchema } from "@/lib/shared/contracts";
import { describeSealingSuite } from "@/lib/shared/sealing/descriptor";
import { buildSealingPage } from "@/lib/shared/sealing/page";
import { forgetEnclaveKey } from "@/lib/gateway/private/enclave-key";
import { loadAgentConfig } from "@/agent/config";
import { createPayingFetch } from "@/lib/client/payments/client";
import { decodeBase64, decryptAtRest, encodeBase64, encryptAtRest, openRequest, portablePrimitives, sealRequest } from "@/lib/shared/sealing";
import { nativePrimitives } from "@/lib/shared/sealing/native";
import { fetchEnclaveKey, startPrivate } from "@/lib/client/sealing/client";
import { PrivateModeError } from "@/lib/client/sealing/private-mode-error";
import { agentRequest, seedLibrary, startTestAgent, TEST_SERVICE_KEY } from "../support/agent";
import { createTestDatabase } from "../support/database";
import { captureLogs } from "../support/logs";
import { configureGateway } from "../support/gateway";
import { startHttpDouble } from "../support/http-double";
import { chain, freshAddress, usdcBalance, wallet } from "../support/payments";
import { routeFetch } from "../support/routes";

describe("the enclave key", () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  const kekFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "lra-kek-")), "enclave.kek");
  let agent: Awaited<ReturnType<typeof startTestAgent>>;

  beforeAll(async () => {
    database = await createTestDatabase();
    agent = await startTestAgent({ POSTGRES_URL: database.url, LITERATURE_SOURCES: "local", ENCLAVE_KEK_FILE: kekFile });
  });
  afterAll(async () => {
    await agent?.stop();
    await database?.drop();
    fs.rmSync(path.dirname(kekFile), { recursive: true, force: true });
  });

  it("is served openly by the agent, generated once, sealed at rest under a key kept outside the database", async () => {
    const response = await agentRequest(agent.app, "/api/enclave-key", { key: null });
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("public, max-age=60");
    const body = (await response.json()) as { hpke_public_key: string; attested: boolean };
    expect(decodeBase64(body.hpke_public_key, "key")).toHaveLength(32);
    expect(body.attested).toBe(false);
    expect(fs.statSync(kekFile).mode & 0o777).toBe(0o600);

    // The stored row does not hold the private key in the clear, and reloading gives the same pair.
    const loaded = await loadEnclaveKey({ db: agent.pool, configured: undefined, kekFile });
    expect(loaded.publicKey).toBe(body.hpke_public_key);
    const { rows } = await agent.pool.query("SELECT sealed_private_key FROM agent.enclave_keys");
    expect(rows[0].sealed_private_key).not.toContain(encodeBase64(loaded.privateKey));

    // A request sealed to the served key opens with the enclave's private key.
    const { envelope } = sealRequest({ enclavePublicKey: body.hpke_public_key, plaintext: { message: "private" } });
    expect(openRequest({ enclavePrivateKey: loaded.privateKey, envelope }).plaintext).toEqual({ message: "private" });

    // Without its key-encryption key the database alone cannot give the key back.
    const otherKek = path.join(path.dirname(kekFile), "other.kek");
    await expect(loadEnclaveKey({ db: agent.pool, configured: undefined, kekFile: otherKek })).rejects.toThrow();
  });

  it("names the sealing suite on the agent's own key route, as the gateway does, and serves the page it links to", async () => {
    const response = await agentRequest(agent.app, "/api/enclave-key", { key: null });
    const body = servedEnclaveKeySchema.parse(await response.json());
    const page = new URL(body.sealing.page);
    expect(page.pathname).toBe("/api/sealing");
    // The same descriptor the gateway serves, built from the scheme's own constants, linking to the agent's page.
    expect(body.sealing).toEqual(describeSealingSuite({ pageUrl: body.sealing.page }));
    const served = await agentRequest(agent.app, "/api/sealing", { key: null });
    expect(served.status).toBe(200);
    const sealingPage = sealingPageSchema.parse(await served.json());
    expect(sealingPage.suite).toEqual(body.sealing);
    expect(sealingPage.url).toBe(body.sealing.page);
    expect(sealingPage.enclaveKey).toBe(`${page.origin}/api/enclave-key`);
    expect(sealingPage.testVectors.envelope).toEqual(buildSealingPage({ publicUrl: page.origin }).testVectors.envelope);

    // Relayed by the gateway, the key keeps the gateway's own suite, whose page the gateway serves.
    const restore = await configureGateway({ POSTGRES_URL: database.url, UPSTREAM_API_URL: agent.url, PUBLIC_URL: "https://gateway.test" });
    forgetEnclaveKey();
    try {
      const relayed = servedEnclaveKeySchema.parse(await (await routeFetch("https://gateway.test/api/enclave-key")).json());
      expect(relayed.hpke_public_key).toBe(body.hpke_public_key);
      expect(relayed.sealing).toEqual({ ...body.sealing, page: "https://gateway.test/api/sealing" });
    } finally {
      await restore();
    }
  });

  it("reports private-mode readiness to callers with a key", async () => {
    expect((await agentRequest(agent.app, "/api/private/status", { key: null })).status).toBe(401);
    expect(await (await agentRequest(agent.app, "/api/private/status")).json()).toEqual({
      privateMode: "ready",
      privateLiterature: "enabled",
      attested: false,
      localLibrary: true,
    });
  });

  it("is relayed by the gateway and cached for 60 seconds", async () => {
    let calls = 0;
    const upstream = await startHttpDouble(() => {
      calls++;
      return { status: 200, body: { hpke_public_key: encodeBase64(new Uint8Array(32).fill(9)), attested: false } };
    });
    const restore = await configureGateway({ POSTGRES_URL: database.url, UPSTREAM_API_URL: upstream.url });
    forgetEnclaveKey();
    try {
      const first = await gatewayEnclaveKey(new Request("http://gateway.test/api/enclave-key"));
      expect(first.status).toBe(200);
      expect(enclaveKeyResponseSchema.parse(await first.json()).hpke_public_key).toBe(encodeBase64(new Uint8Array(32).fill(9)));
      await gatewayEnclaveKey(new Request("http://gateway.test/api/enclave-key"));
      expect(calls).toBe(1);
      await upstream.close();
      forgetEnclaveKey();
      const down = await gatewayEnclaveKey(new Request("http://gateway.test/api/enclave-key"));
      expect(down.status).toBe(500);
      expect(await down.json()).toMatchObject({ error: "The enclave key is unavailable" });
    } finally {
      await restore();
    }
  });

  it("serves attestation material when the agent runs in a confidential VM, relayed by the gateway; health says plainly whether it is attested", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "lra-attest-"));
    const bundle = {
      domain: "enclave.example.com",
      enclaveAttestationReport: { format: "https://tinfoil.sh/predicate/sev-snp-guest/v2", body: "AAAA" },
      digest: "00".repeat(32),
      sigstoreBundle: {},
      vcek: "AAAA",
      enclaveCert: "-----BEGIN CERTIFICATE-----",
    };
    fs.writeFileSync(path.join(dir, "bundle.json"), JSON.stringify(bundle));
    const attested = await startTestAgent({
      POSTGRES_URL: database.url,
      LITERATURE_SOURCES: "local",
      ENCLAVE_KEK_FILE: kekFile,
      ENCLAVE_ATTESTATION_BUNDLE_FILE: path.join(dir, "bundle.json"),
      ENCLAVE_ATTESTATION_CONFIG_REPO: "example/enclave",
    });
    try {
      const served = await (await agentRequest(attested.app, "/api/enclave-key", { key: null })).json();
      expect(served).toMatchObject({ attested: true, attestation: { provider: "tinfoil", configRepo: "example/enclave", bundle } });
      expect(await (await agentRequest(attested.app, "/api/health", { key: null })).json()).toMatchObject({ privateMode: { status: "ready", attested: true } });

      const restore = await configureGateway({ POSTGRES_URL: database.url, UPSTREAM_API_URL: attested.url });
      forgetEnclaveKey();
      try {
        expect(await (await routeFetch("http://gateway.test/api/enclave-key")).json()).toMatchObject({ attested: true, attestation: { bundle } });
      } finally {
        await restore();
      }
    } finally {
      await attested.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    }

    // Locally (no attestation material) the agent and the gateway's health say so in words.
    const restore = await configureGateway({ POSTGRES_URL: database.url, UPSTREAM_API_URL: agent.url });
    try {
      const health = (await (await routeFetch("http://gateway.test/api/health")).json()) as { privateMode: { attested: boolean; message: string; status: string } };
      expect(health.privateMode).toMatchObject({ status: "ready", attested: false });
      expect(health.privateMode.message).toMatch(/^Not attested/);
    } finally {
      await restore();
    }
    // A configuration that names a bundle it cannot read fails at start, naming the variable.
    expect(() => loadAgentConfig({ ENCLAVE_ATTESTATION_BUNDLE_FILE: "/nonexistent/bundle.json", ENCLAVE_ATTESTATION_CONFIG_REPO: "a/b" })).toThrow(/ENCLAVE_ATTESTATION_BUNDLE_FILE/);
  });

  it("gives a client that sealed to a rotated key a clear error, and charges nothing", async () => {
    const keyA = encodeBase64(portablePrimitives.randomBytes(32));
    const keyB = encodeBase64(portablePrimitives.randomBytes(32));
    const before = await startTestAgent({ POSTGRES_URL: database.url, LITERATURE_SOURCES: "local", ENCLAVE_PRIVATE_KEY: keyA });
    const payTo = freshAddress();
    const gatewayEnv = { POSTGRES_URL: database.url, AGENT_SERVICE_KEY: TEST_SERVICE_KEY, PUBLIC_URL: "https://gateway.test", RPC_URL: chain().rpcUrl, PAY_TO_ADDRESS: payTo };
    let restore = await configureGateway({ ...gatewayEnv, UPSTREAM_API_URL: before.url });
    forgetEnclaveKey();
    const enclave = await fetchEnclaveKey({ gateway: "https://gateway.test", fetch: routeFetch });
    await restore();
    await before.stop();

    // The enclave restarts with a new key; the gateway still has the old one cached.
    const after = await startTestAgent({ POSTGRES_URL: database.url, LITERATURE_SOURCES: "local", ENCLAVE_PRIVATE_KEY: keyB });
    // A library to answer from: with none, the gateway refuses the chat before payment (503
    // literature_unavailable), before the key could be found stale.
    await seedLibrary(after.pool);
    restore = await configureGateway({ ...gatewayEnv, UPSTREAM_API_URL: after.url });
    try {
      const { fetch: payFetch } = createPayingFetch({ privateKey: wallet(39).privateKey, network: chain().network, asset: chain().asset, fetchImpl: routeFetch });
      const err = await startPrivate("chat", { gateway: "https://gateway.test", fetch: routeFetch, payFetch, enclave, plaintext: { message: "q" } }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(PrivateModeError);
      expect((err as PrivateModeError).code).toBe("key_rotated");
      expect(await usdcBalance(payTo)).toBe(0n);
      // Sealed again to the key now served, it goes through.
      const fresh = await fetchEnclaveKey({ gateway: "https://gateway.test", fetch: routeFetch });
      expect(fresh.publicKey).not.toBe(enclave.publicKey);
      const started = await startPrivate("chat", { gateway: "https://gateway.test", fetch: routeFetch, payFetch, enclave: fresh, plaintext: { message: "rapamycin" } });
      expect(started.response.status).toBeLessThan(300);
    } finally {
      await restore();
      await after.stop();
    }
  });
});

describe.skipIf(process.platform === "win32")("the enclave key against someone who can write the database or read the key file", () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let dir: string;
  const agents: Awaited<ReturnType<typeof startTestAgent>>[] = [];

  beforeAll(async () => {
    database = await createTestDatabase();
  });
  /** Each case starts with no stored key, and leaves none (on the PGlite fallback the agent schema is shared by every file). */
  const forgetStoredKey = async () => {
    const pool = new pg.Pool({ connectionString: database.url, max: 1 });
    try {
      await pool.query("DELETE FROM agent.enclave_keys").catch(() => undefined);
    } finally {
      await pool.end();
    }
  };
  beforeEach(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "lra-kek-attack-"));
    await forgetStoredKey();
  });
  afterEach(async () => {
    while (agents.length) await agents.pop()!.stop();
    await forgetStoredKey();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  afterAll(async () => {
    await database?.drop();
  });

  const start = async (env: Record<string, string>) => {
    const agent = await startTestAgent({ POSTGRES_URL: database.url, LITERATURE_SOURCES: "local", ...env });
    agents.push(agent);
    return agent;
  };
  const storedRow = async (agent: { pool: pg.Pool }) =>
    (await agent.pool.query<{ public_key: string; sealed_private_key: string }>("SELECT public_key, sealed_private_key FROM agent.enclave_keys WHERE id = 1")).rows[0];
  /** What a client fetching the key, the gateway asking for readiness and a health monitor see. */
  const observe = async (agent: { app: Parameters<typeof agentRequest>[0] }) => {
    const key = await agentRequest(agent.app, "/api/enclave-key", { key: null });
    return {
      keyStatus: key.status,
      keyBody: await key.text(),
      privateMode: ((await (await agentRequest(agent.app, "/api/private/status")).json()) as { privateMode: string }).privateMode,
      health: ((await (await agentRequest(agent.app, "/api/health", { key: null })).json()) as { privateMode: { status: string } }).privateMode.status,
    };
  };

  it("someone who can write agent.enclave_keys cannot make the enclave serve a public key of theirs: private mode stops and the log says the database was altered", async () => {
    const kekFile = path.join(dir, "enclave.kek");
    const first = await start({ ENCLAVE_KEK_FILE: kekFile });
    const genuine = enclaveKeyResponseSchema.parse(await (await agentRequest(first.app, "/api/enclave-key", { key: null })).json()).hpke_public_key;

    // The attacker writes a public key whose private half they hold.
    const attackerPublic = encodeBase64(nativePrimitives.publicKey(nativePrimitives.randomBytes(32)));
    await first.pool.query("UPDATE agent.enclave_keys SET public_key = $1", [attackerPublic]);
    const tampered = await storedRow(first);

    // The running enclave serves the key of the private half it holds, not the row.
    expect(enclaveKeyResponseSchema.parse(await (await agentRequest(first.app, "/api/enclave-key", { key: null })).json()).hpke_public_key).toBe(genuine);
    await expect(loadEnclaveKey({ db: first.pool, configured: undefined, kekFile })).rejects.toThrow(
      /stored public key does not match the sealed private key.*database was altered/s,
    );

    // Restarted, it refuses private mode rather than serve either key, and says why in its log.
    let seen: Awaited<ReturnType<typeof observe>> | undefined;
    const logs = await captureLogs(async () => {
      seen = await observe(await start({ ENCLAVE_KEK_FILE: kekFile }));
    });
    expect(seen).toMatchObject({ keyStatus: 500, privateMode: "not_ready", health: "not_ready" });
    expect(seen!.keyBody).not.toContain(attackerPublic);
    expect(seen!.keyBody).toContain("private_mode_not_ready");
    expect(logs).toMatch(/stored public key does not match the sealed private key/);
    // Nothing secret reaches the log: neither the private key nor the key-encryption key.
    const kek = decodeBase64(fs.readFileSync(kekFile, "utf8").trim(), "kek");
    const privateKey = decryptAtRest(nativePrimitives, kek, tampered!.sealed_private_key) as string;
    expect(logs).not.toContain(privateKey);
    expect(logs).not.toContain(encodeBase64(kek));
    // The row is left as the attacker wrote it, for the operator to see: nothing was regenerated.
    expect(await storedRow(first)).toEqual(tampered);
  });

  it("someone who can write agent.enclave_keys cannot swap in a key pair of their own: a private key not sealed under the key-encryption key is refused, never replaced", async () => {
    const kekFile = path.join(dir, "enclave.kek");
    const first = await start({ ENCLAVE_KEK_FILE: kekFile });
    await observe(first);

    // The attacker stores a pair of their own, its private half sealed under a key of their own.
    const attackerPrivate = nativePrimitives.randomBytes(32);
    const attackerPublic = encodeBase64(nativePrimitives.publicKey(attackerPrivate));
    const attackerKek = nativePrimitives.randomBytes(32);
    await first.pool.query("UPDATE agent.enclave_keys SET public_key = $1, sealed_private_key = $2", [
      attackerPublic,
      encryptAtRest(nativePrimitives, attackerKek, encodeBase64(attackerPrivate)),
    ]);
    const tampered = await storedRow(first);
    await expect(loadEnclaveKey({ db: first.pool, configured: undefined, kekFile })).rejects.toThrow(/cannot be unsealed with the key-encryption key in .*enclave\.kek/);

    let seen: Awaited<ReturnType<typeof observe>> | undefined;
    const logs = await captureLogs(async () => {
      seen = await observe(await start({ ENCLAVE_KEK_FILE: kekFile }));
    });
    expect(seen).toMatchObject({ keyStatus: 500, privateMode: "not_ready", health: "not_ready" });
    expect(seen!.keyBody).not.toContain(attackerPublic);
    expect(logs).toMatch(/cannot be unsealed with the key-encryption key/);
    expect(await storedRow(first)).toEqual(tampered);

    // Garbage in the column is refused the same way.
    await first.pool.query("UPDATE agent.enclave_keys SET sealed_private_key = 'AAAA'");
    await expect(loadEnclaveKey({ db: first.pool, configured: undefined, kekFile })).rejects.toThrow(/cannot be unsealed/);
  });

  it("refuses a key-encryption key file that others may read or write, or that is not a regular file, and says to chmod 600", async () => {
    const kekFile = path.join(dir, "enclave.kek");
    const genuine = await loadEnclaveKey({ db: (await start({ ENCLAVE_KEK_FILE: kekFile })).pool, configured: undefined, kekFile });
    const db = agents[0]!.pool;

    for (const mode of [0o644, 0o640, 0o604, 0o620, 0o602, 0o660]) {
      fs.chmodSync(kekFile, mode);
      await expect(loadEnclaveKey({ db, configured: undefined, kekFile }), `mode ${mode.toString(8)}`).rejects.toThrow(
        new RegExp(`${kekFile.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}.*chmod 600`),
      );
    }
    // An agent whose key file is readable by others stays out of private mode.
    fs.chmodSync(kekFile, 0o644);
    expect(await observe(await start({ ENCLAVE_KEK_FILE: kekFile }))).toMatchObject({ keyStatus: 500, privateMode: "not_ready", health: "not_ready" });

    for (const mode of [0o600, 0o400]) {
      fs.chmodSync(kekFile, mode);
      expect((await loadEnclaveKey({ db, configured: undefined, kekFile })).publicKey).toBe(genuine.publicKey);
    }
    fs.chmodSync(kekFile, 0o600);

    // A symbolic link is followed (secret mounts are links), and the file it names is checked.
    const link = path.join(dir, "link.kek");
    fs.symlinkSync(kekFile, link);
    expect((await loadEnclaveKey({ db, configured: undefined, kekFile: link })).publicKey).toBe(genuine.publicKey);
    fs.chmodSync(kekFile, 0o644);
    await expect(loadEnclaveKey({ db, configured: undefined, kekFile: link })).rejects.toThrow(/chmod 600/);
    fs.chmodSync(kekFile, 0o600);

    // A directory (or anything else that is not a regular file) is refused by name.
    const folder = path.join(dir, "folder.kek");
    fs.mkdirSync(folder, { mode: 0o700 });
    await expect(loadEnclaveKey({ db, configured: undefined, kekFile: folder })).rejects.toThrow(/folder\.kek is not a regular file/);
  });

  it("keeps the key-encryption key outside DATA_DIR by default: under XDG_CONFIG_HOME, else ~/.config", async () => {
    const dataDir = path.join(dir, "data");
    const home = path.join(dir, "home");
    const defaults = loadAgentConfig({ DATA_DIR: dataDir, HOME: home });
    expect(defaults.enclave.kekFile).toBe(path.join(home, ".config", "longevity-research-agent", "enclave.kek"));
    expect(path.relative(dataDir, defaults.enclave.kekFile).startsWith("..")).toBe(true);
    const xdg = path.join(dir, "xdg");
    expect(loadAgentConfig({ DATA_DIR: dataDir, HOME: home, XDG_CONFIG_HOME: xdg }).enclave.kekFile).toBe(path.join(xdg, "longevity-research-agent", "enclave.kek"));
    expect(loadAgentConfig({ DATA_DIR: dataDir, HOME: home, ENCLAVE_KEK_FILE: path.join(dir, "mine.kek") }).enclave.kekFile).toBe(path.join(dir, "mine.kek"));

    // An agent on the defaults creates it there, private to its user, and nothing in DATA_DIR.
    const agent = await start({ DATA_DIR: dataDir, XDG_CONFIG_HOME: xdg });
    expect((await observe(agent)).privateMode).toBe("ready");
    const created = path.join(xdg, "longevity-research-agent", "enclave.kek");
    expect(fs.statSync(created).mode & 0o777).toBe(0o600);
    expect(fs.statSync(path.dirname(created)).mode & 0o077).toBe(0);
    expect(fs.existsSync(path.join(dataDir, "enclave.kek"))).toBe(false);
  });

  it("still opens a key sealed under a key-encryption key at the old default location, DATA_DIR/enclave.kek, and asks the operator to move it", async () => {
    const dataDir = path.join(dir, "data");
    const xdg = path.join(dir, "xdg");
    const legacy = path.join(dataDir, "enclave.kek");
    // An install from before the move: its key sealed under DATA_DIR/enclave.kek.
    const installed = await start({ ENCLAVE_KEK_FILE: legacy });
    const before = await loadEnclaveKey({ db: installed.pool, configured: undefined, kekFile: legacy });
    const legacyKek = fs.readFileSync(legacy, "utf8");

    let served = "";
    let privateMode = "";
    const logs = await captureLogs(async () => {
      const upgraded = await start({ DATA_DIR: dataDir, XDG_CONFIG_HOME: xdg });
      served = enclaveKeyResponseSchema.parse(await (await agentRequest(upgraded.app, "/api/enclave-key", { key: null })).json()).hpke_public_key;
      privateMode = (await observe(upgraded)).privateMode;
    });
    expect(served).toBe(before.publicKey);
    expect(privateMode).toBe("ready");
    expect(logs).toContain(legacy);
    expect(logs).toMatch(/move it out of the data folder/i);
    // No new key-encryption key was made beside it, and the old one is untouched.
    const moved = path.join(xdg, "longevity-research-agent", "enclave.kek");
    expect(fs.existsSync(moved)).toBe(false);
    expect(fs.readFileSync(legacy, "utf8")).toBe(legacyKek);

    // Once moved where the warning says, it opens the same key from there.
    fs.mkdirSync(path.dirname(moved), { recursive: true, mode: 0o700 });
    fs.renameSync(legacy, moved);
    const after = await start({ DATA_DIR: dataDir, XDG_CONFIG_HOME: xdg });
    expect(enclaveKeyResponseSchema.parse(await (await agentRequest(after.app, "/api/enclave-key", { key: null })).json()).hpke_public_key).toBe(before.publicKey);
  });
});
