import type { FailedSource, SourceCircuit, SourceFailureKind, SourceHealth } from "@/lib/shared/contracts";
import { sourceNames, type SourceName } from "./record";
import { SourceError, type LiteratureSource } from "./sources/types";

/**
 * Each literature source's health, from the calls the engine really makes: successes, failures,
 * the last error's kind, the last success, and a circuit breaker. After `failureThreshold`
 * consecutive failed calls a source's circuit opens: calls to it fail at once (`circuit_open`)
 * instead of waiting out its timeout again, and after `cooldownMs` one cheap probe (a one-record
 * search) decides whether it closes or stays open for another cool-down. A source with no probe
 * goes half-open and the next real call decides. The state is this process's own, in memory.
 */

export type SourceHealthOptions = {
  /** Consecutive failed calls that open a circuit (SOURCE_CIRCUIT_FAILURES, default 3). */
  failureThreshold: number;
  /** How long an open circuit stays open before its probe (SOURCE_CIRCUIT_COOLDOWN_MS, default 30 s). */
  cooldownMs: number;
  now?: () => number;
  /** Runs `run` after `ms` (tests pass a clock of their own). Returns a cancel function. */
  schedule?: (run: () => void, ms: number) => () => void;
};

export type SourceHealthTracker = {
  /** Whether a call may go to `source` now (closed, or half-open and being tried). */
  allows(source: SourceName): boolean;
  /** Whether `source` is known to answer: its circuit is closed. */
  isUp(source: SourceName): boolean;
  recordSuccess(source: SourceName, latencyMs: number): void;
  recordFailure(source: SourceName, kind: SourceFailureKind): void;
  /** A cheap call that tells whether `source` answers again; it throws when it does not. */
  setProbe(source: SourceName, probe: () => Promise<unknown>): void;
  /** Every tracked source's state, in the order they were first registered. */
  snapshot(): SourceHealth[];
  /** Starts tracking `source` (so it is reported before its first call). */
  register(source: SourceName): void;
  /** Stops the probe timers (at shutdown). */
  close(): void;
};

type State = {
  source: SourceName;
  circuit: SourceCircuit;
  successes: number;
  failures: number;
  consecutiveFailures: number;
  lastErrorKind: SourceFailureKind | null;
  lastErrorAt: number | null;
  lastSuccessAt: number | null;
  lastLatencyMs: number | null;
  retryAt: number | null;
  cancelProbe: (() => void) | null;
  probing: boolean;
};

const defaultSchedule = (run: () => void, ms: number) => {
  const timer = setTimeout(run, ms);
  timer.unref();
  return () => clearTimeout(timer);
};

