import packageJson from "@/package.json";
import type { Queryable } from "@/lib/shared/db";
import type { AgentConfig } from "./config";
import { createJobCounts } from "./jobs/job-counts";
import type { ReachChecker } from "./literature/reach";
import { isEnclaveKeyReady, type EnclaveKey } from "./private/enclave-key";

/** Private mode as health reports it: ready or not, and plainly whether the enclave is attested. */
function privateModeReport(config: AgentConfig, ready: boolean) {
  const attested = config.enclave.attestation !== null;
  return {
    status: ready ? "ready" : "not_ready",
    attested,
    privateLiterature: config.enclave.privateLiterature ? "enabled" : "disabled",
    message: attested
      ? "Attestation material is served with the enclave key; clients verify it before sealing"
      : "Not attested: this agent does not run in a confidential VM, so sealed requests are only as private as this server",
  };
}

/**
 * The agent's health check for GET /api/health: its database (one round trip, every call), its
 * job counts (at most a few seconds old: agent/jobs/job-counts.ts), each literature source's
 * health and private mode. `healthy` is false when the database does not answer (the route's 503);
 * each source's health is the process's own, reported either way. Never throws.
 */
export function createHealthCheck({ config, db, enclaveKey, reach }: { config: AgentConfig; db: Queryable; enclaveKey: () => Promise<EnclaveKey>; reach?: ReachChecker }) {
  const jobCounts = createJobCounts({ db });
  return async () => {
    const literature = reach ? await reach.check().catch(() => null) : null;
    const started = performance.now();
    const base = () => ({ timestamp: new Date().toISOString(), uptime: Math.floor(process.uptime()), version: packageJson.version });
    try {
      await db.query("SELECT 1");
      const jobs = await jobCounts();
      const ready = await isEnclaveKeyReady(enclaveKey);
      // A source skipped for failing, or no source able to answer, is degraded.
      const degraded = literature !== null && (!literature.available || literature.sources.some((s) => s.circuit !== "closed"));
      return {
        up: true,
        report: {
          status: degraded ? "degraded" : "healthy",
          ...base(),
          components: { database: { status: "healthy", latencyMs: Math.round(performance.now() - started), message: null } },
          jobs,
          literature,
          privateMode: privateModeReport(config, ready),
        },
      } as const;
    } catch {
      return {
        up: false,
        report: { status: "down", ...base(), components: { database: { status: "down", latencyMs: null, message: "unreachable" } }, literature },
      } as const;
    }
  };
}
