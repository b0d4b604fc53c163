/**
 * `npm run train:stance`: fits the stance model (agent/literature/stance/model.ts) on the TUNING
 * halves of the labelled sets (scripts/bench/split.ts) and writes its weights to
 * agent/literature/stance/weights.json. The held-out halves are never read here.
 *
 * A multinomial logistic regression (supports / contradicts / neither) over the features of
 * agent/literature/stance/features.ts, L2-regularised, fitted by full-batch gradient descent from
 * zero: the same data give the same weights. The regularisation and the commit threshold are
 * chosen by 5-fold cross-validation on the tuning halves (folds by item, so an item's two PubMedQA
 * forms share a fold); the figures printed are those cross-validated ones, never the held-out.
 */
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { CLASSES, predict, type StanceModel } from "../agent/literature/stance/model";
import { root } from "./bench/common";
import { examplesDigest, tuningExamples, type Example } from "./bench/stance-training";

const OUT = path.join(root, "agent/literature/stance/weights.json");
const LAMBDAS = [0.003, 0.01, 0.03, 0.1, 0.3];
const THRESHOLDS = [0.4, 0.45, 0.5, 0.55, 0.6, 0.65, 0.7];
const FOLDS = 5;
/** Fits weights by full-batch gradient descent (Adam), from zero. */
export function fit(data: Example[], features: string[], lambda: number, iterations = 600): number[][] {
  const C = CLASSES.length;
  const F = features.length;
  const N = data.length;
  const X = data.map((d) => Float64Array.from(features, (f) => d.x[f] ?? 0));
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
      const x = X[n]!;
      let top = -Infinity;
      for (let k = 0; k < C; k++) {
        let dot = 0;
        const w = W[k]!;
        for (let i = 0; i < F; i++) dot += w[i]! * x[i]!;
        z[k] = dot;
        if (dot > top) top = dot;
      }
      let sum = 0;
      for (let k = 0; k < C; k++) sum += (z[k] = Math.exp(z[k]! - top));
      for (let k = 0; k < C; k++) {
        const g = z[k]! / sum - (data[n]!.y === k ? 1 : 0);
        if (g === 0) continue;
        const row = grad[k]!;
        for (let i = 0; i < F; i++) row[i]! += (g * x[i]!) / N;
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

/** The fold of an item: a pure function of its id, so both forms of a PubMedQA item share one. */
function foldOf(e: Example): number {
  return createHash("sha256").update(`stance-folds:${e.set.split("/")[0]}:${e.id}`).digest()[0]! % FOLDS;
}

/** `p` null: the rules read nothing, so the study is `unclear` (insufficient) whatever the model. */
type Scored = { set: string; y: number; p: Record<(typeof CLASSES)[number], number> | null; both: boolean };

function figures(scored: Scored[], commitAt: number) {
  const bySet = new Map<string, { right: number; n: number; committed: number; committedRight: number }>();
  for (const s of scored) {
    const f = bySet.get(s.set) ?? { right: 0, n: 0, committed: 0, committedRight: 0 };
    const side = s.p && s.p.supports >= s.p.contradicts ? 0 : 1;
    const sideP = s.p ? (side === 0 ? s.p.supports : s.p.contradicts) : 0;
    const commits = s.p !== null && sideP >= commitAt && sideP >= s.p.neither;
    const said = commits ? side : 2;
    f.n++;
    if (said === s.y) f.right++;
    if (commits) {
      f.committed++;
      if (said === s.y) f.committedRight++;
    }
    bySet.set(s.set, f);
  }
  return [...bySet.entries()].map(([set, f]) => ({ set, accuracy: f.right / f.n, committedPrecision: f.committed ? f.committedRight / f.committed : 0, commitRate: f.committed / f.n }));
}

function main(): void {
  const started = performance.now();
  const data = tuningExamples();
  const features = Object.keys(data[0]!.x);
  console.log(`${data.length} tuning examples (${[...new Set(data.map((d) => d.set))].join(", ")}), ${features.length} features; read in ${((performance.now() - started) / 1000).toFixed(1)} s.`);
  let best: { lambda: number; commitAt: number; score: number } | null = null;
  for (const lambda of LAMBDAS) {
    const scored: Scored[] = [];
    for (let k = 0; k < FOLDS; k++) {
      const train = data.filter((d) => d.ruled && foldOf(d) !== k);
      const W = fit(train, features, lambda);
      const model: StanceModel = { features, weights: W, commitAt: 0 };
      for (const d of data.filter((e) => foldOf(e) === k)) scored.push({ set: d.set, y: d.y, p: d.ruled ? predict(model, d.x) : null, both: d.both });
    }
    for (const commitAt of THRESHOLDS) {
      const f = figures(scored, commitAt);
      // Accuracy on every set counts first; of two settings as accurate, the one whose committed
      // verdicts are more often right.
      const score = f.reduce((n, s) => n + s.accuracy + 0.01 * s.committedPrecision, 0);
      console.log(
        `λ ${lambda} commit ≥ ${commitAt}: ${f.map((s) => `${s.set} ${(100 * s.accuracy).toFixed(1)}% (committed ${(100 * s.committedPrecision).toFixed(1)}% of ${(100 * s.commitRate).toFixed(0)}%)`).join("; ")}`,
      );
      if (!best || score > best.score) best = { lambda, commitAt, score };
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
  console.log(`\nChosen by cross-validation on the tuning halves: λ ${best!.lambda}, commit at ${best!.commitAt}. Wrote ${path.relative(root, OUT)}.`);
}

main();
