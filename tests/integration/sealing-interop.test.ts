import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { importLibraryFile } from "@/agent/library/import";
import { chatResultSchema, enclaveKeyResponseSchema, sealingSuiteSchema } from "@/lib/shared/contracts";
import { createPayingFetch } from "@/lib/client/payments/client";
import { forgetEnclaveKey } from "@/lib/gateway/private/enclave-key";
import { encodeBase64, portablePrimitives as p, REQUEST_INFO, sealRequest } from "@/lib/shared/sealing";
import { describeSealingSuite } from "@/lib/shared/sealing/descriptor";
import { startTestAgent, TEST_SERVICE_KEY } from "../support/agent";
import { createTestDatabase } from "../support/database";
import { configureGateway } from "../support/gateway";
import { chain, freshAddress, usdcBalance, wallet } from "../support/payments";
import { relayToRoutes } from "../support/routes";

/**
 * Proof that a client can seal from what the service serves alone: tests/interop/seal.py, written
 * from GET /api/sealing and GET /api/enclave-key only (Python, Debian's python3-nacl), checks
 * itself against the served vectors, seals a real question through the paid route (the paying
 * stays here, with the official x402 client) and opens the enclave's answer. And a failed opening
 * says what was expected, suggesting a new key only when the key did change.
 */

/**
 * The interpreter: PYTHON3 when set, else the first `python3` on PATH that imports PyNaCl. The first
 * `python3` on PATH may be a pyenv or venv one that cannot see Debian's python3-nacl, which installs
 * for the system interpreter further down PATH.
 */
function findPython(): string {
  if (process.env.PYTHON3) return process.env.PYTHON3;
  const candidates = (process.env.PATH ?? "").split(path.delimiter).filter(Boolean).map((dir) => path.join(dir, "python3"));
  const withNacl = candidates.find((file) => fs.existsSync(file) && spawnSync(file, ["-c", "import nacl.bindings"]).status === 0);
  return withNacl ?? "python3";
}
const PYTHON = findPython();
const SCRIPT = path.resolve(import.meta.dirname, "../interop/seal.py");
const LIBRARY = path.resolve(import.meta.dirname, "../fixtures/library/records.jsonl");

/** Runs seal.py without blocking this process (the gateway it talks to serves from here). */
function python(args: string[], stdin = ""): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(PYTHON, [SCRIPT, ...args], { stdio: ["pipe", "pipe", "pipe"], env: { ...process.env, PYTHONDONTWRITEBYTECODE: "1" } });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c: Buffer) => (stdout += c.toString()));
    child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
    child.once("error", reject);
    child.once("exit", (status) => resolve({ status, stdout, stderr }));
    child.stdin.end(stdin);
  });
}

