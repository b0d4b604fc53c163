import { serve } from "@hono/node-server";
import { spawn } from "node:child_process";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { loadAgentConfig } from "@/agent/config";
import { openAgentDatabase, type AgentDatabase } from "@/agent/db";
import { claimJob, completeJob, enqueueJob } from "@/agent/jobs/queue";
import { createJobWaiter, listenConnectionOf, type JobWaiter } from "@/agent/jobs/wait";
import { createAgentApp } from "@/agent/server";
import type { Queryable } from "@/lib/shared/db";
import { agentRequest, TEST_SERVICE_KEY } from "../support/agent";
import { createTestDatabase, databaseKind, NEEDS_SERVER } from "../support/database";
import { configureGateway } from "../support/gateway";
import { routeFetch } from "../support/routes";
import { until } from "../support/until";

const root = path.resolve(import.meta.dirname, "../..");
const PUBLIC_URL = "https://gateway.test";
const LONG = 600_000;

/** A database handle that counts the queries sent through it. */
function counting(db: Queryable): Queryable & { count: number } {
  const wrapped = {
    count: 0,
    query: ((...args: Parameters<Queryable["query"]>) => {
      wrapped.count++;
      return (db.query as (...a: unknown[]) => unknown)(...args);
    }) as Queryable["query"],
  };
  return wrapped;
}


