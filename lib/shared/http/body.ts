import type { z } from "zod";
import { ApiError } from "@/lib/shared/http/errors";
import { errorMessage, isRecord } from "@/lib/shared/narrow";

/**
 * Reads a JSON object body with a size limit. A declared Content-Length over the limit is refused
 * before a byte is read; a body without one is counted as it streams and refused as soon as it
 * passes the limit, so an oversized body is never held whole.
 *
 * The Content-Type is not checked: clients such as `curl -d` or a bare `fetch` label JSON as form
 * data or text, and the contract says every body is JSON, so the bytes decide.
 *
 * Throws ApiError: 413 over the limit, 400 for an empty, malformed or non-object body.
 */
export async function readJsonObject(request: Request, { maxBytes }: { maxBytes: number }): Promise<Record<string, unknown>> {
  const text = await readBodyText(request, { maxBytes });
  if (text.trim() === "") {
    throw new ApiError("bad_request", "Request body is empty; expected a JSON object", { reason: "invalid_body" });
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new ApiError("bad_request", `Request body is not valid JSON: ${errorMessage(err)}`, { reason: "invalid_body" });
  }
  if (!isRecord(value)) {
    throw new ApiError("bad_request", "Request body must be a JSON object", { reason: "invalid_body" });
  }
  return value;
}

/**
 * Reads a body as UTF-8 text under the same limit, whatever it holds (the MCP endpoint parses its
 * JSON-RPC itself). Throws ApiError: 413 over the limit, 400 when it is not UTF-8.
 */
export async function readBodyText(request: Request, { maxBytes }: { maxBytes: number }): Promise<string> {
  const declared = request.headers.get("content-length");
  if (declared !== null && Number(declared) > maxBytes) throw tooLarge(maxBytes);
  return readTextWithLimit(request, maxBytes);
}

/** Reads and validates a JSON body against a contract schema. Throws ApiError 400/413. */
export async function parseJsonBody<T extends z.ZodType>(
  request: Request,
  schema: T,
  { maxBytes }: { maxBytes: number },
): Promise<z.output<T>> {
  const body = await readJsonObject(request, { maxBytes });
  return validateBody(schema, body);
}

/** Validates an already-read value; the 400 names each field that is wrong. */
export function validateBody<T extends z.ZodType>(schema: T, value: unknown): z.output<T> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const details = result.error.issues
    .slice(0, 5)
    .map((issue) => (issue.path.length > 0 ? `${issue.path.map(String).join(".")}: ${issue.message}` : issue.message))
    .join("; ");
  throw new ApiError("bad_request", `Invalid request body: ${details}`, { reason: "invalid_body" });
}

function tooLarge(maxBytes: number): ApiError {
  return new ApiError("payload_too_large", `Request body is larger than ${maxBytes} bytes`, { reason: "body_too_large" });
}

async function readTextWithLimit(request: Request, maxBytes: number): Promise<string> {
  if (!request.body) return "";
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge(maxBytes);
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new ApiError("bad_request", "Request body is not valid UTF-8", { reason: "invalid_body" });
  }
}
