/**
 * `npm run train:stance`: fits the stance model (agent/literature/stance/model.ts) on the TUNING
 * halves of the labelled sets (scripts/bench/split.ts) and writes its weights to
 * agent/literature/stance/weights.json. The held-out halves are never read here.
 *
 * A multinomial logistic regression (supports / contradicts / neither) over the features of
 * agent/literature/stance/features.ts, L2-regularised, fitted by full-batch gradient descent from
 * zero: the same data give the same weights. Fitted on PubMedQA (both forms, and each item's
 * conclusion alone) and SciFact. The regularisation and the thresholds (per side, for a reading
 * its conclusion decided and for one read from other findings) are chosen by 5-fold
 * cross-validation repeated over three fold assignments (folds by item, so an item's PubMedQA
 * readings share a fold); the figures printed are those cross-validated ones, never the held-out.
 * `npm run train:stance -- --ablate` also prints the cross-validated figures without each group of
 * features.
 */
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { CLASSES, kindOf, predict, sideOf, type ReadingKind, type StanceModel, type Thresholds } from "../agent/literature/stance/model";
import { root } from "./bench/common";
import { CONCLUSION_ONLY, examplesDigest, tuningExamples, type Example } from "./bench/stance-training";

const OUT = path.join(root, "agent/literature/stance/weights.json");
const LAMBDAS = [0.003, 0.01, 0.03, 0.1, 0.3];
const THRESHOLDS = [0.4, 0.45, 0.5, 0.55, 0.6, 0.65, 0.7, 0.75];
const KINDS: ReadingKind[] = ["concluded", "findings"];
const FOLDS = 5;
/** Fold assignments the cross-validation is repeated over: one split of 5 folds is noisy at 268 items a set. */
const REPEATS = ["stance-folds", "stance-folds-2", "stance-folds-3"];
/** Fits weights by full-batch gradient descent (Adam), from zero. */
export function fit(data: Example[], features: string[], lambda: number, iterations = 600): number[][] {
  const C = CLASSES.length;
  const F = features.length;
  const N = data.length;
  // Sparse rows: most features (a section's stance, its clause counts) are zero in any one example.
  const index = new Map(features.map((f, i) => [f, i]));
  const X = data.map((d) => {
    const at: number[] = [];
    const value: number[] = [];
    for (const [f, v] of Object.entries(d.x)) {
      const i = index.get(f);
      if (i !== undefined && v !== 0) {
        at.push(i);
        value.push(v);
      }
    }
    return { at: Int32Array.from(at), value: Float64Array.from(value) };
  });
  const W = Array.from({ length: C }, () => new Float64Array(F));
  const m = Array.from({ length: C }, () => new Float64Array(F));
  const v = Array.from({ length: C }, () => new Float64Array(F));
  const grad = Array.from({ length: C }, () => new Float64Array(F));
  const z = new Float64Array(C);
  const rate = 0.1;
  const bias = features.indexOf("bias");
  for (let t = 1; t <= iterations; t++) {
    for (const g of grad) g.fill(0);
    for (let n = 0; n < N; n++) {
      const { at, value } = X[n]!;
      let top = -Infinity;
      for (let k = 0; k < C; k++) {
        let dot = 0;
        const w = W[k]!;
        for (let j = 0; j < at.length; j++) dot += w[at[j]!]! * value[j]!;
        z[k] = dot;
        if (dot > top) top = dot;
      }
      let sum = 0;
      for (let k = 0; k < C; k++) sum += (z[k] = Math.exp(z[k]! - top));
      for (let k = 0; k < C; k++) {
        const g = z[k]! / sum - (data[n]!.y === k ? 1 : 0);
        if (g === 0) continue;
        const row = grad[k]!;
        for (let j = 0; j < at.length; j++) row[at[j]!]! += (g * value[j]!) / N;
      }
    }
    for (let k = 0; k < C; k++) {
      for (let i = 0; i < F; i++) {
        const g = grad[k]![i]! + (i === bias ? 0 : lambda * W[k]![i]!);
        m[k]![i] = 0.9 * m[k]![i]! + 0.1 * g;
        v[k]![i] = 0.999 * v[k]![i]! + 0.001 * g * g;
        W[k]![i] = W[k]![i]! - (rate * (m[k]![i]! / (1 - 0.9 ** t))) / (Math.sqrt(v[k]![i]! / (1 - 0.999 ** t)) + 1e-8);
      }
    }
  }
  return W.map((row) => Array.from(row, (w) => Math.round(w * 1e5) / 1e5));
}

/** The fold of an item: a pure function of its id, so every reading of a PubMedQA item shares one. */
function foldOf(e: Example, repeat: string): number {
  return createHash("sha256").update(`${repeat}:${e.set.split("/")[0]}:${e.id}`).digest()[0]! % FOLDS;
}

/** `p` null: the rules read nothing, so the study is `unclear` (insufficient) whatever the model. */
type Scored = { set: string; y: number; kind: ReadingKind; p: Record<(typeof CLASSES)[number], number> | null };
type Figures = { set: string; accuracy: number; committedPrecision: number; commitRate: number };

function figures(scored: Scored[], commitAt: Record<ReadingKind, Thresholds>): Figures[] {
  const bySet = new Map<string, { right: number; n: number; committed: number; committedRight: number }>();
  for (const s of scored) {
    const f = bySet.get(s.set) ?? { right: 0, n: 0, committed: 0, committedRight: 0 };
    const side = s.p ? sideOf(s.p, commitAt[s.kind]) : null;
    const said = side === null ? 2 : CLASSES.indexOf(side);
    f.n++;
    if (said === s.y) f.right++;
    if (side) {
      f.committed++;
      if (said === s.y) f.committedRight++;
    }
    bySet.set(s.set, f);
  }
  return [...bySet.entries()].map(([set, f]) => ({ set, accuracy: f.right / f.n, committedPrecision: f.committed ? f.committedRight / f.committed : 0, commitRate: f.committed / f.n }));
}

