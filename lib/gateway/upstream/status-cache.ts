import type { Queryable } from "@/lib/shared/db";

/**
 * What the agent says about itself before payment (can a literature source answer, is private mode
 * ready), remembered for a short while, so that an unpaid request, which anyone may send as often
 * as they like, costs the agent nothing (issue 24, item 11):
 * - each process serves its last answer per key while it is fresh (`freshMs`);
 * - past that, one refresh per key runs in the process at a time; requests meanwhile are served the
 *   answer in hand while it is less than `freshMs + GRACE_MS` old, and wait for the refresh only
 *   when it is older (or the process has none yet);
 * - processes share answers through Postgres (`gateway.agent_status`): a refresh reads the shared
 *   row first, and only the process that takes the row's lease asks the agent; the others keep the
 *   answer in hand, or wait for the row, and look again every RECHECK_MS. Without the database a
 *   process asks the agent itself, still once per window.
 * So the agent is asked once per key per window whatever the number of requests and processes, and
 * no answer is used more than `freshMs + GRACE_MS` after the agent gave it.
 */

/** How long past its freshness an answer may still be served while its refresh runs: above the agent call's own limit (2 s). */
const GRACE_MS = 3_000;
/**
 * How long a process that asks the agent holds the lease: far above a working call (the agent
 * call gives up after 2 s), so only a process that died or hung loses it to another.
 */
const LEASE_MS = 10_000;
/** How soon a process that found another one asking looks at the shared row again. */
const RECHECK_MS = 250;
/** A database step of a refresh gives up after this long, and the process asks the agent itself. */
const DATABASE_STEP_MS = 2_000;

/** What the agent said (null: it could not say: unreachable, erroring, not understood), and when. */
export type StatusRead<T> = { value: T | null; readAtMs: number; recheckAtMs: number };

export type StatusKey<T> = {
  /** Its name in the shared row. */
  name: string;
  /** Asks the agent; throws when it cannot say. */
  ask: () => Promise<T>;
  /** A value read back from the shared row (another process wrote it), or null when it is not one. */
  parse: (value: unknown) => T | null;
};

export type StatusCache = {
  read<T>(key: StatusKey<T>): Promise<StatusRead<T>>;
  /** Drops what is known of `names`, here and in the shared row: the agent just said otherwise. */
  forget(names: readonly string[]): Promise<void>;
};

