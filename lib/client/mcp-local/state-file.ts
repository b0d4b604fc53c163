import fs from "node:fs";
import path from "node:path";
import type { z } from "zod";
import { sleep } from "@/lib/client/poll";

/**
 * A small JSON file of the local MCP server's state (the spend ledger, the payment destinations
 * first seen), changed by read-modify-write under a lock file, so that the several servers one
 * user may run at once (one per assistant) never lose each other's updates: each change reads the
 * file afresh, decides, and writes it whole (to a temporary file renamed over it) while holding
 * `<file>.lock`. The change itself is synchronous, so within one process nothing interleaves with
 * it either. The directory and files are the user's alone (0700, 0600).
 */

/** Thrown when the file exists but is not what this server wrote: it is never silently reset. */
export class StateFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "StateFileError";
  }
}

/**
 * A lock older than this was left by a process that died while holding it: a change takes
 * milliseconds, so waiting this long once after a crash is the whole cost.
 */
const STALE_LOCK_MS = 10_000;

function removeIfStale(lock: string): void {
  try {
    if (Date.now() - fs.statSync(lock).mtimeMs > STALE_LOCK_MS) fs.rmSync(lock, { force: true });
  } catch {
    // Released meanwhile.
  }
}

async function acquire(lock: string): Promise<void> {
  for (;;) {
    try {
      const fd = fs.openSync(lock, "wx", 0o600);
      fs.writeSync(fd, String(process.pid));
      fs.closeSync(fd);
      return;
    } catch (err) {
      if (!(err instanceof Error && "code" in err && err.code === "EEXIST")) throw err;
    }
    removeIfStale(lock);
    await sleep(5 + Math.random() * 10);
  }
}

function read<T>(file: string, schema: z.ZodType<T>, empty: () => T): T {
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch (err) {
    if (err instanceof Error && "code" in err && err.code === "ENOENT") return empty();
    throw err;
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new StateFileError(`${file} is not valid JSON; fix or remove it (nothing is paid until then)`);
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) throw new StateFileError(`${file} is not in the expected format (${parsed.error.issues[0]?.message}); fix or remove it (nothing is paid until then)`);
  return parsed.data;
}

/**
 * Applies `change` to the file's current content under its lock and writes the result; returns
 * what `change` returned. `change` runs synchronously and may throw to leave the file unchanged.
 * Throws StateFileError when the file holds something else than `schema` describes.
 */
export async function updateStateFile<T, R>({
  file,
  schema,
  empty,
  change,
}: {
  file: string;
  schema: z.ZodType<T>;
  empty: () => T;
  change: (state: T) => { state: T; result: R } | { state?: undefined; result: R };
}): Promise<R> {
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const lock = `${file}.lock`;
  await acquire(lock);
  try {
    const outcome = change(read(file, schema, empty));
    if (outcome.state !== undefined) {
      const temporary = `${file}.${process.pid}.tmp`;
      fs.writeFileSync(temporary, `${JSON.stringify(outcome.state, null, 2)}\n`, { mode: 0o600 });
      fs.renameSync(temporary, file);
    }
    return outcome.result;
  } finally {
    fs.rmSync(lock, { force: true });
  }
}

/** The file's content (without the lock: a whole file is always in place, thanks to the rename). */
export function readStateFile<T>({ file, schema, empty }: { file: string; schema: z.ZodType<T>; empty: () => T }): T {
  return read(file, schema, empty);
}