/**
 * How a setting is scored: each scored set's accuracy plus the precision of its committed verdicts,
 * summed. A wrong commitment costs twice (accuracy and precision), an abstention on a study the
 * experts answered yes or no once: an undecided "insufficient" beats a confident wrong verdict.
 */
const scoreOf = (f: Figures[]) => f.reduce((n, s) => n + s.accuracy + s.committedPrecision, 0);

/** Every scored example, its probabilities from a model fitted without its fold, for each repeat. */
function crossValidated(data: Example[], features: string[], lambda: number): Scored[] {
  const scored: Scored[] = [];
  for (const repeat of REPEATS) {
    for (let k = 0; k < FOLDS; k++) {
      const W = fit(data.filter((d) => d.ruled && foldOf(d, repeat) !== k), features, lambda);
      const model: StanceModel = { features, weights: W, commitAt: { concluded: { supports: 0, contradicts: 0 }, findings: { supports: 0, contradicts: 0 } } };
      for (const d of data.filter((e) => foldOf(e, repeat) === k && e.set !== CONCLUSION_ONLY)) scored.push({ set: d.set, y: d.y, kind: kindOf(d.x), p: d.ruled ? predict(model, d.x) : null });
    }
  }
  return scored;
}

/**
 * The thresholds that score best, both kinds of reading chosen together (each set scored whole, so
 * abstaining on a set's hard readings is not mistaken for precision).
 */
function bestThresholds(scored: Scored[]): Record<ReadingKind, Thresholds> {
  const pairs = THRESHOLDS.flatMap((supports) => THRESHOLDS.map((contradicts) => ({ supports, contradicts })));
  let best: { at: Record<ReadingKind, Thresholds>; score: number } | null = null;
  for (const concluded of pairs) {
    for (const findings of pairs) {
      const at = { concluded, findings };
      const score = scoreOf(figures(scored, at));
      if (!best || score > best.score + 1e-9) best = { at, score };
    }
  }
  return best!.at;
}

const describe = (f: Figures[]) => f.map((s) => `${s.set} ${(100 * s.accuracy).toFixed(1)}% (committed ${(100 * s.committedPrecision).toFixed(1)}% of ${(100 * s.commitRate).toFixed(0)}%)`).join("; ");
const describeAt = (at: Record<ReadingKind, Thresholds>) => KINDS.map((k) => `${k} supports ≥ ${at[k].supports}, contradicts ≥ ${at[k].contradicts}`).join("; ");

/** Feature groups for --ablate: the rules' readings by section, the claim's, the general cues, the cue counts. */
function groupOf(feature: string): string {
  const prefix = /^(conclusion|findings|rules|claim|g)_/.exec(feature)?.[1];
  return prefix ?? "cue counts and others";
}

function main(): void {
  const started = performance.now();
  const data = tuningExamples();
  const features = Object.keys(data[0]!.x);
  console.log(`${data.length} tuning examples (${[...new Set(data.map((d) => d.set))].join(", ")}), ${features.length} features; read in ${((performance.now() - started) / 1000).toFixed(1)} s.`);
  let best: { lambda: number; commitAt: Record<ReadingKind, Thresholds>; score: number } | null = null;
  for (const lambda of LAMBDAS) {
    const scored = crossValidated(data, features, lambda);
    const commitAt = bestThresholds(scored);
    const f = figures(scored, commitAt);
    const score = scoreOf(f);
    console.log(`λ ${lambda}, ${describeAt(commitAt)}: ${describe(f)}`);
    const loose = { supports: 0.4, contradicts: 0.4 };
    console.log(`   the same λ, every side at 0.4: ${describe(figures(scored, { concluded: loose, findings: loose }))}`);
    if (!best || score > best.score) best = { lambda, commitAt, score };
  }
  if (process.argv.includes("--ablate")) {
    console.log(`\nWithout each group of features (λ ${best!.lambda}, thresholds chosen again):`);
    for (const group of [...new Set(features.filter((f) => f !== "bias").map(groupOf))]) {
      const kept = features.filter((f) => f === "bias" || groupOf(f) !== group);
      const scored = crossValidated(data, kept, best!.lambda);
      console.log(`- without ${group} (${features.length - kept.length}): ${describe(figures(scored, bestThresholds(scored)))}`);
    }
  }
  const W = fit(data.filter((d) => d.ruled), features, best!.lambda);
  const model = { features, weights: W, commitAt: best!.commitAt };
  const file = {
    about:
      "Stance model: multinomial logistic regression (classes supports, contradicts, neither) over agent/literature/stance/features.ts. Written by `npm run train:stance` from the tuning halves of ../shared/eval (scripts/bench/split.ts); never edit by hand.",
    classes: CLASSES,
    trainedOn: Object.fromEntries([...new Set(data.map((d) => d.set))].map((s) => [s, data.filter((d) => d.set === s && d.ruled).length])),
    lambda: best!.lambda,
    examplesDigest: examplesDigest(data),
    ...model,
  };
  fs.writeFileSync(OUT, `${JSON.stringify(file, null, 1)}\n`);
  console.log(`\nChosen by cross-validation on the tuning halves: λ ${best!.lambda}, ${describeAt(best!.commitAt)}. Wrote ${path.relative(root, OUT)}.`);
}

main();
