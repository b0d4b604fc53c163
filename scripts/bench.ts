/**
 * `npm run bench [-- foundation|payments|settlement|agent|queues|library|answers|paraphrase|stance|deep-research|sealing|chat-latency|follow-up|confusion]`: the figures the issues ask for, each section against
 * a reference measured in the same run (shared machines are noisy; ratios travel, absolute times
 * do not). Results are printed as tables and saved under bench-results/ (not committed).
 * Options: BENCH_SECONDS (default 10), BENCH_CONNECTIONS (default 50), BENCH_PAID_ROUNDS (40),
 * BENCH_DATABASE=pglite (the payments section otherwise uses a real PostgreSQL when installed).
 */
import { ensureBuild } from "./lib/processes";
import { root } from "./bench/common";
import { runAgentBench } from "./bench/agent";
import { runChatLatencyBench } from "./bench/chat-latency";
import { runAnswersBench } from "./bench/answers";
import { runDeepResearchBench } from "./bench/deep-research";
import { runConfusionBench } from "./bench/confusion";
import { runFollowUpBench } from "./bench/follow-up";
import { runFoundationBench } from "./bench/foundation";
import { runLibraryBench } from "./bench/library";
import { runParaphraseBench } from "./bench/paraphrase";
import { runPaymentsBench } from "./bench/payments";
import { runQueuesBench } from "./bench/queues";
import { runSealingBench } from "./bench/sealing";
import { runSettlementBench } from "./bench/settlement";
import { runStanceBench } from "./bench/stance";

const sections: Record<string, () => Promise<void>> = {
  foundation: runFoundationBench,
  payments: runPaymentsBench,
  settlement: runSettlementBench,
  agent: runAgentBench,
  queues: runQueuesBench,
  library: runLibraryBench,
  answers: runAnswersBench,
  paraphrase: runParaphraseBench,
  stance: runStanceBench,
  "deep-research": runDeepResearchBench,
  sealing: runSealingBench,
  "chat-latency": runChatLatencyBench,
  "follow-up": runFollowUpBench,
  confusion: runConfusionBench,
};

/**
 * Sections that need no Next.js build: sealing and stance (pure computation), agent, answers, deep-research,
 * paraphrase, confusion and queues (the agent alone), chat-latency (the gateway's route handlers in a process of their own).
 */
const NO_BUILD = new Set(["sealing", "stance", "agent", "answers", "paraphrase", "deep-research", "queues", "chat-latency", "follow-up", "confusion"]);

async function main(): Promise<void> {
  const wanted = process.argv.slice(2).filter((a) => !a.startsWith("-"));
  const unknown = wanted.filter((w) => !sections[w]);
  if (unknown.length) throw new Error(`Unknown section ${unknown.join(", ")}; choose from ${Object.keys(sections).join(", ")}`);
  // Every other section measures the built gateway.
  if (!wanted.length || wanted.some((w) => !NO_BUILD.has(w))) {
    console.log("Building (skipped when fresh)…");
    await ensureBuild(root, { ...process.env, NEXT_TELEMETRY_DISABLED: "1" });
  }
  for (const name of wanted.length ? wanted : Object.keys(sections)) await sections[name]!();
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
