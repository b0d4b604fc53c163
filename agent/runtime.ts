import type { Queryable } from "@/lib/shared/db";
import type { AgentConfig } from "./config";
import { createChatJobHandler } from "./chat/job";
import { createDeepResearchJobHandler } from "./deep-research/run";
import { createJobWaiter, listenConnectionOf } from "./jobs/wait";
import { startWorkers } from "./jobs/worker";
import { createLiteratureJobHandler } from "./literature/job";
import { createReachChecker } from "./literature/reach";
import { createEngineDeps } from "./literature/sources";
import { agentSweeps } from "./lifecycle";
import { createPrivateChatHandler } from "./private/chat";
import { createPrivateDeepResearchHandler } from "./private/deep-research";
import { createPrivateLiteratureHandler } from "./private/literature";
import { createEnclaveKeyLoader } from "./private/enclave-key";
import { createAgentApp } from "./server";
import { warmVocabulary } from "./literature/vocabulary";
import { keysOf } from "@/lib/shared/narrow";

/**
 * The agent's HTTP app and its job workers over one database, wired the same way for
 * `npm run agent` and the tests: one engine, one enclave-key loader shared by routes and workers.
 */
export function startAgentRuntime({ config, db }: { config: AgentConfig; db: Queryable }) {
  const engine = createEngineDeps(config, db);
  // WordNet's index files are read now, not during the first question (agent/literature/vocabulary).
  warmVocabulary();
  const enclaveKey = createEnclaveKeyLoader({
    db,
    configured: config.enclave.privateKey,
    kekFile: config.enclave.kekFile,
    legacyKekFile: config.enclave.legacyKekFile,
  });
  // Load the key at start, so a key that cannot be loaded (a database altered, a key file lost or
  // readable by others) is in the log at once; the loader logs why, and private mode reports not ready.
  const keyChecked = enclaveKey().then(
    () => undefined,
    () => undefined,
  );
  // Long-polls wait on job notifications over one LISTEN connection for the process (agent/jobs/wait.ts).
  const jobWaiter = createJobWaiter({ db, listen: listenConnectionOf(db), recheckMs: config.jobs.waitRecheckMs });
  // Whether the literature can be searched at all: paid starts are refused before payment when not.
  const reach = createReachChecker({ tracker: engine.sourceHealth, db, enabledSources: keysOf(engine.sources) });
  const app = createAgentApp({ config, db, enclaveKey, jobWaiter, reach });
  const workers = startWorkers({
    db,
    count: config.jobs.workers,
    leaseSeconds: config.jobs.leaseSeconds,
    pollMs: config.jobs.pollMs,
    handlers: {
      literature: createLiteratureJobHandler({ engine, logQuestions: config.logQuestions }),
      chat: createChatJobHandler({ engine, db, llm: config.llm }),
      deep_research: createDeepResearchJobHandler({ engine, db, llm: config.llm, ...config.deepResearch }),
      // Private work sees the local library alone: never the engine's external sources.
      private_chat: createPrivateChatHandler({ db, enclaveKey, localLibrary: engine.sources.local, llm: config.enclave.llm }),
      // Private literature sends only its search queries out (and is refused when disabled).
      private_literature: createPrivateLiteratureHandler({ enclaveKey, engine }),
      // Private deep research searches as private literature does when that is enabled, else locally.
      private_deep_research: createPrivateDeepResearchHandler({
        db,
        enclaveKey,
        engine: config.enclave.privateLiterature ? engine : { sources: engine.sources.local ? { local: engine.sources.local } : {} },
        // Private plaintext goes to the private model only, never to LLM_BASE_URL's.
        llm: config.enclave.llm,
        ...config.deepResearch,
      }),
    },
    // Every table's retention (agent/lifecycle.ts, docs/data-lifecycle.md).
    sweeps: Object.values(agentSweeps({ db, config })),
  });
  return {
    app,
    workers: {
      ...workers,
      stop: async () => {
        await keyChecked;
        await workers.stop();
        await jobWaiter.close();
        engine.sourceHealth.close();
      },
    },
  };
}
