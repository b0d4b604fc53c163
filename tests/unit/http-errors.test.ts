import net from "node:net";
import pg from "pg";
import { describe, expect, it, vi } from "vitest";
import { ApiError, errorResponse, relayUpstreamError, withApi } from "@/lib/shared/http";

const bytes = (s: string) => new TextEncoder().encode(s);

describe("error responses", () => {
  it("renders an ApiError as the contract's error body", async () => {
    const response = new ApiError("not_found", "Conversation not found").toResponse();
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: "Conversation not found" });
  });

  it("answers a database that cannot be reached 503 with Retry-After (a passing condition, not a bug), and a query's own fault still 500", async () => {
    // Real errors of node-postgres: a refused connection, and the server shutting down under a query.
    const refused = await new pg.Client({ connectionString: await closedPostgresUrl(), connectionTimeoutMillis: 5_000 }).connect().catch((e: unknown) => e);
    const shutdown = new pg.DatabaseError("terminating connection due to administrator command", 0, "error");
    shutdown.code = "57P01";
    const terminated = new Error("Connection terminated unexpectedly");
    for (const err of [refused, shutdown, terminated]) {
      const response = errorResponse(err, { route: "POST /api/chat" });
      expect(response.status).toBe(503);
      expect(response.headers.get("retry-after")).toBe("5");
      expect(await response.json()).toMatchObject({ reason: "database_unavailable" });
    }
    const badQuery = new pg.DatabaseError('relation "gateway.nope" does not exist', 0, "error");
    badQuery.code = "42P01";
    expect(errorResponse(badQuery).status).toBe(500);
  });

  it("answers unknown failures 500 without their cause, and logs the cause", async () => {
    const write = vi.spyOn(process.stderr, "write").mockReturnValue(true);
    const previous = process.env.LOG_SILENT;
    delete process.env.LOG_SILENT;
    try {
      const response = errorResponse(new Error("password authentication failed for user admin"), { route: "GET /x" });
      expect(response.status).toBe(500);
      const body = await response.text();
      expect(body).not.toContain("password");
      expect(JSON.parse(body)).toEqual({ error: "Internal server error" });
      const logged = write.mock.calls.map((c) => String(c[0])).join("");
      expect(logged).toContain("password authentication failed");
    } finally {
      process.env.LOG_SILENT = previous;
      write.mockRestore();
    }
  });

  it("withApi catches what a handler throws", async () => {
    const handler = withApi<{ id: string }>("GET /t/[id]", async ({ params }) => {
      throw new ApiError("bad_request", `bad ${params.id}`);
    });
    const response = await handler(new Request("http://t/"), { params: Promise.resolve({ id: "7" }) });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: "bad 7" });
  });
});

describe("relaying upstream errors", () => {
  it("relays a 4xx with its original status and body", async () => {
    const body = '{"error":"Conversation not found","detail":"c1"}';
    const response = relayUpstreamError({ status: 404, body: bytes(body), headers: new Headers({ "content-type": "application/json" }) });
    expect(response.status).toBe(404);
    expect(await response.text()).toBe(body);
  });

  it("passes a 429 with retryAfterSeconds from the body", async () => {
    const response = relayUpstreamError({
      status: 429,
      body: bytes('{"error":"Too many requests","retryAfterSeconds":12}'),
      headers: new Headers(),
    });
    expect(response.status).toBe(429);
    expect(response.headers.get("retry-after")).toBe("12");
    expect(await response.json()).toEqual({ error: "Too many requests", retryAfterSeconds: 12 });
  });

  it("derives retryAfterSeconds from a Retry-After header when the body lacks it", async () => {
    const response = relayUpstreamError({ status: 429, body: bytes("slow down"), headers: new Headers({ "retry-after": "7" }) });
    expect(await response.json()).toEqual({ error: "Rate limit exceeded", retryAfterSeconds: 7 });
  });

  it.each([500, 503, 301])("answers 502 for an upstream %i, without its body", async (status) => {
    const response = relayUpstreamError({ status, body: bytes("stack trace with secrets"), headers: new Headers() });
    expect(response.status).toBe(502);
    const body = await response.text();
    expect(body).not.toContain("secrets");
    expect(JSON.parse(body)).toMatchObject({ error: "Upstream API failed", reason: "upstream_error" });
  });
});

/** A PostgreSQL URL on a loopback port nothing listens on. */
async function closedPostgresUrl(): Promise<string> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `postgres://nobody@127.0.0.1:${port}/none`;
}