/** Runs tests/support/finish-job-process.ts: another process completes the job through the queue. */
function finishInAnotherProcess(env: Record<string, string>): Promise<void> {
  const child = spawn(process.execPath, ["--import", "tsx", path.join(root, "tests/support/finish-job-process.ts")], {
    cwd: root,
    env: { ...process.env, LOG_SILENT: "1", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (d: Buffer) => (output += d.toString()));
  child.stderr.on("data", (d: Buffer) => (output += d.toString()));
  return new Promise((resolve, reject) => child.once("exit", (code) => (code === 0 && output.includes("DONE") ? resolve() : reject(new Error(`finish-job-process: ${code} ${output}`)))));
}

/** A sealed literature answer as the worker stores it (opaque to everyone but the client). */
const SEALED = { hpke_response_ciphertext: Buffer.alloc(64, 1).toString("base64"), hpke_response_ephemeral_key: Buffer.alloc(32, 2).toString("base64") };

/**
 * Issue 12, point 4: the free literature long-poll must wait on a notification, not query the
 * database in a loop, and one client may hold only a few long-polls open at once.
 */
describe("the encrypted literature long-poll", () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let agentDb: AgentDatabase;
  const baseEnv = () => ({ AGENT_SERVICE_KEY: TEST_SERVICE_KEY, POSTGRES_URL: database.url, LITERATURE_SOURCES: "local", LOG_SILENT: "1" });

  beforeAll(async () => {
    database = await createTestDatabase();
    agentDb = await openAgentDatabase(loadAgentConfig(baseEnv()));
  });
  // Each test's job is the only one: the tests finish it by claiming the oldest queued job.
  beforeEach(async () => {
    await agentDb.pool.query("DELETE FROM agent.jobs");
  });
  afterAll(async () => {
    await agentDb?.close();
    await database?.drop();
  });

  /** A private literature job that stays active until the test finishes it (no workers run here). */
  const activeJob = async () => (await enqueueJob({ db: agentDb.pool, kind: "private_literature", input: { envelope: { hpke_ciphertext: "AAAA", hpke_ephemeral_public_key: "AAAA" } }, lane: "paid", caller: "service" })).id;

  /** Completes a job without telling anyone: no NOTIFY, no announcement in this process. */
  const finishSilently = (id: string) =>
    agentDb.pool.query("UPDATE agent.jobs SET status = 'completed', result = $2, finished_at = now(), updated_at = now() WHERE id = $1", [id, JSON.stringify(SEALED)]);
  const listenerPids = async () =>
    (await agentDb.pool.query<{ pid: number }>("SELECT pid FROM pg_stat_activity WHERE query = 'LISTEN agent_job_finished' AND datname = current_database()")).rows.map((r) => r.pid);

  /** The agent's routes over a counting database handle and the given waiter. */
  function agentWith(waiter: (db: Queryable) => JobWaiter) {
    const db = counting(agentDb.pool);
    const jobWaiter = waiter(db);
    return { db, jobWaiter, app: createAgentApp({ config: loadAgentConfig(baseEnv()), db, jobWaiter }) };
  }

  it("a waiting long-poll costs the database a small constant number of queries, not one every 100 ms", async () => {
    const db = counting(agentDb.pool);
    const app = createAgentApp({ config: loadAgentConfig(baseEnv()), db });
    const id = await activeJob();
    const response = await agentRequest(app, `/api/private/literature/status/${id}?timeout=2`);
    expect(await response.json()).toEqual({ status: "active" });
    console.log(`queries for one 2-second long-poll of an active job: ${db.count}`);
    expect(db.count).toBeLessThanOrEqual(4);
  });

  it.skipIf(databaseKind() === "pglite")(`a job another process finishes wakes the waiter through LISTEN/NOTIFY, the re-check out of the way (${NEEDS_SERVER})`, async () => {
    const { db, jobWaiter, app } = agentWith((db) => createJobWaiter({ db, listen: listenConnectionOf(agentDb.pool), recheckMs: LONG }));
    try {
      const id = await activeJob();
      const started = Date.now();
      const polled = agentRequest(app, `/api/private/literature/status/${id}?timeout=25`).then((r) => r.json());
      await until(() => jobWaiter.stats().listening && jobWaiter.stats().sleeping === 1);
      await finishInAnotherProcess({ POSTGRES_URL: database.url, JOB_ID: id, RESULT: JSON.stringify(SEALED) });
      expect(await polled).toEqual({ status: "completed", ...SEALED });
      // Woken, not answered at the deadline: that would have taken the whole 25 s.
      expect(Date.now() - started).toBeLessThan(15_000);
      console.log(`queries for a long-poll woken by another process's NOTIFY: ${db.count}`);
      expect(db.count).toBeLessThanOrEqual(4);
      // One LISTEN connection, whatever the number of waiters.
      expect(await listenerPids()).toHaveLength(1);
    } finally {
      await jobWaiter.close();
    }
  });

  it.skipIf(databaseKind() === "pglite")(`a lost LISTEN connection is opened again, and every waiter then reads its job again (${NEEDS_SERVER})`, async () => {
    const { jobWaiter, app } = agentWith((db) => createJobWaiter({ db, listen: listenConnectionOf(agentDb.pool), recheckMs: LONG }));
    try {
      const id = await activeJob();
      const started = Date.now();
      const polled = agentRequest(app, `/api/private/literature/status/${id}?timeout=25`).then((r) => r.json());
      await until(() => jobWaiter.stats().listening && jobWaiter.stats().sleeping === 1);
      const [before] = await listenerPids();
      // The job finishes while nobody hears of it, and the LISTEN connection dies.
      await finishSilently(id);
      await agentDb.pool.query("SELECT pg_terminate_backend($1)", [before]);
      expect(await polled).toEqual({ status: "completed", ...SEALED });
      expect(Date.now() - started).toBeLessThan(15_000);
      await until(async () => (await listenerPids()).some((pid) => pid !== before));
    } finally {
      await jobWaiter.close();
    }
  });

  it("a lost notification delays the answer by the safety re-check at most, not to the end of the wait", async () => {
    const { jobWaiter, app } = agentWith((db) => createJobWaiter({ db, listen: null, recheckMs: 200 }));
    try {
      const id = await activeJob();
      const started = Date.now();
      const polled = agentRequest(app, `/api/private/literature/status/${id}?timeout=25`).then((r) => r.json());
      await until(() => jobWaiter.stats().sleeping === 1);
      await finishSilently(id);
      expect(await polled).toEqual({ status: "completed", ...SEALED });
      expect(Date.now() - started).toBeLessThan(15_000);
    } finally {
      await jobWaiter.close();
    }
  });

  it("in one process (the embedded database delivers no notification across connections), a job this process finishes wakes its waiter", async () => {
    const { jobWaiter, app } = agentWith((db) => createJobWaiter({ db, listen: null, recheckMs: LONG }));
    try {
      const id = await activeJob();
      const started = Date.now();
      const polled = agentRequest(app, `/api/private/literature/status/${id}?timeout=25`).then((r) => r.json());
      await until(() => jobWaiter.stats().sleeping === 1);
      const job = await claimJob({ db: agentDb.pool, workerId: "here", kinds: ["private_literature"], leaseSeconds: 30 });
      expect(job?.id).toBe(id);
      expect(await completeJob({ db: agentDb.pool, id, workerId: "here", result: SEALED })).toBe(true);
      expect(await polled).toEqual({ status: "completed", ...SEALED });
      expect(Date.now() - started).toBeLessThan(15_000);
    } finally {
      await jobWaiter.close();
    }
  });

  it("one client cannot hold more than LONG_POLL_MAX_PER_CLIENT long-polls at once: the next is 429 with Retry-After, other clients are unaffected", async () => {
    const { jobWaiter, app } = agentWith((db) => createJobWaiter({ db, listen: null, recheckMs: LONG }));
    const server = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" });
    await new Promise<void>((resolve) => server.once("listening", () => resolve()));
    const restore = await configureGateway({
      POSTGRES_URL: database.url,
      UPSTREAM_API_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      AGENT_SERVICE_KEY: TEST_SERVICE_KEY,
      PUBLIC_URL,
      LONG_POLL_MAX_PER_CLIENT: "2",
    });
    const poll = (id: string, client: string, timeout: number) =>
      routeFetch(`${PUBLIC_URL}/api/literature/encrypted/status/${id}?timeout=${timeout}`, { headers: { "x-forwarded-for": client } });
    try {
      const id = await activeJob();
      const held = [poll(id, "203.0.113.7", 25), poll(id, "203.0.113.7", 25)];
      await until(() => jobWaiter.stats().sleeping === 2);

      const refused = await poll(id, "203.0.113.7", 25);
      expect(refused.status).toBe(429);
      expect(refused.headers.get("retry-after")).toBe("2");
      expect(await refused.json()).toEqual({ error: expect.any(String), reason: "too_many_long_polls", retryAfterSeconds: 2 });
      // A poll that does not wait is not a long-poll: still answered.
      const quick = await poll(id, "203.0.113.7", 0);
      expect(quick.status).toBe(200);
      expect(await quick.json()).toEqual({ status: "active" });
      // Another address waits as usual.
      const other = poll(id, "198.51.100.9", 25);
      await until(() => jobWaiter.stats().sleeping === 3);

      const job = await claimJob({ db: agentDb.pool, workerId: "here", kinds: ["private_literature"], leaseSeconds: 30 });
      expect(job?.id).toBe(id);
      await completeJob({ db: agentDb.pool, id, workerId: "here", result: SEALED });
      for (const response of await Promise.all([...held, other])) {
        expect(response.status).toBe(200);
        expect(await response.json()).toEqual({ status: "completed", ...SEALED });
      }
      // Answered polls give their hold back.
      const { rows } = await agentDb.pool.query("SELECT client, holders FROM gateway.long_polls ORDER BY client");
      expect(rows).toEqual([
        { client: "198.51.100.9", holders: {} },
        { client: "203.0.113.7", holders: {} },
      ]);
      expect((await poll(id, "203.0.113.7", 25)).status).toBe(200);
    } finally {
      await restore();
      server.close();
      await jobWaiter.close();
    }
  });
});
