import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { describePolling } from "@/lib/shared/discovery/polling";
import { getPaidOperation, type PaidOperation } from "@/lib/shared/operations";
import { buildLiteratureJobResult, buildQueuedChatResult } from "../support/builders";
import { createTestDatabase } from "../support/database";
import { configureGateway } from "../support/gateway";
import { startHttpDouble, type HttpDouble } from "../support/http-double";
import { routeFetch } from "../support/routes";

/**
 * Every non-final answer of the free status routes of chat and literature (plain and sealed)
 * carries Retry-After with the route's interval from lib/shared/discovery/polling.ts; a final one carries
 * none. The agent is a double answering what each test sets; deep research's status routes are
 * tested with their payments (deep-research-payments.test.ts).
 */

const PUBLIC_URL = "https://gateway.test";
const base64 = (bytes: number) => randomBytes(bytes).toString("base64");
const sealed = () => ({ hpke_response_ciphertext: base64(120), hpke_response_ephemeral_key: base64(32) });

/** A body of the agent's status route for each status word of each operation, as the contract shapes it. */
const BODIES: Partial<Record<PaidOperation["id"], Record<string, unknown>>> = {
  chat: {
    queued: { status: "queued", progress: { stage: "queued", percent: 0 } },
    active: { status: "active", progress: { stage: "searching", percent: 40 } },
    completed: { status: "completed", result: buildQueuedChatResult() },
    failed: { status: "failed", error: "the model failed" },
  },
  chatEncrypted: {
    queued: { status: "queued" },
    active: { status: "active" },
    completed: { status: "completed", requestId: "sealed-chat", ...sealed() },
    failed: { status: "failed", error: "the enclave failed" },
  },
  literature: {
    queued: { jobId: "job", status: "queued" },
    running: { jobId: "job", status: "running" },
    completed: buildLiteratureJobResult({ jobId: "job", status: "completed" }),
    failed: { jobId: "job", status: "failed", error: "every source failed" },
  },
  literatureEncrypted: {
    active: { status: "active" },
    completed: { status: "completed", ...sealed() },
    failed: { status: "failed", error: "the enclave failed" },
  },
};

/** The agent's path answering each operation's status route. */
const AGENT_PATHS: Partial<Record<PaidOperation["id"], RegExp>> = {
  chat: /^\/api\/chat\/status\/[^/?]+$/,
  chatEncrypted: /^\/api\/private\/chat\/status\/[^/?]+$/,
  literature: /^\/api\/literature\/jobs\/[^/?]+$/,
  literatureEncrypted: /^\/api\/private\/literature\/status\/[^/?]+(\?.*)?$/,
};

describe("Retry-After on the status routes of chat and literature", () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let agent: HttpDouble;
  let restore: () => Promise<void>;
  let answer: { operation: PaidOperation["id"]; body: unknown } | null = null;

  beforeAll(async () => {
    database = await createTestDatabase();
    agent = await startHttpDouble((req) => {
      const route = answer && AGENT_PATHS[answer.operation];
      if (answer && route?.test(req.path)) return { status: 200, body: answer.body };
      return { status: 404, body: { status: "not_found", error: "unknown id" } };
    });
    restore = await configureGateway({ POSTGRES_URL: database.url, UPSTREAM_API_URL: agent.url, PUBLIC_URL, AGENT_SERVICE_KEY: "service-key-for-tests-0123" });
  });
  afterAll(async () => {
    await restore?.();
    await agent?.close();
    await database?.drop();
  });

  const cases = (Object.keys(BODIES) as PaidOperation["id"][]).flatMap((operation) =>
    Object.keys(BODIES[operation]!).map((status) => [operation, status] as const),
  );

  it("has a body for every status word of each route, so none goes untested", () => {
    for (const operation of Object.keys(BODIES) as PaidOperation["id"][]) {
      const { pendingStatuses, finalStatuses } = describePolling({ operation, publicUrl: PUBLIC_URL });
      const untested = [...pendingStatuses, ...finalStatuses].filter((s) => !(s in BODIES[operation]!) && !(operation === "literatureEncrypted" && s === "pending"));
      expect(untested, operation).toEqual([]); // `pending` is the sealed literature's 202 word, never a poll's
    }
  });

  it.each(cases)("%s answering %s", async (operation, status) => {
    const { path: pollPath, intervalSeconds } = getPaidOperation(operation).polling;
    answer = { operation, body: BODIES[operation]![status] };
    const response = await routeFetch(`${PUBLIC_URL}${pollPath.replace(/\{\w+\}/, "some-id")}`);
    const text = await response.text();
    expect(response.status, text).toBe(200);
    expect(JSON.parse(text)).toMatchObject({ status });
    const { finalStatuses } = describePolling({ operation, publicUrl: PUBLIC_URL });
    if (finalStatuses.includes(status)) expect(response.headers.get("retry-after")).toBeNull();
    else expect(response.headers.get("retry-after")).toBe(String(intervalSeconds));
  });

  it("sends no Retry-After with an unknown id's 404", async () => {
    answer = null;
    const response = await routeFetch(`${PUBLIC_URL}/api/literature/encrypted/status/unknown-id`);
    expect(response.status).toBe(404);
    expect(response.headers.get("retry-after")).toBeNull();
  });
});
