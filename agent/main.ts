/**
 * `npm run agent`: the agent service alone: its HTTP API, its job workers and its database
 * (POSTGRES_URL, or the embedded PGlite of DATA_DIR). `npm run demo` starts it for the gateway.
 */
import { log } from "@/lib/shared/log";
import { loadAgentConfig } from "./config";
import { openAgentDatabase } from "./db";
import { listen } from "./http/listen";
import { startAgentRuntime } from "./runtime";

async function main(): Promise<void> {
  const config = loadAgentConfig(process.env);
  const database = await openAgentDatabase(config);
  const { app, workers } = startAgentRuntime({ config, db: database.pool });
  const server = listen(app, { port: config.port, hostname: config.host });
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
