"use client";

import useSWR from "swr";
import { healthResponseSchema, type ComponentHealth, type HealthResponse, type LiteratureReach, type SourceHealth } from "@/lib/contracts";
import { failureWords, sourceTitle } from "@/lib/contracts/source-words";

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
          <table>
            <thead>
              <tr>
                <th scope="col">Component</th>
                <th scope="col">Status</th>
                <th scope="col">Latency</th>
                <th scope="col" className="hide-narrow">
                  Details
                </th>
              </tr>
            </thead>
            <tbody>
              {(Object.keys(COMPONENT_LABELS) as (keyof HealthResponse["components"])[]).map((key) => {
                const health = data.components[key];
                return health ? <ComponentRow key={key} name={COMPONENT_LABELS[key]} id={key} health={health} /> : null;
              })}
            </tbody>
          </table>
          <LiteratureSources literature={data.literature ?? null} />
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
            <dt>Conversations</dt>
            <dd>
              {data.conversations
                ? `${data.conversations.total} total` +
                  Object.entries(data.conversations.byStatus)
                    .map(([status, n]) => `, ${n} ${status}`)
                    .join("")
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
      <td>{name}</td>
      <td>
        <StatusBadge status={health.status} />
        {health.message ? <div className="muted narrow-only">{health.message}</div> : null}
      </td>
      <td className="price">{health.latencyMs === null ? "—" : `${health.latencyMs} ms`}</td>
      <td className="muted hide-narrow">{health.message ?? ""}</td>
    </tr>
  );
}

const CIRCUIT_LABELS: Record<SourceHealth["circuit"], string> = {
  closed: "answering",
  open: "skipped (failing)",
  half_open: "being tried again",
};
const CIRCUIT_STATUS: Record<SourceHealth["circuit"], ComponentHealth["status"]> = { closed: "healthy", open: "down", half_open: "degraded" };
const LIBRARY_LABELS: Record<LiteratureReach["localLibrary"], string> = {
  has_records: "holds records",
  empty: "empty",
  disabled: "not in use",
  unknown: "unknown (cannot be read)",
};

/** Each literature source as the agent tracks it, and whether any can answer. */
function LiteratureSources({ literature }: { literature: LiteratureReach | null }) {
  if (!literature) return <p className="muted" data-testid="health-literature">Literature sources: unknown (the agent did not say).</p>;
  return (
    <>
      <p data-testid="health-literature">
        Literature:{" "}
        <StatusBadge status={literature.available ? (literature.message ? "degraded" : "healthy") : "down"} />{" "}
        {literature.available ? (literature.message ?? "every source answering") : `${literature.message ?? "no source can answer"} Paid chat and literature answer 503 until one can; nothing is charged.`}
        <span className="muted"> · local library {LIBRARY_LABELS[literature.localLibrary]}</span>
      </p>
      <table data-testid="health-sources">
        <thead>
          <tr>
            <th scope="col">Source</th>
            <th scope="col">State</th>
            <th scope="col" className="hide-narrow">
              Calls
            </th>
            <th scope="col">Last problem</th>
          </tr>
        </thead>
        <tbody>
          {literature.sources.map((s) => (
            <tr key={s.source} data-testid={`health-source-${s.source}`} data-circuit={s.circuit}>
              <td>{sourceTitle(s.source)}</td>
              <td>
                <StatusBadge status={CIRCUIT_STATUS[s.circuit]} /> <span className="muted">{CIRCUIT_LABELS[s.circuit]}</span>
                {s.retryAt ? <div className="muted small">tried again at {new Date(s.retryAt).toLocaleTimeString()}</div> : null}
              </td>
              <td className="hide-narrow">
                {s.successes} answered, {s.failures} failed
                {s.lastLatencyMs !== null ? <span className="muted"> · last {s.lastLatencyMs} ms</span> : null}
              </td>
              <td className="muted">
                {s.lastErrorKind ? `${failureWords(s.lastErrorKind)}${s.lastErrorAt ? ` (${new Date(s.lastErrorAt).toLocaleTimeString()})` : ""}` : "none"}
                {s.lastSuccessAt ? <div className="small">last answered {new Date(s.lastSuccessAt).toLocaleTimeString()}</div> : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}

function StatusBadge({ status, testId }: { status: ComponentHealth["status"]; testId?: string }) {
  return (
    <span className={`badge status-${status}`} data-testid={testId}>
      {status}
    </span>
  );
}

function formatUptime(seconds: number): string {
  if (seconds < 60) return `${seconds} s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min`;
  return `${Math.floor(seconds / 3600)} h ${Math.floor((seconds % 3600) / 60)} min`;
}