/** The gateway's route handlers behind a real HTTP socket, so another process can call them. */
async function serveGateway(): Promise<{ url: string; close: () => Promise<void> }> {
  let origin = "";
  const server = http.createServer(relayToRoutes(() => origin));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url: origin, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

describe("sealing from the served material alone", () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let agent: Awaited<ReturnType<typeof startTestAgent>>;
  let gateway: Awaited<ReturnType<typeof serveGateway>>;
  let restore: () => Promise<void>;
  const kekDir = fs.mkdtempSync(path.join(os.tmpdir(), "lra-interop-"));
  const payTo = freshAddress();
  const gatewayEnv = (upstream: string) => ({
    POSTGRES_URL: database.url,
    UPSTREAM_API_URL: upstream,
    AGENT_SERVICE_KEY: TEST_SERVICE_KEY,
    PUBLIC_URL: gateway.url,
    RPC_URL: chain().rpcUrl,
    PAY_TO_ADDRESS: payTo,
  });
  const pay = () => createPayingFetch({ privateKey: wallet(74).privateKey, network: chain().network, asset: chain().asset }).fetch;
  const postChat = (fetcher: typeof fetch, body: unknown) =>
    fetcher(`${gateway.url}/api/chat/encrypted`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });

  beforeAll(async () => {
    // .ci/run installs python3-nacl: its absence is a broken machine, never a reason to skip.
    const probe = spawnSync(PYTHON, ["-c", "import nacl.bindings"], { encoding: "utf8" });
    if (probe.status !== 0) {
      throw new Error(`${PYTHON} cannot import nacl (Debian's python3-nacl): run \`apt-get install -y python3-nacl\` (.ci/run does). ${probe.error?.message ?? probe.stderr}`);
    }
    database = await createTestDatabase();
    agent = await startTestAgent({
      POSTGRES_URL: database.url,
      LITERATURE_SOURCES: "local",
      ENCLAVE_KEK_FILE: path.join(kekDir, "enclave.kek"),
      PRIVATE_CHAT_WAIT_MS: "15000",
    });
    await importLibraryFile({ db: agent.pool, file: LIBRARY });
    gateway = await serveGateway();
    restore = await configureGateway(gatewayEnv(agent.url));
    forgetEnclaveKey();
  });
  afterAll(async () => {
    await restore?.();
    await gateway?.close();
    await agent?.stop();
    await database?.drop();
    fs.rmSync(kekDir, { recursive: true, force: true });
  });

  it("serves the suite with the key, read from the scheme's constants, linking the sealing page", async () => {
    const served = enclaveKeyResponseSchema.parse(await (await fetch(`${gateway.url}/api/enclave-key`)).json());
    expect(served.sealing).toEqual(describeSealingSuite({ pageUrl: `${gateway.url}/api/sealing` }));
    expect(sealingSuiteSchema.parse(served.sealing)).toEqual(served.sealing);
    expect(served.sealing?.kdf.request.info).toBe(REQUEST_INFO);
    const page = (await (await fetch(served.sealing!.page)).json()) as { suite: unknown };
    expect(page.suite).toEqual(served.sealing);
  });

  it("the Python implementation reproduces the served vectors byte for byte and refuses the forged answer", async () => {
    const run = await python(["vectors", gateway.url]);
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({
      checked: [
        "enclave public key",
        "request shared secret",
        "request key",
        "hpke_ephemeral_public_key",
        "hpke_ciphertext",
        "hpke_response_ephemeral_key",
        "response shared secret",
        "response key",
        "hpke_response_ciphertext",
        "opened answer",
        "forged answer refused",
        "recovery key example",
      ],
    });
  });

  it("Python seals a question, the gateway is paid $0.02 and relays it, and Python opens the enclave's answer", async () => {
    const before = await usdcBalance(payTo);
    const sealed = await python(["seal", gateway.url, JSON.stringify({ message: "Does rapamycin extend lifespan in mice?" })]);
    expect(sealed.stderr).toBe("");
    expect(sealed.status).toBe(0);
    const { envelope, answerKey, page } = JSON.parse(sealed.stdout) as { envelope: Record<string, string>; answerKey: unknown; page: string };
    expect(Object.keys(envelope).sort()).toEqual(["hpke_ciphertext", "hpke_ephemeral_public_key"]);

    const paid = await postChat(pay(), envelope);
    expect(paid.status).toBe(200);
    const response = (await paid.json()) as Record<string, string>;
    expect(paid.headers.get("payment-response")).toBeTruthy();
    expect((await usdcBalance(payTo)) - before).toBe(20_000n);

    const opened = await python(["open"], JSON.stringify({ answerKey, page, response }));
    expect(opened.stderr).toBe("");
    expect(opened.status).toBe(0);
    const result = chatResultSchema.parse(JSON.parse(opened.stdout));
    expect(result.references.some((r) => /rapamycin/i.test(r.title ?? ""))).toBe(true);

    // The same answer with its ephemeral key swapped does not open: Python refuses it.
    const other = encodeBase64(p.publicKey(p.randomBytes(32)));
    const refused = await python(["open"], JSON.stringify({ answerKey, page, response: { ...response, hpke_response_ephemeral_key: other } }));
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain("not sealed by the enclave for this request");
  });

  it("answers an envelope under the wrong derivation 400 naming the expected suite and key, suggesting no new key, free", async () => {
    const { hpke_public_key: key } = enclaveKeyResponseSchema.parse(await (await fetch(`${gateway.url}/api/enclave-key`)).json());
    // A plausible mistake: the right cipher and layout, the wrong info string.
    const e = p.randomBytes(32);
    const E = p.publicKey(e);
    const wrongKey = p.hkdf(p.sharedSecret(e, Buffer.from(key, "base64")), E, "chat-private-request");
    const nonce = p.randomBytes(24);
    const ciphertext = Buffer.concat([nonce, p.seal(wrongKey, nonce, new TextEncoder().encode('{"message":"hello"}'))]);
    const before = await usdcBalance(payTo);
    const response = await postChat(pay(), { hpke_ciphertext: ciphertext.toString("base64"), hpke_ephemeral_public_key: encodeBase64(E) });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { error: string; reason: string; message: string };
    expect(body.reason).toBe("decryption_failed");
    expect(body.error).toContain(key);
    for (const expected of ["X25519", "HKDF-SHA256", `info = "${REQUEST_INFO}"`, "XChaCha20-Poly1305", "24-byte nonce", "UTF-8 JSON", "GET /api/sealing"]) {
      expect(body.message).toContain(expected);
    }
    expect(JSON.stringify(body)).not.toMatch(/rotat|changed|seal anew/i);
    expect(await usdcBalance(payTo)).toBe(before);
  });

  it("says the key changed only when the enclave's key is not the one the gateway served", async () => {
    const stale = enclaveKeyResponseSchema.parse(await (await fetch(`${gateway.url}/api/enclave-key`)).json()).hpke_public_key;
    // The enclave now holds another key (as after a rotation); the gateway still has the old one cached.
    const rotated = await startTestAgent({ POSTGRES_URL: database.url, LITERATURE_SOURCES: "local", ENCLAVE_PRIVATE_KEY: encodeBase64(new Uint8Array(32).fill(0x5a)) });
    await restore();
    restore = await configureGateway(gatewayEnv(rotated.url));
    try {
      const sealed = sealRequest({ enclavePublicKey: stale, plaintext: { message: "hello" } });
      const response = await postChat(pay(), sealed.envelope);
      expect(response.status).toBe(400);
      const body = (await response.json()) as { error: string; reason: string; message: string };
      expect(body.reason).toBe("decryption_failed");
      expect(body.message).toMatch(/^The enclave key changed since this gateway last served it: fetch GET \/api\/enclave-key again and seal anew\. The enclave expects/);
      const current = enclaveKeyResponseSchema.parse(await (await fetch(`${gateway.url}/api/enclave-key`)).json()).hpke_public_key;
      expect(current).not.toBe(stale);
      expect(body.error).toContain(current);
    } finally {
      await restore();
      restore = await configureGateway(gatewayEnv(agent.url));
      forgetEnclaveKey();
      await rotated.stop();
    }
  });
});
