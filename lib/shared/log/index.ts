/**
 * A small structured logger: one JSON object per line on stderr, so hosted log drains can parse
 * it. Callers pass facts, never request bodies: private-mode plaintext must never reach a log.
 */
type Fields = Record<string, unknown>;

function serializeError(err: unknown): unknown {
  if (!(err instanceof Error)) return err;
  return {
    name: err.name,
    message: err.message,
    stack: err.stack,
    ...(err.cause !== undefined ? { cause: serializeError(err.cause) } : {}),
  };
}

function write(level: "info" | "warn" | "error", message: string, fields: Fields = {}): void {
  const entry: Fields = { level, time: new Date().toISOString(), message };
  for (const [key, value] of Object.entries(fields)) entry[key] = value instanceof Error ? serializeError(value) : value;
  if (process.env.LOG_SILENT === "1") return;
  process.stderr.write(JSON.stringify(entry) + "\n");
}

export const log = {
  info: (message: string, fields?: Fields) => write("info", message, fields),
  warn: (message: string, fields?: Fields) => write("warn", message, fields),
  error: (message: string, fields?: Fields) => write("error", message, fields),
};
