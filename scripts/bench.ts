/**
 * `npm run bench [-- foundation|payments|settlement|agent|library|answers|deep-research|sealing]`: the figures the issues ask for, each section against
 * a reference measured in the same run (shared machines are noisy; ratios travel, absolute times
 * do not). Results are printed as tables and saved under bench-results/ (not committed).
 * Options: BENCH_SECONDS (default 10), BENCH_CONNECTIONS (default 50), BENCH_PAID_ROUNDS (40),
 * BENCH_DATABASE=pglite (the payments section otherwise uses a real PostgreSQL when installed).
 */
import { ensureBuild } from "./lib/processes";
import { root } from "./bench/common";
import { runAgentBench } from "./bench/agent";
import { runAnswersBench } from "./bench/answers";
import { runDeepResearchBench } from "./bench/deep-research";
import { runFoundationBench } from "./bench/foundation";
import { runLibraryBench } from "./bench/library";
import { runPaymentsBench } from "./bench/payments";
import { runSealingBench } from "./bench/sealing";
import { runSettlementBench } from "./bench/settlement";

const sections: Record<string, () => Promise<void>> = {
  foundation: runFoundationBench,
  payments: runPaymentsBench,
  settlement: runSettlementBench,
  agent: runAgentBench,
  library: runLibraryBench,
  answers: runAnswersBench,
  "deep-research": runDeepResearchBench,
  sealing: runSealingBench,
};

async function main(): Promise<void> {
  const wanted = process.argv.slice(2).filter((a) => !a.startsWith("-"));
  const unknown = wanted.filter((w) => !sections[w]);
  if (unknown.length) throw new Error(`Unknown section ${unknown.join(", ")}; choose from ${Object.keys(sections).join(", ")}`);
  // Every section but sealing (pure computation), answers and deep-research (the agent alone) measures the built gateway.
  if (!wanted.length || wanted.some((w) => w !== "sealing" && w !== "answers" && w !== "deep-research")) {
    console.log("Building (skipped when fresh)…");
    await ensureBuild(root, { ...process.env, NEXT_TELEMETRY_DISABLED: "1" });
  }
  for (const name of wanted.length ? wanted : Object.keys(sections)) await sections[name]!();
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