export function createSourceHealthTracker({ failureThreshold, cooldownMs, now = Date.now, schedule = defaultSchedule }: SourceHealthOptions): SourceHealthTracker {
  const states = new Map<SourceName, State>();
  const probes = new Map<SourceName, () => Promise<unknown>>();
  let closed = false;

  const stateOf = (source: SourceName): State => {
    let state = states.get(source);
    if (!state) {
      state = {
        source,
        circuit: "closed",
        successes: 0,
        failures: 0,
        consecutiveFailures: 0,
        lastErrorKind: null,
        lastErrorAt: null,
        lastSuccessAt: null,
        lastLatencyMs: null,
        retryAt: null,
        cancelProbe: null,
        probing: false,
      };
      states.set(source, state);
    }
    return state;
  };

  const open = (state: State) => {
    state.circuit = "open";
    state.retryAt = now() + cooldownMs;
    state.cancelProbe?.();
    state.cancelProbe = closed ? null : schedule(() => void retry(state), cooldownMs);
  };

  /** The cool-down is over: probe, or let the next real call decide. */
  const retry = async (state: State) => {
    state.cancelProbe = null;
    if (closed || state.circuit !== "open") return;
    state.circuit = "half_open";
    const probe = probes.get(state.source);
    if (!probe || state.probing) return;
    state.probing = true;
    const started = now();
    try {
      await probe();
      tracker.recordSuccess(state.source, now() - started);
    } catch (err) {
      tracker.recordFailure(state.source, failureKindOf(err));
    } finally {
      state.probing = false;
    }
  };

  const tracker: SourceHealthTracker = {
    allows(source) {
      return stateOf(source).circuit !== "open";
    },
    isUp(source) {
      return stateOf(source).circuit === "closed";
    },
    recordSuccess(source, latencyMs) {
      const state = stateOf(source);
      state.successes++;
      state.consecutiveFailures = 0;
      state.lastSuccessAt = now();
      state.lastLatencyMs = Math.max(0, Math.round(latencyMs));
      state.circuit = "closed";
      state.retryAt = null;
      state.cancelProbe?.();
      state.cancelProbe = null;
    },
    recordFailure(source, kind) {
      const state = stateOf(source);
      state.failures++;
      state.consecutiveFailures++;
      state.lastErrorKind = kind;
      state.lastErrorAt = now();
      // A failed trial re-opens at once; a closed circuit opens at the threshold.
      if (state.circuit === "half_open" || (state.circuit === "closed" && state.consecutiveFailures >= failureThreshold)) open(state);
    },
    setProbe(source, probe) {
      stateOf(source);
      probes.set(source, probe);
    },
    register(source) {
      stateOf(source);
    },
    snapshot() {
      const iso = (t: number | null) => (t === null ? null : new Date(t).toISOString());
      return [...states.values()].map((s) => ({
        source: s.source,
        circuit: s.circuit,
        successes: s.successes,
        failures: s.failures,
        consecutiveFailures: s.consecutiveFailures,
        lastErrorKind: s.lastErrorKind,
        lastErrorAt: iso(s.lastErrorAt),
        lastSuccessAt: iso(s.lastSuccessAt),
        lastLatencyMs: s.lastLatencyMs,
        retryAt: s.circuit === "open" ? iso(s.retryAt) : null,
      }));
    },
    close() {
      closed = true;
      for (const state of states.values()) {
        state.cancelProbe?.();
        state.cancelProbe = null;
      }
    },
  };
  return tracker;
}

/** The typed kind of a source failure (SourceError kinds, renamed for clients). */
export function failureKindOf(err: unknown): SourceFailureKind {
  if (!(err instanceof SourceError)) return "internal_error";
  switch (err.kind) {
    case "timeout":
      return "timeout";
    case "network":
      return "unreachable";
    case "http":
      return "http_error";
    case "rate_limited":
      return "rate_limited";
    case "parse":
      return "bad_response";
    case "circuit_open":
      return "circuit_open";
  }
}

/**
 * `source` with its calls counted by `tracker`: refused at once (SourceError `circuit_open`) while
 * its circuit is open. A call the caller aborted (a cancelled job) says nothing about the source
 * and is not counted.
 */
export function trackSource(source: LiteratureSource, tracker: SourceHealthTracker): LiteratureSource {
  tracker.register(source.name);
  return {
    name: source.name,
    search: (query, options) => trackCall(source.name, tracker, options?.signal, () => source.search(query, options)),
  };
}

/** Runs one call to `source` under `tracker` (see trackSource). */
export async function trackCall<T>(source: SourceName, tracker: SourceHealthTracker, signal: AbortSignal | undefined, call: () => Promise<T>): Promise<T> {
  if (!tracker.allows(source)) throw new SourceError(source, "circuit_open", "skipped: it failed repeatedly just before; it is probed again after a cool-down");
  const started = performance.now();
  try {
    const result = await call();
    tracker.recordSuccess(source, performance.now() - started);
    return result;
  } catch (err) {
    if (!signal?.aborted) tracker.recordFailure(source, failureKindOf(err));
    throw err;
  }
}

/**
 * The sources that failed outright in a search (failed, and never answered), typed, in a fixed
 * order. `failed` is the engine's record of the last failure kind per source; `used` the sources
 * that answered.
 */
export function failedSourcesOf(failed: ReadonlyMap<SourceName, SourceFailureKind>, used: ReadonlySet<SourceName>): FailedSource[] {
  return [...failed]
    .filter(([source]) => !used.has(source))
    .sort(([a], [b]) => sourceNames.indexOf(a) - sourceNames.indexOf(b))
    .map(([source, kind]) => ({ source, kind }));
}
