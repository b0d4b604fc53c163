import { listen } from "@/agent/http/listen";
import fs from "node:fs";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { loadAgentConfig } from "@/agent/config";
import { openAgentDatabase } from "@/agent/db";
import { importLibraryFile } from "@/agent/library/import";
import { startAgentRuntime } from "@/agent/runtime";
import type { Queryable } from "@/lib/shared/db";

export const TEST_SERVICE_KEY = "agent-service-key-for-tests-0123";

/**
 * The configuration folder test agents use instead of the real ~/.config, so the default
 * key-encryption key (ENCLAVE_KEK_FILE unset) goes there. One per user, kept between runs as
 * `.data/enclave.kek` was: on the PGlite fallback every test file shares one agent schema, so
 * they must share the key that opens its stored enclave key.
 */
const testConfigHome = () => {
  const dir = path.join(os.tmpdir(), `lra-test-config-${os.userInfo().uid}`);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  return dir;
};

/**
 * The real agent (HTTP API, workers, engine) in this process, on its own port, against the test
 * database and whatever source base URLs `env` gives (a replay server).
 */
export async function startTestAgent(env: Record<string, string>) {
  const config = loadAgentConfig({ AGENT_SERVICE_KEY: TEST_SERVICE_KEY, AGENT_WORKERS: "2", JOB_POLL_MS: "50", LOG_SILENT: "1", XDG_CONFIG_HOME: testConfigHome(), ...env });
  const database = await openAgentDatabase(config);
  const { app, workers } = startAgentRuntime({ config, db: database.pool });
  const server = listen(app, { port: 0, hostname: "127.0.0.1" });
  await new Promise<void>((resolve) => server.once("listening", () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    app,
    pool: database.pool,
    stop: async () => {
      server.close();
      await workers.stop();
      await database.close();
    },
  };
}

/** Calls the agent's API in process, with the service key unless told otherwise. */
export function agentRequest(
  app: { fetch: (request: Request) => Response | Promise<Response> },
  path: string,
  init: { method?: string; body?: unknown; key?: string | null } = {},
): Promise<Response> {
  const headers: Record<string, string> = { "content-type": "application/json" };
  const key = init.key === undefined ? TEST_SERVICE_KEY : init.key;
  if (key) headers.authorization = `Bearer ${key}`;
  return Promise.resolve(
    app.fetch(
      new Request(`http://agent.test${path}`, {
        method: init.method ?? (init.body === undefined ? "GET" : "POST"),
        headers,
        ...(init.body === undefined ? {} : { body: typeof init.body === "string" ? init.body : JSON.stringify(init.body) }),
      }),
    ),
  );
}

/**
 * Fills the local library with the synthetic records of tests/fixtures/library (the demo's), for
 * tests whose agent searches the library alone (LITERATURE_SOURCES=local): with an empty library
 * no source could answer, and chat would be refused with 503 literature_unavailable. Importing
 * twice adds nothing.
 */
export async function seedLibrary(db: Queryable): Promise<void> {
  await importLibraryFile({ db, file: path.resolve(import.meta.dirname, "../fixtures/library/records.jsonl") });
}

/**
 * A database of its own and an agent on it that searches the synthetic local library alone, with
 * a key-encryption key of its own (so its enclave key is fresh); `stop` removes all three.
 */
export async function startLibraryAgent(env: Record<string, string> = {}) {
  const { createTestDatabase } = await import("./database");
  const database = await createTestDatabase();
  const kekDir = fs.mkdtempSync(path.join(os.tmpdir(), "lra-agent-"));
  const agent = await startTestAgent({ POSTGRES_URL: database.url, LITERATURE_SOURCES: "local", ENCLAVE_KEK_FILE: path.join(kekDir, "enclave.kek"), ...env });
  await seedLibrary(agent.pool);
  return {
    ...agent,
    database,
    stop: async () => {
      await agent.stop();
      await database.drop();
      fs.rmSync(kekDir, { recursive: true, force: true });
    },
  };
}
