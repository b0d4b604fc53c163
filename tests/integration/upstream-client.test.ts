import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { UpstreamClient, UpstreamContractError, UpstreamHttpError, UpstreamUnavailableError } from "@/lib/gateway/upstream/client";
import { closedUrl, startHttpDouble, type DoubleHandler, type HttpDouble } from "../support/http-double";

describe("upstream client", () => {
  let double: HttpDouble;
  let handler: DoubleHandler;
  beforeAll(async () => {
    double = await startHttpDouble((req) => handler(req));
  });
  afterAll(() => double.close());

  const client = (options: Partial<ConstructorParameters<typeof UpstreamClient>[0]> = {}) =>
    new UpstreamClient({ baseUrl: `${double.url}/`, serviceKey: "svc-key-0123456789abcdef", timeoutMs: 500, retryBaseDelayMs: 5, ...options });

  it("sends the service key and JSON, and validates the answer", async () => {
    handler = () => ({ status: 202, body: { requestId: "r1", status: "queued" } });
    const schema = z.object({ requestId: z.string(), status: z.literal("queued") });
    const { status, data } = await client().json("/api/chat", schema, { method: "POST", body: { message: "hi" } });
    expect(status).toBe(202);
    expect(data).toEqual({ requestId: "r1", status: "queued" });
    const sent = double.requests.at(-1)!;
    expect(sent.headers.authorization).toBe("Bearer svc-key-0123456789abcdef");
    expect(sent.headers["content-type"]).toBe("application/json");
    expect(JSON.parse(sent.body)).toEqual({ message: "hi" });
  });

  it("retries an idempotent read after a transient 503", async () => {
    let calls = 0;
    handler = () => (++calls < 3 ? { status: 503, body: { error: "busy" } } : { status: 200, body: { ok: true } });
    const { data } = await client().json("/api/chat/status/x", z.object({ ok: z.boolean() }));
    expect(data.ok).toBe(true);
    expect(calls).toBe(3);
  });

  it("never retries a write", async () => {
    let calls = 0;
    handler = () => {
      calls++;
      return { status: 503, body: { error: "busy" } };
    };
    const err = await client().json("/api/chat", z.object({}), { method: "POST", body: {} }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UpstreamHttpError);
    expect(calls).toBe(1);
    const response = (err as UpstreamHttpError).toResponse();
    expect(response.status).toBe(502);
  });

  it("relays a 4xx with its body", async () => {
    handler = () => ({ status: 404, body: { error: "Conversation not found" } });
    const err = (await client().json("/api/deep-research/x", z.object({})).catch((e: unknown) => e)) as UpstreamHttpError;
    expect(err).toBeInstanceOf(UpstreamHttpError);
    const response = err.toResponse();
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: "Conversation not found" });
  });

  it("times out a slow answer", async () => {
    handler = () => ({ status: 200, body: {}, delayMs: 2_000 });
    const err = (await client({ retries: 0 }).send("/slow").catch((e: unknown) => e)) as UpstreamUnavailableError;
    expect(err).toBeInstanceOf(UpstreamUnavailableError);
    expect(err.timedOut).toBe(true);
    expect(err.status).toBe(502);
  });

  it("reports an unreachable upstream as 502 after retrying reads", async () => {
    const unreachable = new UpstreamClient({ baseUrl: await closedUrl(), timeoutMs: 500, retryBaseDelayMs: 5 });
    const err = (await unreachable.send("/api/health").catch((e: unknown) => e)) as UpstreamUnavailableError;
    expect(err).toBeInstanceOf(UpstreamUnavailableError);
    expect(err.timedOut).toBe(false);
    expect(err.toBody()).toMatchObject({ error: "Upstream API is unreachable", reason: "upstream_unreachable" });
    // A restarting agent is a passing condition: the client is told when to try again.
    expect(err.toResponse().headers.get("retry-after")).toBe("5");
  });

  it("refuses a 2xx body that breaks the contract", async () => {
    handler = () => ({ status: 200, body: { requestId: 5 } });
    const err = await client().json("/api/chat/status/x", z.object({ requestId: z.string() })).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UpstreamContractError);
    handler = () => ({ status: 200, body: "<html>" });
    const err2 = await client().json("/api/chat/status/x", z.object({})).catch((e: unknown) => e);
    expect(err2).toBeInstanceOf(UpstreamContractError);
  });
});
