import type { Stance } from "@/lib/shared/contracts";
import fitted from "./weights.json";

/**
 * The fitted stance model: a multinomial logistic regression over the features of features.ts,
 * its weights learned by `npm run train:stance` (scripts/train-stance.ts) from the tuning halves
 * of ../shared/eval only, and committed as weights.json. Pure arithmetic at run time: no native
 * code, no network, nothing downloaded (docs/decisions.md, "The stance of a study").
 */

export const CLASSES = ["supports", "contradicts", "neither"] as const;
export type StanceClass = (typeof CLASSES)[number];

/** The probability each side needs before a study takes it; below it the study is read as undecided. */
export type Thresholds = { supports: number; contradicts: number };

export type StanceModel = {
  features: string[];
  /** One row per class of CLASSES, one weight per feature. */
  weights: number[][];
  /**
   * The thresholds, for an abstract whose conclusion section states something on the claim
   * (`concluded`) and for one read from its other findings (`findings`): chosen apart by
   * cross-validation, because a conclusion is read more surely than results.
   */
  commitAt: Record<ReadingKind, Thresholds>;
};
export type ReadingKind = "concluded" | "findings";

export const MODEL: StanceModel = fitted;

/** The probability of each class. */
export function predict(model: StanceModel, x: Record<string, number>): Record<StanceClass, number> {
  const z = model.weights.map((row) => row.reduce((n, w, i) => n + w * (x[model.features[i]!] ?? 0), 0));
  const top = Math.max(...z);
  const e = z.map((v) => Math.exp(v - top));
  const sum = e.reduce((a, b) => a + b, 0);
  const p = (c: StanceClass) => e[CLASSES.indexOf(c)]! / sum;
  return { supports: p("supports"), contradicts: p("contradicts"), neither: p("neither") };
}

/** Which thresholds a reading takes: whether its conclusion section decided it (features.ts `concluded`). */
export function kindOf(x: Record<string, number>): ReadingKind {
  return x.concluded ? "concluded" : "findings";
}

/** The side a probability commits to under some thresholds, or null when it takes none. */
export function sideOf(p: Record<StanceClass, number>, at: Thresholds): "supports" | "contradicts" | null {
  const side = p.supports >= p.contradicts ? "supports" : "contradicts";
  return p[side] >= at[side] && p[side] >= p.neither ? side : null;
}

/**
 * The stance the model gives: the likelier side when it reaches its threshold and outweighs
 * "neither"; otherwise `mixed` when the rules read findings both ways, `unclear` when they read
 * none. `probability` is the model's for the stance it gives (for an undecided one, the likeliest class's).
 */
export function decide(model: StanceModel, x: Record<string, number>, { readBothWays }: { readBothWays: boolean }): { stance: Stance; probability: number } {
  const p = predict(model, x);
  const side = sideOf(p, model.commitAt[kindOf(x)]);
  if (side) return { stance: side, probability: p[side] };
  return { stance: readBothWays ? "mixed" : "unclear", probability: Math.max(p.neither, p.supports, p.contradicts) };
}
