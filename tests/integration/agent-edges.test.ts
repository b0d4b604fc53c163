import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { agentRequest, startLibraryAgent, TEST_SERVICE_KEY } from "../support/agent";

/**
 * Bad input at the agent's edges answers a JSON 4xx, never a 500 with an empty body: paths and
 * methods no route serves (404, or 405 naming the methods the path does serve), and text
 * PostgreSQL cannot store (NUL, unpaired surrogates), refused with 400 before anything is queued.
 */
describe("the agent's edges", () => {
  let agent: Awaited<ReturnType<typeof startLibraryAgent>>;

  beforeAll(async () => {
    agent = await startLibraryAgent();
  });
  afterAll(async () => {
    await agent?.stop();
  });

  const send = (method: string, route: string, body?: string) =>
    agent.app.fetch(new Request(`http://agent.test${route}`, { method, headers: { "content-type": "application/json", authorization: `Bearer ${TEST_SERVICE_KEY}` }, body }));

  it.each([
    ["PUT", "/api/chat", "POST"],
    ["GET", "/api/chat", "POST"],
    ["DELETE", "/api/health", "GET, HEAD"],
    ["POST", "/api/chat/status/abc", "GET, HEAD"],
    ["PATCH", "/api/literature/jobs/abc", "GET, HEAD"],
    ["OPTIONS", "/api/enclave-key", "GET, HEAD"],
  ])("answers %s %s 405 with Allow: %s and a JSON error", async (method, route, allow) => {
    const response = await send(method, route);
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe(allow);
    expect(await response.json()).toEqual({ error: `${method} is not allowed on ${route}; use ${allow}`, reason: "method_not_allowed" });
  });

  it.each([
    ["GET", "/api/chat/status/abc/"],
    ["GET", "/api/nothing-here"],
    ["POST", "/"],
    ["PUT", "/api/nothing-here"],
  ])("answers %s %s 404 with a JSON error", async (method, route) => {
    const response = await send(method, route);
    expect(response.status).toBe(404);
    expect(response.headers.get("content-type")).toContain("application/json");
    expect(await response.json()).toMatchObject({ error: `No such route: ${method} ${route}`, reason: "not_found" });
  });

  const unstorable = [
    { name: "NUL", text: "a\u0000b", problem: "NUL" },
    { name: "an unpaired high surrogate", text: "a\ud800b", problem: "unpaired surrogate" },
    { name: "an unpaired low surrogate", text: "\udc00", problem: "unpaired surrogate" },
  ];

  it.each(unstorable)("refuses $name in a chat message, a literature question or a tag with 400 naming it", async ({ text, problem }) => {
    const bodies: { route: string; body: unknown; field: string }[] = [
      { route: "/api/chat", body: { message: text }, field: "message" },
      { route: "/api/chat/sync", body: { message: text }, field: "message" },
      { route: "/api/literature", body: { question: text }, field: "question" },
      { route: "/api/literature", body: { question: "rapamycin", tags: ["mtor", text] }, field: "tags.1" },
      { route: "/api/deep-research/start", body: { message: text }, field: "message" },
    ];
    for (const { route, body, field } of bodies) {
      const response = await agentRequest(agent.app, route, { body });
      const answer = { route, status: response.status, body: (await response.json()) as { error: string; reason: string } };
      expect(answer).toMatchObject({ route, status: 400, body: { reason: "invalid_body" } });
      expect(answer.body.error).toContain(`${field}: `);
      expect(answer.body.error).toContain(problem);
    }
    const { rows } = await agent.pool.query<{ n: number }>("SELECT count(*)::int AS n FROM agent.jobs");
    expect(rows[0]!.n).toBe(0);
  });

  it("answers an oversized body 413 over real HTTP, to a client still sending it", async () => {
    // Several times the limit and more than a socket buffers, so the client is still writing when
    // the server has decided (it stops reading at the limit: tests/unit/http-body.test.ts); the
    // client must still get the 413, not a reset.
    const body = JSON.stringify({ message: "x".repeat(3 * 1024 * 1024) });
    for (const route of ["/api/chat", "/api/literature"]) {
      const response = await fetch(`${agent.url}${route}`, { method: "POST", headers: { "content-type": "application/json", authorization: `Bearer ${TEST_SERVICE_KEY}` }, body });
      expect(response.status).toBe(413);
      expect(await response.json()).toMatchObject({ reason: "body_too_large" });
    }
  });
});
