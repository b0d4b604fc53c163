/**
 * Whether an error says the database cannot be reached right now (the server is down, restarting
 * or refusing connections), as opposed to a fault of the query or of the data. Such a failure is a
 * passing condition: both services answer it 503 with Retry-After instead of 500
 * (lib/shared/http/errors.ts), so clients and monitors can tell "try again shortly" from a bug.
 */

import { errorCode } from "@/lib/shared/narrow";

/** SQLSTATE classes and codes of a server that is going away or not accepting connections yet. */
const UNAVAILABLE_SQLSTATES = new Set([
  "57P01", // admin_shutdown: the server is shutting down
  "57P02", // crash_shutdown
  "57P03", // cannot_connect_now: starting up or in recovery
  "53300", // too_many_connections
]);
const CONNECTION_EXCEPTION_CLASS = "08"; // connection_exception and its subclasses

/** Socket-level failures of the connection itself. */
const UNAVAILABLE_SYSCALL_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "EPIPE", "ETIMEDOUT", "EHOSTUNREACH", "ENETUNREACH", "EAI_AGAIN"]);

/** What node-postgres says when the connection went away under a query, or none could be had in time. */
const UNAVAILABLE_MESSAGES = [/^Connection terminated/, /^timeout exceeded when trying to connect/, /^Client has encountered a connection error/, /^Connection ended unexpectedly/];

export function isDatabaseUnavailable(err: unknown): boolean {
  for (let current: unknown = err, depth = 0; current instanceof Error && depth < 4; current = current.cause, depth++) {
    const code = errorCode(current);
    if (typeof code === "string" && (UNAVAILABLE_SQLSTATES.has(code) || code.startsWith(CONNECTION_EXCEPTION_CLASS) || UNAVAILABLE_SYSCALL_CODES.has(code))) return true;
    if (current instanceof AggregateError && current.errors.some((e) => isDatabaseUnavailable(e))) return true;
    if (UNAVAILABLE_MESSAGES.some((re) => re.test(current instanceof Error ? current.message : ""))) return true;
  }
  return false;
}
