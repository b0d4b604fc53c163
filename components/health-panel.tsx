"use client";

import useSWR from "swr";
import { healthResponseSchema, type ComponentHealth, type HealthResponse } from "@/lib/contracts";

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
              {(Object.keys(COMPONENT_LABELS) as (keyof HealthResponse["components"])[]).map((key) => (
                <ComponentRow key={key} name={COMPONENT_LABELS[key]} id={key} health={data.components[key]} />
              ))}
            </tbody>
          </table>
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
