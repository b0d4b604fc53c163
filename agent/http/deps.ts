import type { Queryable } from "@/lib/shared/db";
import type { AgentConfig } from "../config";
import type { JobWaiter } from "../jobs/wait";
import type { ReachChecker } from "../literature/reach";
import type { EnclaveKey } from "../private/enclave-key";

/** What the agent's HTTP app is built from (agent/server.ts). */
export type AgentDeps = {
  config: AgentConfig;
  db: Queryable;
  enclaveKey?: () => Promise<EnclaveKey>;
  /** Long-polls on jobs (agent/jobs/wait.ts); without one, the app makes one with no LISTEN connection. */
  jobWaiter?: JobWaiter;
  /** Whether the literature sources can answer (agent/literature/reach.ts); without one nothing is refused for want of sources. */
  reach?: ReachChecker;
};

/** What every route module gets: the app's deps with the enclave key loader and the job waiter settled. */
export type RouteDeps = AgentDeps & { enclaveKey: () => Promise<EnclaveKey>; jobWaiter: JobWaiter };
