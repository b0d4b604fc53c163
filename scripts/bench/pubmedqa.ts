/**
 * What the benchmark sections over PubMedQA share: the 500 development items
 * (../shared/eval/pubmedqa-dev/pqal_dev.json, read at run time and never copied into the
 * repository), their import into the local library, the plain BM25 reference every ranking is
 * compared with in the same run, and the database the sections run on.
 */
import fs from "node:fs";
import path from "node:path";
import { root } from "./common";

export const PUBMEDQA = path.join(root, "../shared/eval/pubmedqa-dev/pqal_dev.json");
/** The set's name in the fixed split (scripts/bench/split.ts): each item's half is halfOf({ set, id: PMID }). */
export const PUBMEDQA_SET = "pubmedqa-dev";

/** Results per question in every ranking figure: MRR is MRR@10. */
export const LIMIT = 10;

export type PubmedQaItem = {
  QUESTION: string;
  CONTEXTS: string[];
  LABELS?: string[];
  LONG_ANSWER?: string;
  MESHES?: string[];
  YEAR?: string;
  final_decision?: "yes" | "no" | "maybe";
};

/**
 * How an item's abstract is imported:
 * - `contexts`: PubMedQA's own "reasoning-required" setting, the contexts without labels and without
 *   the conclusion (the setting of the paper's 68.1% model and 78% single annotator);
 * - `pubmed`: the abstract as PubMed's efetch serves a structured one and the PubMed client renders
 *   it (agent/literature/sources/pubmed-xml.ts): each section as "LABEL: text", the conclusion
 *   (PubMedQA's LONG_ANSWER) last as "CONCLUSIONS: …". This is what the service reads in production.
 */
export type AbstractForm = "contexts" | "pubmed";
export const ABSTRACT_FORMS: readonly AbstractForm[] = ["pubmed", "contexts"];

export function abstractOf(item: PubmedQaItem, form: AbstractForm): string {
  if (form === "contexts") return item.CONTEXTS.join("\n");
  const sections = item.CONTEXTS.map((text, i) => (item.LABELS?.[i] ? `${item.LABELS[i]}: ${text}` : text));
  return [...sections, ...(item.LONG_ANSWER ? [`CONCLUSIONS: ${item.LONG_ANSWER}`] : [])].join("\n");
}
export type Quality = { name: string; recallAt1: number; recallAt10: number; mrr: number };

/** The items, keyed by PMID, in file order. */
export function readPubmedQa(): [string, PubmedQaItem][] {
  return Object.entries(JSON.parse(fs.readFileSync(PUBMEDQA, "utf8")) as Record<string, PubmedQaItem>);
}

/**
 * The items as the library's JSON Lines import input: each item's abstract in the given form (no
 * title: the library derives one; the question is never stored), its MeSH and year.
 */
export function writePubmedQaJsonLines(file: string, items: [string, PubmedQaItem][], form: AbstractForm = "contexts"): void {
  fs.writeFileSync(
    file,
    items.map(([pmid, it]) => JSON.stringify({ pmid, abstract: abstractOf(it, form), mesh: it.MESHES ?? [], year: it.YEAR ? Number(it.YEAR) : null })).join("\n"),
  );
}

/** recall@1, recall@10 and MRR@10 from each question's gold rank (0: not found). */
export function summariseRanks(name: string, ranks: number[]): Quality {
  const n = ranks.length;
  return {
    name,
    recallAt1: ranks.filter((r) => r === 1).length / n,
    recallAt10: ranks.filter((r) => r >= 1 && r <= 10).length / n,
    mrr: ranks.reduce((sum, r) => sum + (r >= 1 && r <= LIMIT ? 1 / r : 0), 0) / n,
  };
}

// English stop words (the common short list); plain BM25 has no stemming.
const STOP_WORDS = new Set(
  `a about above after again against all am an and any are as at be because been before being below between both but by can
  did do does doing down during each few for from further had has have having he her here hers herself him himself his how i
  if in into is it its itself just me more most my myself no nor not now of off on once only or other our ours ourselves out
  over own same she should so some such than that the their theirs them themselves then there these they this those through to
  too under until up very was we were what when where which while who whom why will with you your yours yourself yourselves`
    .split(/\s+/)
    .filter(Boolean),
);

function tokenize(text: string): string[] {
  return text.toLowerCase().split(/[^a-z0-9]+/).filter((t) => t !== "" && !STOP_WORDS.has(t));
}

/**
 * The reference: textbook BM25 (k1 1.2, b 0.75, idf ln(1 + (N − n + 0.5)/(n + 0.5))) over every
 * document. `queries` (PMID and question) are searched instead of each item's own QUESTION.
 */
export function measureBm25({
  name,
  items,
  withMesh,
  form = "contexts",
  queries = items.map(([pmid, it]) => [pmid, it.QUESTION]),
}: {
  name: string;
  items: [string, PubmedQaItem][];
  withMesh: boolean;
  form?: AbstractForm;
  queries?: [string, string][];
}): Quality {
  const k1 = 1.2;
  const b = 0.75;
  const docs = items.map(([pmid, it]) => {
    const tokens = tokenize([abstractOf(it, form), ...(withMesh ? (it.MESHES ?? []) : [])].join(" "));
    const tf = new Map<string, number>();
    for (const t of tokens) tf.set(t, (tf.get(t) ?? 0) + 1);
    return { pmid, tf, length: tokens.length };
  });
  const df = new Map<string, number>();
  for (const d of docs) for (const t of d.tf.keys()) df.set(t, (df.get(t) ?? 0) + 1);
  const n = docs.length;
  const average = docs.reduce((s, d) => s + d.length, 0) / n;
  const ranks = queries.map(([pmid, question]) => {
    const query = tokenize(question);
    const scored = docs.map((d) => {
      let score = 0;
      for (const t of query) {
        const f = d.tf.get(t);
        if (!f) continue;
        const holding = df.get(t) ?? 0;
        score += Math.log(1 + (n - holding + 0.5) / (holding + 0.5)) * ((f * (k1 + 1)) / (f + k1 * (1 - b + (b * d.length) / average)));
      }
      return { pmid: d.pmid, score };
    });
    scored.sort((x, y) => y.score - x.score);
    const index = scored.findIndex((s) => s.pmid === pmid && s.score > 0);
    return index + 1;
  });
  return summariseRanks(name, ranks);
}


