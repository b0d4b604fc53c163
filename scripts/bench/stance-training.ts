/**
 * The stance model's training examples (scripts/train-stance.ts): the tuning halves of the stance
 * sets, each with the features the agent computes for it. Their digest is written beside the
 * weights, so a change to how questions or abstracts are read that changes any feature fails a unit
 * test until the model is refitted (`npm run train:stance`) on what the agent now computes.
 */
import { createHash } from "node:crypto";
import { readParts, rulesOf } from "../../agent/literature/stance";
import { stanceFeatures } from "../../agent/literature/stance/features";
import { readQuestion } from "../../agent/literature/reading";
import { stanceSets, type Gold } from "./stance";

const CLASS_OF: Record<Gold, number> = { supports: 0, contradicts: 1, neither: 2 };

/** `ruled`: the rules read something; the model is fitted and used only then (an unread study is `unclear`). */
export type Example = { set: string; id: string; x: Record<string, number>; y: number; both: boolean; ruled: boolean };

export function tuningExamples(): Example[] {
  const out: Example[] = [];
  for (const set of stanceSets()) {
    for (const item of set.items) {
      if (item.half !== "tune") continue;
      const claim = readQuestion(item.question);
      const parts = readParts({ text: item.text, claim });
      const x = stanceFeatures({ parts, claimText: item.question, text: item.text });
      const decided = rulesOf(parts);
      out.push({ set: set.name, id: item.id, x, y: CLASS_OF[item.gold], both: decided.forWeight > 0 && decided.againstWeight > 0, ruled: decided.stance !== "unclear" });
    }
  }
  return out;
}

/** A digest of what the model is fitted on: every example's features (to 1e-9), label and whether the rules read it. */
export function examplesDigest(examples: Example[]): string {
  const hash = createHash("sha256");
  for (const e of examples) {
    const x = Object.entries(e.x).map(([k, v]) => `${k}=${Math.round(v * 1e9)}`);
    hash.update(`${e.set}|${e.id}|${e.y}|${e.ruled ? 1 : 0}|${x.join(",")}\n`);
  }
  return hash.digest("hex");
}
