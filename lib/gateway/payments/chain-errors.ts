import { BaseError, HttpRequestError, RpcRequestError, SocketClosedError, TimeoutError, WebSocketRequestError } from "viem";
import type { PaymentReason } from "@/lib/gateway/payments/reasons";

/**
 * What went wrong talking to the chain, told apart because each is somebody else's fault: the
 * RPC could not be reached (ours: 503, try again), the node refused a transaction (a nonce or fee
 * problem of the facilitator account), or the transfer itself reverts (the payment's fault: 402).
 */
export type ChainFailure =
  | { kind: "unreachable"; message: string }
  | { kind: "rejected"; message: string; rejection: TransactionRejection }
  | { kind: "reverted"; message: string };

/** Why a node refused to take a signed transaction into its pool. */
export type TransactionRejection = "already_known" | "nonce_too_low" | "nonce_too_high" | "underpriced" | "no_gas_funds" | "other";

const REJECTIONS: [RegExp, TransactionRejection][] = [
  [/already known|known transaction|already imported|transaction already exists/i, "already_known"],
  [/nonce too high|nonce is too high|can't be queued/i, "nonce_too_high"],
  [/nonce too low|nonce has already been used|nonce is too low|expected nonce to be/i, "nonce_too_low"],
  [/underpriced|fee too low|max fee per gas less than block base fee|maxfeepergas.*too low|gas price too low/i, "underpriced"],
  [/insufficient funds for gas|doesn't have enough funds|insufficient funds for transfer/i, "no_gas_funds"],
];

/** True when `err` (any depth) is a transport failure: no answer, a timeout, an HTTP error status. */
export function isUnreachable(err: unknown): boolean {
  if (err instanceof BaseError) {
    return Boolean(err.walk((e) => e instanceof HttpRequestError || e instanceof TimeoutError || e instanceof WebSocketRequestError || e instanceof SocketClosedError));
  }
  if (err instanceof Error) {
    // Errors thrown below viem (fetch itself) before it could wrap them.
    return /fetch failed|ECONNREFUSED|ECONNRESET|ETIMEDOUT|EHOSTUNREACH|ENOTFOUND|socket hang up|UND_ERR_/i.test(`${err.message} ${causeMessage(err)}`);
  }
  return false;
}

/** Classifies an error of an RPC call that sends or simulates a transaction. */
export function classifyChainError(err: unknown): ChainFailure {
  const message = shortMessage(err);
  if (isUnreachable(err)) return { kind: "unreachable", message };
  const text = fullText(err);
  for (const [pattern, rejection] of REJECTIONS) {
    if (pattern.test(text)) return { kind: "rejected", message, rejection };
  }
  if (/revert|execution reverted|VM Exception/i.test(text)) return { kind: "reverted", message };
  // A JSON-RPC error answer we do not recognise: the node refused the call.
  if (err instanceof BaseError && err.walk((e) => e instanceof RpcRequestError)) return { kind: "rejected", message, rejection: "other" };
  return { kind: "reverted", message };
}

/** Everything an error says, to look for a revert reason in. */
export function revertText(err: unknown): string {
  return fullText(err);
}

/** The contract's own revert reason ("ERC20: transfer amount exceeds balance"), when the node gave one. */
export function revertReason(err: unknown): string | null {
  const text = fullText(err);
  const match =
    /reverted with reason string '([^']+)'/.exec(text) ?? /reverted with custom error '([^']+)'/.exec(text) ?? /execution reverted: ([^|\n]+)/i.exec(text) ?? /reason: ([^|\n]+)/i.exec(text);
  return match?.[1]?.trim() ?? null;
}

function shortMessage(err: unknown): string {
  if (err instanceof BaseError) return err.shortMessage || err.message;
  return err instanceof Error ? err.message : String(err);
}

/** The message of `err`'s cause, or "" when it has none (fetch puts the socket's error there). */
export function causeMessage(err: unknown): string {
  if (!(err instanceof Error) || typeof err.cause !== "object" || err.cause === null || !("message" in err.cause)) return "";
  return String(err.cause.message ?? "");
}

function fullText(err: unknown): string {
  const parts: string[] = [];
  let current: unknown = err;
  for (let depth = 0; current && depth < 8; depth++) {
    if (current instanceof BaseError) parts.push(current.shortMessage, current.details ?? "", current.message);
    else if (current instanceof Error) parts.push(current.message);
    else parts.push(String(current));
    current = typeof current === "object" && "cause" in current ? current.cause : undefined;
  }
  return parts.join(" | ");
}

/** Revert reasons of Circle's FiatToken (and OpenZeppelin-style tokens) → the payment's reason. */
const REVERT_REASONS: [RegExp, PaymentReason][] = [
  [/exceeds balance|insufficient balance/i, "insufficient_funds"],
  [/authorization is used or canceled|authorization is used|nonce already used/i, "payment_already_used"],
  [/authorization is not yet valid/i, "authorization_not_yet_valid"],
  [/authorization is expired/i, "authorization_expired"],
  [/invalid signature|ECRecover/i, "invalid_signature"],
];

/** What a transfer's revert (its error's whole text) means for the payment. */
export function reasonForRevert(text: string): PaymentReason {
  return REVERT_REASONS.find(([pattern]) => pattern.test(text))?.[1] ?? "payment_simulation_failed";
}
