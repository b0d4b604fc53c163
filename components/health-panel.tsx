"use client";

import useSWR from "swr";
import { healthResponseSchema, type ComponentHealth, type HealthResponse, type LiteratureReach, type SourceHealth } from "@/lib/shared/contracts";
import { failureWords, sourceTitle } from "@/lib/shared/contracts/source-words";
import { literatureSummary, paidRequestsInWords, sourceState, type SourceBadge } from "@/lib/web/source-states";

const REFRESH_MS = 5_000;

/** Health answers 503 with a full report when a component is down, so both statuses carry data. */
async function fetchHealth(url: string): Promise<HealthResponse> {
  const response = await fetch(url, { cache: "no-store" });
  if (response.status !== 200 && response.status !== 503) throw new Error(`health answered ${response.status}`);
  return healthResponseSchema.parse(await response.json());
}

const COMPONENT_LABELS: Record<keyof HealthResponse["components"], string> = {
  database: "Database",
  upstreamApi: "Research agent (upstream API)",
  payments: "Payments (chain RPC, facilitator)",
};

/** The live health report, refreshed every few seconds. */
export function HealthPanel() {
  const { data, error, isLoading } = useSWR("/api/health", fetchHealth, { refreshInterval: REFRESH_MS });

  return (
    <section className="health" aria-labelledby="health-heading" aria-live="polite" data-testid="health-panel">
      {isLoading && !data ? <p className="muted">Checking…</p> : null}
      {error && !data ? <p className="error">Health report unavailable: {(error as Error).message}</p> : null}
      {data ? (
        <>
          <p>
            Overall: <StatusBadge status={data.status} testId="health-overall" />{" "}
            <span className="muted">
              version {data.version} · up {formatUptime(data.uptime)} · checked {new Date(data.timestamp).toLocaleTimeString()}
            </span>
          </p>
          <table className="cards-narrow">
            <thead>
              <tr>
                <th scope="col">Component</th>
                <th scope="col">Status</th>
                <th scope="col">Latency</th>
                <th scope="col">Details</th>
              </tr>
            </thead>
            <tbody>
              {(Object.keys(COMPONENT_LABELS) as (keyof HealthResponse["components"])[]).map((key) => {
                const health = data.components[key];
                return health ? <ComponentRow key={key} name={COMPONENT_LABELS[key]} id={key} health={health} /> : null;
              })}
            </tbody>
          </table>
          <LiteratureSources literature={data.literature ?? null} now={data.timestamp} />
          <dl>
            <dt>Network</dt>
            <dd>
              <code>{data.config.network}</code>
            </dd>
            <dt>Payment address</dt>
            <dd>
              <code>{data.config.paymentAddress}</code>
            </dd>
            <dt>Upstream</dt>
            <dd>
              <code>{data.config.upstreamApiBaseUrl}</code>
            </dd>
            <dt>Private mode</dt>
            <dd data-testid="health-private-mode">
              {data.privateMode
                ? `${data.privateMode.status === "ready" ? "ready" : "not ready"} · ${data.privateMode.attested ? "attestation served (a client checks it against the repository it trusts before sealing)" : "enclave not attested"} · private literature ${data.privateMode.privateLiterature}`
                : "unknown (the agent did not say)"}
              {data.privateMode && !data.privateMode.attested ? <span className="muted"> — {data.privateMode.message}</span> : null}
            </dd>
            <dt>Paid requests served</dt>
            <dd data-testid="health-paid-requests">
              {data.paidRequests ? (
                <>
                  {paidRequestsInWords(data.paidRequests)}
                  <span className="muted"> (settled payments since the service began, private ones included)</span>
                </>
              ) : data.paidRequests === null ? (
                "unknown (database down)"
              ) : (
                "unknown (this gateway does not count them)"
              )}
            </dd>
            <dt>Deep-research conversations</dt>
            <dd data-testid="health-conversations">
              {data.conversations
                ? data.conversations.total === 0
                  ? "none on record"
                  : `${data.conversations.total} on record: ` +
                    Object.entries(data.conversations.byStatus)
                      .map(([status, n]) => `${n} ${status}`)
                      .join(", ")
                : "unknown (database down)"}
            </dd>
          </dl>
          {error ? <p className="error">Last refresh failed: {(error as Error).message}</p> : null}
        </>
      ) : null}
    </section>
  );
}

