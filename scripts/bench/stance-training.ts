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
import { PUBMEDQA_SET, readPubmedQa } from "./pubmedqa";
import { halfOf } from "./split";
import { PUBMEDQA_GOLD, stanceSets, type Gold } from "./stance";

const CLASS_OF: Record<Gold, number> = { supports: 0, contradicts: 1, neither: 2 };

/** `ruled`: the rules read something; the model is fitted and used only then (an unread study is `unclear`). */
export type Example = { set: string; id: string; x: Record<string, number>; y: number; both: boolean; ruled: boolean };

/**
 * Fitted on, never scored: each tuning PubMedQA item's conclusion alone (its LONG_ANSWER, labelled
 * as PubMed labels it), one more reading of the authors' own answer beside the whole abstract.
 */
export const CONCLUSION_ONLY = "pubmedqa/conclusion-only";

function example({ set, id, question, text, gold }: { set: string; id: string; question: string; text: string; gold: Gold }): Example {
  const claim = readQuestion(question);
  const parts = readParts({ text, claim });
  const x = stanceFeatures({ parts, claimText: question, text });
  const decided = rulesOf(parts);
  return { set, id, x, y: CLASS_OF[gold], both: decided.forWeight > 0 && decided.againstWeight > 0, ruled: decided.stance !== "unclear" };
}

export function tuningExamples(): Example[] {
  const out: Example[] = [];
  for (const set of stanceSets().filter((s) => s.fitted)) {
    for (const item of set.items) if (item.half === "tune") out.push(example({ set: set.name, ...item }));
  }
  for (const [pmid, item] of readPubmedQa()) {
    if (halfOf({ set: PUBMEDQA_SET, id: pmid }) !== "tune" || !item.LONG_ANSWER) continue;
    const gold = PUBMEDQA_GOLD[item.final_decision ?? ""] ?? "neither";
    out.push(example({ set: CONCLUSION_ONLY, id: pmid, question: item.QUESTION, text: `CONCLUSIONS: ${item.LONG_ANSWER}`, gold }));
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
