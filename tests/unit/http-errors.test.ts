import { describe, expect, it, vi } from "vitest";
import { ApiError, errorResponse, relayUpstreamError, withApi } from "@/lib/http";

const bytes = (s: string) => new TextEncoder().encode(s);

describe("error responses", () => {
  it("renders an ApiError as the contract's error body", async () => {
    const response = new ApiError("not_found", "Conversation not found").toResponse();
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: "Conversation not found" });
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

describe("unknown API paths", () => {
  it("answer a JSON 404 naming the path", async () => {
    const { GET, POST } = await import("@/app/api/[...path]/route");
    const response = await GET(new Request("http://gateway.test/api/nope/1"), { params: Promise.resolve({ path: ["nope", "1"] }) });
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: "No such route: GET /api/nope/1", reason: "not_found" });
    expect((await POST(new Request("http://gateway.test/api/x", { method: "POST" }), { params: Promise.resolve({ path: ["x"] }) })).status).toBe(404);
  });
});