function ComponentRow({ id, name, health }: { id: string; name: string; health: ComponentHealth }) {
  return (
    <tr data-testid={`health-component-${id}`}>
      <td data-label="Component">{name}</td>
      <td data-label="Status">
        <StatusBadge status={health.status} />
      </td>
      <td data-label="Latency" className="price">
        {health.latencyMs === null ? "—" : `${health.latencyMs} ms`}
      </td>
      <td data-label="Details" className="muted">
        {health.message ?? "none"}
      </td>
    </tr>
  );
}

const LIBRARY_LABELS: Record<LiteratureReach["localLibrary"], string> = {
  has_records: "holds records",
  empty: "empty",
  disabled: "not in use",
  unknown: "unknown (cannot be read)",
};

/** Each literature source as the agent tracks it, and whether any can answer, at the report's time `now`. */
function LiteratureSources({ literature, now }: { literature: LiteratureReach | null; now: string }) {
  if (!literature) return <p className="muted" data-testid="health-literature">Literature sources: unknown (the agent did not say).</p>;
  const summary = literatureSummary(literature, { now });
  return (
    <>
      <p data-testid="health-literature">
        Literature: <StatusBadge status={summary.badge} /> {summary.text}
        <span className="muted"> · local library {LIBRARY_LABELS[literature.localLibrary]}</span>
      </p>
      <table data-testid="health-sources" className="cards-narrow">
        <thead>
          <tr>
            <th scope="col">Source</th>
            <th scope="col">State</th>
            <th scope="col">Calls</th>
            <th scope="col">Last problem</th>
          </tr>
        </thead>
        <tbody>
          {literature.sources.map((s) => (
            <SourceRow key={s.source} health={s} now={now} />
          ))}
        </tbody>
      </table>
    </>
  );
}

/** One source: its state at the report's time, its calls, and its last problem. */
function SourceRow({ health: s, now }: { health: SourceHealth; now: string }) {
  const state = sourceState(s, { now });
  return (
    <tr data-testid={`health-source-${s.source}`} data-circuit={s.circuit} data-state={state.badge}>
      <td data-label="Source" className="name">
        {sourceTitle(s.source)}
      </td>
      <td data-label="State">
        <StatusBadge status={state.badge} /> <span className="muted">{state.label}</span>
        {state.nextTryAt ? <div className="muted small">next try at {new Date(state.nextTryAt).toLocaleTimeString()}</div> : null}
        {state.nextTryDue ? <div className="muted small">next try due now</div> : null}
      </td>
      <td data-label="Calls">
        {s.successes} answered, {s.failures} failed
        {s.lastLatencyMs !== null ? <span className="muted"> · last {s.lastLatencyMs} ms</span> : null}
      </td>
      <td data-label="Last problem" className="muted">
        {s.lastErrorKind ? `${failureWords(s.lastErrorKind)}${s.lastErrorAt ? ` (${new Date(s.lastErrorAt).toLocaleTimeString()})` : ""}` : "none"}
        {s.lastSuccessAt ? <div className="small">last answered {new Date(s.lastSuccessAt).toLocaleTimeString()}</div> : null}
      </td>
    </tr>
  );
}

const BADGE_WORDS: Record<SourceBadge, string> = { healthy: "healthy", degraded: "degraded", down: "down", untried: "not tried yet" };

function StatusBadge({ status, testId }: { status: SourceBadge; testId?: string }) {
  return (
    <span className={`badge status-${status}`} data-testid={testId}>
      {BADGE_WORDS[status]}
    </span>
  );
}

function formatUptime(seconds: number): string {
  if (seconds < 60) return `${seconds} s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min`;
  return `${Math.floor(seconds / 3600)} h ${Math.floor((seconds % 3600) / 60)} min`;
}