export function createStatusCache({
  agentUrl,
  freshMs,
  db,
  now = Date.now,
}: {
  /** The agent the answers are about: a row is never read for another one. */
  agentUrl: string;
  freshMs: number;
  /** The gateway's database (a rejection when it cannot be opened). */
  db: () => Promise<Queryable>;
  now?: () => number;
}): StatusCache {
  const entries = new Map<string, StatusRead<unknown>>();
  const refreshes = new Map<string, Promise<StatusRead<unknown>>>();
  // A refresh that began before a `forget` must not put back what was forgotten, nor trust an
  // answer the agent gave before it (the shared row may not say so yet).
  let generation = 0;
  const forgotten = new Map<string, number>();
  const after = (name: string, readAtMs: number) => readAtMs > (forgotten.get(name) ?? -Infinity);
  const fresh = (name: string, readAtMs: number, t: number) => t - readAtMs < freshMs && after(name, readAtMs);
  const usable = (name: string, readAtMs: number, t: number) => t - readAtMs < freshMs + GRACE_MS && after(name, readAtMs);

  async function refresh<T>(key: StatusKey<T>): Promise<StatusRead<T>> {
    const began = generation;
    const keep = (read: StatusRead<T>): StatusRead<T> => {
      if (began === generation) entries.set(key.name, read);
      return read;
    };
    let shared: Queryable | null = null;
    try {
      shared = await withinMs(db(), DATABASE_STEP_MS);
      for (;;) {
        const row = await withinMs(readRow(shared, { agentUrl, name: key.name }), DATABASE_STEP_MS);
        const t = now();
        if (row && fresh(key.name, row.readAtMs, t)) return keep({ value: key.parse(row.value), readAtMs: row.readAtMs, recheckAtMs: row.readAtMs + freshMs });
        const readBeforeMs = Math.max(t - freshMs, forgotten.get(key.name) ?? -Infinity);
        if (await withinMs(takeLease(shared, { agentUrl, name: key.name, nowMs: t, readBeforeMs }), DATABASE_STEP_MS)) break;
        // Another process is asking the agent: keep the answer in hand while it is usable, else wait for that process's.
        const inHand = entries.get(key.name) as StatusRead<T> | undefined;
        if (inHand && usable(key.name, inHand.readAtMs, t)) return keep({ ...inHand, recheckAtMs: t + RECHECK_MS });
        if (row && usable(key.name, row.readAtMs, t)) return keep({ value: key.parse(row.value), readAtMs: row.readAtMs, recheckAtMs: t + RECHECK_MS });
        await new Promise((resolve) => setTimeout(resolve, RECHECK_MS));
      }
    } catch {
      shared = null; // no shared row to be had: this process asks the agent itself
    }
    const value = await key.ask().catch(() => null);
    const t = now();
    if (shared && began === generation) await writeRow(shared, { agentUrl, name: key.name, value, readAtMs: t }).catch(() => undefined);
    return keep({ value, readAtMs: t, recheckAtMs: t + freshMs });
  }

  return {
    async read<T>(key: StatusKey<T>): Promise<StatusRead<T>> {
      const entry = entries.get(key.name) as StatusRead<T> | undefined;
      const t = now();
      if (entry && t < entry.recheckAtMs) return entry;
      let pending = refreshes.get(key.name) as Promise<StatusRead<T>> | undefined;
      if (!pending) {
        const started: Promise<StatusRead<T>> = refresh(key).finally(() => {
          if (refreshes.get(key.name) === started) refreshes.delete(key.name);
        });
        refreshes.set(key.name, started);
        pending = started;
      }
      if (entry && usable(key.name, entry.readAtMs, t)) return entry;
      return pending;
    },
    async forget(names) {
      generation++;
      for (const name of names) {
        entries.delete(name);
        refreshes.delete(name);
        forgotten.set(name, now());
      }
      try {
        const shared = await withinMs(db(), DATABASE_STEP_MS);
        await withinMs(shared.query("UPDATE gateway.agent_status SET read_at = to_timestamp(0) WHERE agent_url = $1 AND key = ANY($2)", [agentUrl, names]), DATABASE_STEP_MS);
      } catch {
        // The other processes' answers then age out by themselves, within their window.
      }
    },
  };
}

async function readRow(db: Queryable, { agentUrl, name }: { agentUrl: string; name: string }): Promise<{ value: unknown; readAtMs: number } | null> {
  const { rows } = await db.query<{ value: unknown; read_at: Date }>("SELECT value, read_at FROM gateway.agent_status WHERE agent_url = $1 AND key = $2", [agentUrl, name]);
  const row = rows[0];
  return row ? { value: row.value, readAtMs: row.read_at.getTime() } : null;
}

/**
 * Takes the row's lease (making the row) when its answer was read at or before `readBeforeMs` (no
 * longer fresh, or forgotten here) and nobody holds the lease: true when this process got it, and
 * is to ask the agent.
 */
async function takeLease(db: Queryable, { agentUrl, name, nowMs, readBeforeMs }: { agentUrl: string; name: string; nowMs: number; readBeforeMs: number }): Promise<boolean> {
  const { rowCount } = await db.query(
    `INSERT INTO gateway.agent_status AS s (agent_url, key, value, read_at, lease_until) VALUES ($1, $2, 'null'::jsonb, to_timestamp(0), $4)
     ON CONFLICT (agent_url, key) DO UPDATE SET lease_until = $4
      WHERE s.read_at <= $5 AND s.lease_until <= $3`,
    [agentUrl, name, new Date(nowMs), new Date(nowMs + LEASE_MS), new Date(readBeforeMs)],
  );
  return (rowCount ?? 0) > 0;
}

/** Records the agent's answer and gives the lease back. */
async function writeRow(db: Queryable, { agentUrl, name, value, readAtMs }: { agentUrl: string; name: string; value: unknown; readAtMs: number }): Promise<void> {
  await db.query(
    `INSERT INTO gateway.agent_status AS s (agent_url, key, value, read_at, lease_until) VALUES ($1, $2, $3::jsonb, $4, $4)
     ON CONFLICT (agent_url, key) DO UPDATE SET value = $3::jsonb, read_at = $4, lease_until = $4`,
    [agentUrl, name, JSON.stringify(value), new Date(readAtMs)],
  );
}

/** `promise`, or a rejection once `ms` passed (the step is abandoned, not cancelled). */
function withinMs<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`gave up after ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
