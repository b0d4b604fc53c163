/**
 * The page's requests to the gateway's /api routes (the same ones agents use): pay, read, follow a
 * status route, with every failure turned into a plain sentence and a way forward. Kept free of
 * heavy imports: it is in the first page load; the paying fetch comes from lib/web/wallet.ts,
 * loaded on demand.
 */
import { describeResponse } from "@/lib/web/describe-response";
import { describeThrown } from "@/lib/web/describe-thrown";
import { isRecord } from "@/lib/shared/narrow";
import { readJsonObject } from "@/lib/web/response-json";
import { poll } from "@/lib/client/poll";
import type { Payer, ReceiptCheck } from "@/lib/web/types";
import { UserFacingError } from "@/lib/web/user-facing-error";

type Body = Record<string, unknown>;

export type PaidResult = { status: number; body: Body; transaction: string | null; receipt: ReceiptCheck | null };

/** POSTs `body` to a paid route with the payer's fetch (which answers the 402 by signing). */
export async function paidPost(payer: Payer, path: string, body: unknown): Promise<PaidResult> {
  let response: Response;
  try {
    response = await payer.payFetch(path, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  } catch (err) {
    throw describeThrown(err);
  }
  const parsed = await readJsonObject(response);
  const failure = describeResponse(response.status, parsed, response.headers);
  if (failure) throw failure;
  // The answer is the person's whatever its receipt says; a receipt that does not verify is shown as such.
  const receipt = payer.receiptOf
    ? await payer.receiptOf(response, path).catch((err: unknown): ReceiptCheck => ({ verified: false, problem: `it could not be checked (${err instanceof Error ? err.message : String(err)})` }))
    : null;
  return { status: response.status, body: parsed, transaction: transactionOf(response.headers.get("payment-response")), receipt };
}

/** The settled transaction hash from a PAYMENT-RESPONSE header (base64 JSON), if any. */
export function transactionOf(header: string | null): string | null {
  if (!header) return null;
  try {
    const value: unknown = JSON.parse(atob(header));
    return isRecord(value) && typeof value.transaction === "string" && value.transaction ? value.transaction : null;
  } catch {
    return null;
  }
}

/** GETs (or POSTs) a free route and returns its JSON, or throws its failure in words. */
export async function freeJson(path: string, init?: RequestInit): Promise<Body> {
  let response: Response;
  try {
    response = await fetch(path, { cache: "no-store", ...init });
  } catch (err) {
    throw describeThrown(err);
  }
  const body = await readJsonObject(response);
  const failure = describeResponse(response.status, body, response.headers);
  if (failure) throw failure;
  return body;
}

/**
 * Follows a free status route: reads it until `done`, every `intervalMs` (the contract's 750 ms to
 * 2 s), giving up after `limitMs` with `gaveUp` (by default: a retryable "no answer after …").
 * Each value goes to `onUpdate`.
 */
export async function followStatus<T>({
  read,
  done,
  onUpdate,
  intervalMs = 1_000,
  limitMs = 60_000,
  signal,
  gaveUp,
}: {
  read: () => Promise<T>;
  done: (value: T) => boolean;
  onUpdate?: (value: T) => void;
  intervalMs?: number;
  limitMs?: number;
  signal?: AbortSignal;
  gaveUp?: UserFacingError;
}): Promise<T> {
  const polled = await poll({ read, isFinal: done, onRead: onUpdate, pauseMs: intervalMs, limitMs, signal });
  if (polled.final) return polled.value;
  if (polled.stopped === "aborted") throw new UserFacingError("Stopped.");
  throw gaveUp ?? new UserFacingError(`No answer after ${Math.round(limitMs / 1000)} s.`, { action: "Retry to keep waiting: it was paid, and the answer is kept for an hour." });
}
