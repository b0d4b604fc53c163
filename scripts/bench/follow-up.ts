/**
 * `npm run bench -- follow-up`: the follow-up decision (agent/chat/follow-up.ts) on the follow-up
 * set (tests/fixtures/eval/follow-up.{tune,holdout}.jsonl: an earlier question, a message, and
 * whether the message follows up or starts a new topic). The tuning half is reported item by item
 * (it is the half rules were written on); the held-out half only as its aggregate accuracy, so
 * nobody reads its items through this script. BENCH_EVAL_DIR reads the sets from another folder.
 */
import fs from "node:fs";
import path from "node:path";
import { z } from "zod";
import { decideFollowUp } from "../../agent/chat/follow-up";
import { root } from "./common";
import type { Half } from "./split";

const itemSchema = z.object({ id: z.string(), previous: z.string().min(1), message: z.string().min(1), label: z.enum(["follow_up", "new_topic"]) });
type Item = z.infer<typeof itemSchema>;

function readHalf(dir: string, half: Half): Item[] | null {
  const file = path.join(dir, `follow-up.${half}.jsonl`);
  if (!fs.existsSync(file)) return null;
  return fs
    .readFileSync(file, "utf8")
    .split("\n")
    .filter((line) => line.trim())
    .map((line) => itemSchema.parse(JSON.parse(line)));
}

type Score = { n: number; right: number; byLabel: Record<Item["label"], { n: number; right: number }> };

function score(items: Item[], onItem?: (item: Item, kind: string, question: string) => void): Score {
  const out: Score = { n: 0, right: 0, byLabel: { follow_up: { n: 0, right: 0 }, new_topic: { n: 0, right: 0 } } };
  for (const item of items) {
    const decision = decideFollowUp({ earlier: [item.previous], message: item.message });
    const right = decision.kind === item.label;
    out.n++;
    out.byLabel[item.label].n++;
    if (right) {
      out.right++;
      out.byLabel[item.label].right++;
    }
    onItem?.(item, decision.kind, decision.question);
  }
  return out;
}

const pct = (right: number, n: number) => (n ? `${((100 * right) / n).toFixed(1)}% (${right}/${n})` : "n/a");

export async function runFollowUpBench(): Promise<void> {
  const dir = process.env.BENCH_EVAL_DIR ? path.resolve(process.env.BENCH_EVAL_DIR) : path.join(root, "tests/fixtures/eval");
  console.log(`\n## Follow-up decision (${path.relative(root, dir) || "."})\n`);
  const tune = readHalf(dir, "tune");
  const holdout = readHalf(dir, "holdout");
  if (!tune && !holdout) {
    console.log("No follow-up set found (follow-up.tune.jsonl, follow-up.holdout.jsonl).");
    return;
  }
  const rows: string[] = [];
  if (tune) {
    const verbose = process.argv.includes("--items");
    const s = score(tune, (item, kind, question) => {
      if (verbose || kind !== item.label) console.log(`${kind === item.label ? "  " : "✗ "}${item.id} ${item.label} → ${kind}: “${item.message}” → “${question}”`);
    });
    rows.push(`| tune | ${pct(s.right, s.n)} | ${pct(s.byLabel.follow_up.right, s.byLabel.follow_up.n)} | ${pct(s.byLabel.new_topic.right, s.byLabel.new_topic.n)} |`);
  }
  if (holdout) {
    // Aggregate only: the held-out items are never printed.
    const s = score(holdout);
    rows.push(`| holdout | ${pct(s.right, s.n)} | ${pct(s.byLabel.follow_up.right, s.byLabel.follow_up.n)} | ${pct(s.byLabel.new_topic.right, s.byLabel.new_topic.n)} |`);
  }
  console.log("\n| half | accuracy | follow-ups read as such | new topics read as such |\n|---|---:|---:|---:|");
  for (const row of rows) console.log(row);
}
