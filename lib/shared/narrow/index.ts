/**
 * Narrowing for values whose type the compiler cannot know (JSON, thrown values, jsonb): guards
 * instead of casts, so a wrong shape is a checked branch rather than a silent lie (issue 26).
 */

/** A plain JSON-like object (not null, not an array). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The message of a thrown value, whatever was thrown. */
export function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** A thrown value's `code` (Node's errno codes, pg's SQLSTATE), when it carries a string one. */
export function errorCode(err: unknown): string | undefined {
  return typeof err === "object" && err !== null && "code" in err && typeof err.code === "string" ? err.code : undefined;
}

/**
 * What a failed request's error says, shortest first: its cause's code (ECONNREFUSED, from
 * fetch's TypeError), else its cause's message, else its own message.
 */
export function describeFailure(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const causeMessage = isRecord(err.cause) && typeof err.cause.message === "string" ? err.cause.message : undefined;
  return errorCode(err.cause) ?? causeMessage ?? err.message;
}

/**
 * The keys of an object built from literal keys (a record over a union, a table of constants),
 * typed as its keys: Object.keys gives string[] because an object may carry keys its type does
 * not name, which these objects, written here, do not.
 */
export function keysOf<T extends object>(value: T): (keyof T & string)[] {
  return Object.keys(value) as (keyof T & string)[];
}
