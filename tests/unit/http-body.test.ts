import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ApiError, parseJsonBody, readJsonObject } from "@/lib/shared/http";

const LIMIT = 1024;

function post(body: BodyInit | null, headers: Record<string, string> = { "content-type": "application/json" }): Request {
  return new Request("http://gateway.test/api/chat", { method: "POST", body, headers, duplex: "half" } as RequestInit);
}

async function failure(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof ApiError) return err;
    throw err;
  }
  throw new Error("expected an ApiError");
}

/** A body stream that counts how many chunks were pulled from it. */
function countingStream(chunks: number, chunkSize: number) {
  const state = { pulled: 0, cancelled: false };
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (state.pulled >= chunks) return controller.close();
      state.pulled++;
      controller.enqueue(new Uint8Array(chunkSize).fill(0x20));
    },
    cancel() {
      state.cancelled = true;
    },
  });
  return { stream, state };
}

describe("reading JSON bodies", () => {
  it("returns the object", async () => {
    expect(await readJsonObject(post('{"message":"hi"}'), { maxBytes: LIMIT })).toEqual({ message: "hi" });
  });

  it("reads JSON whatever the declared content type (curl -d sends form data)", async () => {
    expect(await readJsonObject(post('{"a":1}', {}), { maxBytes: LIMIT })).toEqual({ a: 1 });
    const form = post('{"a":1}', { "content-type": "application/x-www-form-urlencoded" });
    expect(await readJsonObject(form, { maxBytes: LIMIT })).toEqual({ a: 1 });
  });

  it.each([
    ["empty", ""],
    ["whitespace", "  \n"],
    ["malformed", '{"message": '],
    ["an array", "[1,2]"],
    ["null", "null"],
    ["a number", "42"],
    ["a string", '"hello"'],
  ])("answers 400 for %s", async (_name, body) => {
    const err = await failure(readJsonObject(post(body), { maxBytes: LIMIT }));
    expect(err.status).toBe(400);
    expect(err.toBody().error).toMatch(/JSON|empty/);
  });

  it("answers 400 for invalid UTF-8", async () => {
    const err = await failure(readJsonObject(post(new Uint8Array([0x7b, 0xff, 0x7d])), { maxBytes: LIMIT }));
    expect(err.status).toBe(400);
  });

  it("answers 400 for a form-encoded body", async () => {
    const err = await failure(readJsonObject(post("message=hi", { "content-type": "application/x-www-form-urlencoded" }), { maxBytes: LIMIT }));
    expect(err.status).toBe(400);
  });

  it("refuses an oversized declared body with 413 before reading it", async () => {
    const { stream, state } = countingStream(100, 1024);
    const request = post(stream, { "content-type": "application/json", "content-length": String(100 * 1024) });
    const err = await failure(readJsonObject(request, { maxBytes: LIMIT }));
    expect(err.status).toBe(413);
    expect(err.toBody()).toMatchObject({ error: expect.stringContaining("1024 bytes") });
    expect(state.pulled).toBeLessThanOrEqual(1); // a stream may prefetch one chunk; nothing was read whole
  });

  it("stops reading an undeclared oversized body as soon as it passes the limit", async () => {
    const { stream, state } = countingStream(1000, 512);
    const err = await failure(readJsonObject(post(stream), { maxBytes: LIMIT }));
    expect(err.status).toBe(413);
    expect(state.pulled).toBeLessThan(10);
    expect(state.cancelled).toBe(true);
  });

  it("accepts a body of exactly the limit", async () => {
    const body = JSON.stringify({ m: "x".repeat(LIMIT - 8) });
    expect(body.length).toBe(LIMIT);
    await expect(readJsonObject(post(body), { maxBytes: LIMIT })).resolves.toBeTruthy();
  });

  it("validates against a schema and names the fields in the 400", async () => {
    const schema = z.object({ message: z.string(), count: z.int() });
    expect(await parseJsonBody(post('{"message":"m","count":2}'), schema, { maxBytes: LIMIT })).toEqual({ message: "m", count: 2 });
    const err = await failure(parseJsonBody(post('{"count":"two"}'), schema, { maxBytes: LIMIT }));
    expect(err.status).toBe(400);
    expect(err.message).toContain("message:");
    expect(err.message).toContain("count:");
  });
});
