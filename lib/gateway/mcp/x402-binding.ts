import { randomUUID } from "node:crypto";
import type { SettleResponse } from "@x402/core/types";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { isRecord } from "@/lib/shared/narrow";

/**
 * The x402 MCP transport (x402-foundation/x402 `specs/transports-v2/mcp.md`) as this endpoint
 * speaks it: where the payment and its settlement travel, and the two ways of saying "payment
 * required".
 * - Tool-result binding (every client): a tool result with `isError: true`, the PaymentRequired
 *   in `structuredContent` and, JSON-encoded, in `content[0].text`.
 * - Extension binding `org.x402/payment` (a client that advertises it): a result of
 *   `resultType: "payment_required"` carrying `paymentRequired`.
 * Both take the PaymentPayload in `params._meta["x402/payment"]` and answer the settlement in
 * `result._meta["x402/payment-response"]`.
 */

const PAYMENT_META = "x402/payment";
const PAYMENT_RESPONSE_META = "x402/payment-response";
export const PAYMENT_EXTENSION = "org.x402/payment";
const CLIENT_CAPABILITIES_META = "io.modelcontextprotocol/clientCapabilities";

/**
 * The session id this endpoint gives a client that advertised `org.x402/payment` when it
 * initialized. The endpoint keeps no sessions (any gateway process may answer any request), so
 * the id itself carries the one thing worth remembering: this client takes `payment_required`
 * results. Nothing is stored; a client claiming it falsely only changes how its own payment
 * requests are phrased.
 */
const EXTENSION_SESSION_PREFIX = "x402-payment.";

type Meta = Record<string, unknown> | undefined;

/** Whether `capabilities` (a ClientCapabilities object) lists the `org.x402/payment` extension. */
function advertisesPaymentExtension(capabilities: unknown): boolean {
  return isRecord(capabilities) && isRecord(capabilities.extensions) && isRecord(capabilities.extensions[PAYMENT_EXTENSION]);
}

/**
 * Whether this request may be answered with the extension binding: its per-request client
 * capabilities (`params._meta["io.modelcontextprotocol/clientCapabilities"]`) list the extension,
 * or it carries the session id given to a client that listed it at initialize.
 */
export function usesPaymentExtension({ meta, sessionId }: { meta: Meta; sessionId: string | undefined }): boolean {
  return advertisesPaymentExtension(meta?.[CLIENT_CAPABILITIES_META]) || (sessionId?.startsWith(EXTENSION_SESSION_PREFIX) ?? false);
}

/** The session id for an initialize request whose capabilities list the extension; undefined otherwise. */
export function sessionIdForInitialize(message: unknown): string | undefined {
  if (!isRecord(message) || message.method !== "initialize" || !isRecord(message.params)) return undefined;
  return advertisesPaymentExtension(message.params.capabilities) ? `${EXTENSION_SESSION_PREFIX}${randomUUID()}` : undefined;
}

/** The PaymentPayload a call carries (`params._meta["x402/payment"]`), as sent: the paid route judges it. */
export function paymentOf(meta: Meta): unknown {
  return meta?.[PAYMENT_META];
}

/**
 * "Payment required" in the binding the request allows: the PaymentRequired body of the paid
 * route's 402, passed on as that route built it (its `error` says why a body would be refused, or
 * why a payment was).
 */
export function paymentRequiredResult(paymentRequired: Record<string, unknown>, { extension }: { extension: boolean }): CallToolResult {
  if (extension) return { resultType: "payment_required", paymentRequired, content: [] };
  return {
    isError: true,
    structuredContent: paymentRequired,
    content: [{ type: "text", text: JSON.stringify(paymentRequired) }],
  };
}

/** `_meta` carrying a settlement, or nothing. */
export function settlementMeta(settlement: SettleResponse | undefined): { _meta?: Record<string, unknown> } {
  return settlement ? { _meta: { [PAYMENT_RESPONSE_META]: settlement } } : {};
}

/**
 * A completed result as the request's revision expects it: with the extension, results are
 * tagged `resultType: "complete"` (the revision the extension belongs to requires it); earlier
 * revisions leave it out and read its absence the same way.
 */
export function completeResult(result: CallToolResult, { extension }: { extension: boolean }): CallToolResult {
  return extension ? { resultType: "complete", ...result } : result;
}
