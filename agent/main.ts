/**
 * `npm run agent`: the agent service alone: its HTTP API, its job workers and its database
 * (POSTGRES_URL, or the embedded PGlite of DATA_DIR). `npm run demo` starts it for the gateway.
 */
import { serve } from "@hono/node-server";
import { log } from "@/lib/log";
import { loadAgentConfig } from "./config";
import { openAgentDatabase } from "./db";
import { startWorkers } from "./jobs/worker";
import { createChatJobHandler } from "./chat/job";
import { createDeepResearchJobHandler } from "./deep-research/run";
import { createLiteratureJobHandler } from "./literature/job";
import { createEngineDeps } from "./literature/sources";
import { createEnclaveKeyLoader } from "./private/enclave-key";
import { createPrivateChatHandler } from "./private/chat";
import { createAgentApp } from "./server";

async function main(): Promise<void> {
  const config = loadAgentConfig(process.env);
  const database = await openAgentDatabase(config);
  const engine = createEngineDeps(config, database.pool);
  const enclaveKey = createEnclaveKeyLoader({ db: database.pool, configured: config.enclave.privateKey, kekFile: config.enclave.kekFile });
  const app = createAgentApp({ config, db: database.pool, enclaveKey });
  const server = serve({ fetch: app.fetch, port: config.port, hostname: config.host });
  const workers = startWorkers({
    db: database.pool,
    count: config.jobs.workers,
    leaseSeconds: config.jobs.leaseSeconds,
    pollMs: config.jobs.pollMs,
    handlers: {
      literature: createLiteratureJobHandler({ engine, logQuestions: config.logQuestions }),
      chat: createChatJobHandler({ engine, db: database.pool, llm: config.llm }),
      deep_research: createDeepResearchJobHandler({ engine, db: database.pool, ...config.deepResearch }),
      private_chat: createPrivateChatHandler({ db: database.pool, enclaveKey, localLibrary: createEngineDeps(config, database.pool).sources.local, llm: config.enclave.llm }),
    },
  });
  log.info("agent listening", { url: `http://${config.host}:${config.port}`, sources: config.literature.enabledSources, workers: config.jobs.workers });
  if (!config.serviceKey) log.warn("AGENT_SERVICE_KEY is not set: literature and deep research answer 401 to everyone");

  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    server.close();
    await workers.stop();
    await database.close();
    process.exit(0);
  };
  process.on("SIGINT", () => void stop());
  process.on("SIGTERM", () => void stop());
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
