import { describe, expect, it } from "vitest";
import { composeChatResult } from "@/agent/chat/compose";
import { finishedStatus, researchTurn } from "@/agent/deep-research/run";
import { runLiteratureSearch } from "@/agent/literature/engine";
import type { LiteratureRecord } from "@/agent/literature/record";
import { splitSentences } from "@/agent/literature/sentences";
import type { LiteratureSource, SourceQuery } from "@/agent/literature/sources/types";
import { stemSet } from "@/agent/literature/terms";
import { literatureQueryRequestSchema } from "@/lib/shared/contracts";
import { buildRecord } from "../support/records";

/**
 * Deep research over a small corpus on rapamycin and lifespan, searched through a local source
 * that finds records the way a full-text search would (by the query's words). The corpus has
 * something for each evidence axis: a human randomized trial, a cohort, mouse studies that
 * disagree, a mechanistic study, a study of dosing, a report of adverse effects; one paper twice
 * (under its PMID and under its DOI alone), and one sentence in two papers.
 */

const QUESTION = "Does rapamycin extend lifespan?";

const mouse = buildRecord(); // PMID 19587680: rapamycin extends lifespan in mice (positive)
const corpus: LiteratureRecord[] = [
  mouse,
  buildRecord({ ids: { doi: "10.1038/NATURE08221" }, source: "crossref", sources: ["crossref"], url: "https://doi.org/10.1038/nature08221", mesh: [] }),
  buildRecord({
    ids: { pmid: "90200002" },
    title: "Rapamycin started in old age did not extend lifespan of male C57BL/6 mice",
    abstract:
      "We fed rapamycin to male C57BL/6 mice from 24 months of age until death. Rapamycin did not significantly extend median or maximal lifespan compared with control mice. Body weight fell in treated mice.",
    year: 2016,
    mesh: ["Animals", "Mice", "Sirolimus", "Longevity"],
    url: "https://pubmed.ncbi.nlm.nih.gov/90200002/",
  }),
  buildRecord({
    ids: { pmid: "90200003" },
    title: "Low-dose rapamycin and aging biomarkers in older adults: a randomized controlled trial",
    abstract:
      "In a randomized, placebo-controlled trial, 120 adults aged 70 and older received low-dose rapamycin or placebo for 16 weeks to test whether rapamycin slows human aging and could extend healthy lifespan. Rapamycin did not significantly change grip strength, gait speed or epigenetic age. Adverse events were more frequent with rapamycin, mostly mouth ulcers and raised blood lipids.",
    year: 2022,
    publicationTypes: ["Randomized Controlled Trial"],
    mesh: ["Humans", "Aged", "Sirolimus", "Aging"],
    url: "https://pubmed.ncbi.nlm.nih.gov/90200003/",
  }),
  buildRecord({
    ids: { pmid: "90200004" },
    title: "Sirolimus use and survival after kidney transplantation: a prospective cohort",
    abstract:
      "Among 5,200 kidney transplant recipients followed for ten years, sirolimus use was associated with longer survival and fewer cancers than calcineurin inhibitors, extending lifespan after transplantation.",
    year: 2019,
    publicationTypes: ["Observational Study"],
    mesh: ["Humans", "Sirolimus", "Kidney Transplantation", "Cohort Studies"],
    url: "https://pubmed.ncbi.nlm.nih.gov/90200004/",
  }),
  buildRecord({
    ids: { pmid: "90200005" },
    title: "Adverse effects of sirolimus in transplant recipients",
    abstract: "Sirolimus caused hyperlipidemia in 40% and mouth ulcers in 20% of 800 kidney transplant recipients. Adverse effects led to discontinuation in 12% of them.",
    year: 2015,
    publicationTypes: ["Observational Study"],
    mesh: ["Humans", "Sirolimus", "Drug-Related Side Effects and Adverse Reactions"],
    url: "https://pubmed.ncbi.nlm.nih.gov/90200005/",
  }),
  buildRecord({
    ids: { pmid: "90200006" },
    title: "Rapamycin inhibits mTOR signalling and restores autophagy in aged mouse liver",
    abstract:
      "Rapamycin inhibited mTOR signalling and restored autophagy in the livers of aged mice. Inhibition of mTOR reduced markers of cellular senescence in aging tissue.",
    year: 2018,
    mesh: ["Animals", "Mice", "Sirolimus", "Autophagy", "Aging"],
    url: "https://pubmed.ncbi.nlm.nih.gov/90200006/",
  }),
  buildRecord({
    ids: { pmid: "90200007" },
    title: "Intermittent rapamycin dosing extends lifespan in female mice",
    abstract:
      "Intermittent rapamycin given once every five days extended lifespan of female mice as much as daily dosing did. The intermittent schedule caused less hyperglycemia than daily rapamycin.",
    year: 2020,
    mesh: ["Animals", "Mice", "Sirolimus", "Longevity"],
    url: "https://pubmed.ncbi.nlm.nih.gov/90200007/",
  }),
  // Another paper (other ids, another title) whose abstract repeats the first one's sentences.
  buildRecord({
    ids: { pmid: "90200008" },
    title: "Late-life rapamycin and the survival of heterogeneous mice: a conference report",
    year: 2010,
    url: "https://pubmed.ncbi.nlm.nih.gov/90200008/",
  }),
];

/** Finds records holding most of a query's terms (a phrase counts when all its words are there). */
function searchable(records: LiteratureRecord[]) {
  const texts: string[] = [];
  const source: LiteratureSource = {
    name: "local",
    search: async (q: SourceQuery) => {
      if (!texts.includes(q.text)) texts.push(q.text);
      const terms = q.terms.map((t) => [...stemSet(t)]).filter((t) => t.length > 0);
      const need = Math.min(2, terms.length);
      return records
        .map((r) => {
          const stems = stemSet(`${r.title} ${r.abstract ?? ""} ${r.mesh.join(" ")}`);
          return { r, hits: terms.filter((t) => t.every((s) => stems.has(s))).length };
        })
        .filter((x) => x.hits >= need)
        .sort((a, b) => b.hits - a.hits)
        .map((x) => x.r);
    },
  };
  return { source, texts };
}

function run({
  records = corpus,
  iterations = 6,
  question = QUESTION,
  earlier = [],
  world = { objectives: [], findings: [], hypotheses: [], openQuestions: [], sources: [] },
  done = [],
  now,
  budgetSeconds = 600,
}: {
  records?: LiteratureRecord[];
  iterations?: number;
  question?: string;
  earlier?: string[];
  world?: Parameters<typeof researchTurn>[0]["world"];
  done?: Parameters<typeof researchTurn>[0]["done"];
  now?: () => number;
  budgetSeconds?: number;
} = {}) {
  const { source, texts } = searchable(records);
  const saved: number[] = [];
  const promise = researchTurn({
    question,
    earlier,
    done,
    world,
    engine: { sources: { local: source } },
    iterations,
    budgetSeconds,
    ids: { conversationId: "c", messageId: "m" },
    progress: async () => undefined,
    signal: new AbortController().signal,
    state: async () => undefined,
    save: async (d) => void saved.push(d.length),
    ...(now ? { now } : {}),
  });
  return promise.then((out) => ({ ...out, texts, saved }));
}

const key = (s: string) => s.toLowerCase().replace(/[^a-z0-9]+/g, " ").trim();

describe("deep research plans by evidence axes", () => {
  it("searches each axis with the question's concepts and the axis' vocabulary, never the question plus a stray word", async () => {
    const { world, texts } = await run();
    const expected = [
      "rapamycin lifespan randomized controlled trial",
      "rapamycin lifespan mice",
      "rapamycin lifespan cohort",
      "rapamycin adverse effects",
      "rapamycin mTOR mechanism aging",
      "rapamycin dose timing",
    ];
    expect(world.objectives).toEqual(expected);
    // What the sources were asked: one query per axis, never the question itself.
    expect(texts).toEqual(expected);
    for (const objective of world.objectives) expect(objective).not.toMatch(/\?|\bdoes\b|\bwhich\b/i);
  });

  it("takes the axes the question asks about first, and says which the iteration budget left out", async () => {
    const { world, result } = await run({ iterations: 3, question: "Is rapamycin safe, and does it extend lifespan in mice of any species?" });
    expect(world.objectives).toEqual(["rapamycin lifespan mice", "rapamycin adverse effects", "rapamycin lifespan randomized controlled trial"]);
    const axes = world.axes!;
    expect(axes.filter((a) => a.status === "covered").map((a) => a.axis)).toEqual(["human_trials", "animal", "safety"]);
    expect(axes.filter((a) => a.status === "not_covered").map((a) => a.axis)).toEqual(["observational", "mechanism", "dose_timing"]);
    expect(result.answer).toMatch(/Not covered: observational cohorts, mechanism and dose and timing \(the iteration budget is 3\)\./);
  });
});

describe("a continued conversation's turn is read as a follow-up only when it leans on the earlier question", () => {
  it("a turn that names its own subject is researched on its own words, not the earlier objective's", async () => {
    const { texts, result } = await run({ question: "Does taurine improve bone density in older women?", earlier: [QUESTION], iterations: 3 });
    expect(texts.length).toBeGreaterThan(0);
    for (const text of texts) expect(text).not.toMatch(/rapamycin|lifespan/i);
    expect(result.metadata?.followUp).toMatchObject({ kind: "new_topic" });
    expect(result.answer).not.toMatch(/Read as a follow-up/);
  });

  it("“and in women?” is researched as the earlier question in women, and the reply says so", async () => {
    const { texts, result } = await run({ question: "and in women?", earlier: [QUESTION], iterations: 3 });
    expect(texts.every((text) => /rapamycin/i.test(text))).toBe(true);
    expect(texts.some((text) => /women/i.test(text))).toBe(true);
    expect(result.metadata?.followUp).toMatchObject({ kind: "follow_up", follows: QUESTION });
    expect(result.answer).toMatch(/^Read as a follow-up to: “/);
  });
});

describe("the references a reply grades against the question", () => {
  it("counts an intervention's safety evidence as context, unless the question asks about its safety", async () => {
    const reason = (result: Awaited<ReturnType<typeof run>>["result"]) => result.references.find((r) => r.pmid === "90200005")!.roleReason;
    expect(reason((await run()).result)).toMatch(/^found by the safety and adverse effects search \(“rapamycin adverse effects”\)/);
    const asked = await run({ question: "Is rapamycin safe?" });
    expect(reason(asked.result)).not.toMatch(/^found by the/);
    expect(asked.world.objectives[0]).toBe("rapamycin adverse effects");
  });
});

describe("deep research records each finding once, grouped by axis", () => {
  it("never records the same work on one axis twice, nor the same sentence twice, across iterations and across turns", async () => {
    const first = await run();
    const sentences = first.world.findings.map((f) => key(f.statement));
    expect(new Set(sentences).size).toBe(sentences.length);
    const onAxis = first.world.findings.map((f) => `${f.axis}|${f.references[0]!.url}`);
    expect(new Set(onAxis).size).toBe(onAxis.length);
    // The mouse study's finding is there once, though two papers (and two copies of one) state it.
    expect(first.world.findings.filter((f) => /600 days of age/.test(f.statement))).toHaveLength(1);

    // The next turn of the conversation finds the same papers again: it adds no finding.
    const second = await run({ world: first.world });
    expect(second.world.findings).toEqual(first.world.findings);
    // A follow-up on mice searches again: whatever it adds, never a finding the conversation holds.
    const third = await run({ world: second.world, question: "Does rapamycin extend lifespan in mice?" });
    expect(third.world.findings.length).toBeGreaterThanOrEqual(second.world.findings.length);
    const all = third.world.findings.map((f) => key(f.statement));
    expect(new Set(all).size).toBe(all.length);
    const onAxisAll = third.world.findings.map((f) => `${f.axis}|${f.references[0]!.url}`);
    expect(new Set(onAxisAll).size).toBe(onAxisAll.length);
  });

  it("puts each finding on its axis: the trial on human trials, the cohort on observational cohorts, mice on animal models, and the rest on theirs", async () => {
    const { world } = await run();
    const on = (pmid: string) => world.findings.filter((f) => f.references[0]!.pmid === pmid).map((f) => f.axis);
    expect(on("90200003")).toContain("human_trials");
    expect(on("90200003")).toContain("safety"); // its adverse events, a sentence of their own
    expect(on("90200004")).toEqual(["observational"]);
    expect(on("19587680")).toContain("animal");
    expect(on("90200005")).toEqual(["safety"]);
    expect(on("90200006")).toContain("mechanism");
    expect(on("90200007")).toEqual(expect.arrayContaining(["animal", "dose_timing"]));
    expect(world.findings.filter((f) => f.axis === "animal").every((f) => f.species === "mouse")).toBe(true);
    // Grouped: the findings of one axis are together, in the axes' order.
    const order = world.findings.map((f) => f.axis);
    expect(order).toEqual([...order].sort((a, b) => ["human_trials", "observational", "animal", "mechanism", "safety", "dose_timing"].indexOf(a!) - ["human_trials", "observational", "animal", "mechanism", "safety", "dose_timing"].indexOf(b!)));
    const animal = world.axes!.find((a) => a.axis === "animal")!;
    expect(animal).toMatchObject({ status: "covered", queries: ["rapamycin lifespan mice"], species: { mouse: animal.findings } });
    expect(animal.referencesAccepted).toBeGreaterThan(0);
  });
});

describe("deep research derives hypotheses and open questions from what each axis found", () => {
  it("flags mouse studies that disagree, and draws hypotheses from the axes instead of a template", async () => {
    const { world, result } = await run();
    expect(world.contradictions).toEqual([expect.objectContaining({ axis: "animal", species: "mouse" })]);
    // Each side is the study's stance, read as the verdict reads it.
    expect(world.contradictions![0]!.statement).toMatch(/^Mouse studies disagree on rapamycin and lifespan: .*PMID 19587680.* finds? for it, .*PMID 90200002.* against it\.$/);
    expect(world.openQuestions.join(" ")).toMatch(/Mouse studies disagree/);
    expect(world.hypotheses.length).toBeGreaterThan(0);
    for (const h of world.hypotheses) expect(h).not.toMatch(/worth testing further/);
    for (const q of world.openQuestions) expect(q).not.toMatch(/Little evidence was found/);
    // The effect in mice against the human trial that found none.
    expect(world.hypotheses.join(" ")).toMatch(/seen in mice .* did not carry over in the human trials found/);
    expect(result.answer).toMatch(/Mouse studies disagree on rapamycin and lifespan: \[\d+\](\[\d+\])* finds? for it, \[\d+\] against it\./);
  });

  it("says what an axis did not find: no human randomized trial, no adverse-effect data", async () => {
    const mice = corpus.filter((r) => !["90200003", "90200004", "90200005", "90200007"].includes(r.ids.pmid ?? ""));
    const { world, result } = await run({ records: mice });
    expect(world.openQuestions).toEqual(
      expect.arrayContaining([
        "No human randomized trial of rapamycin and lifespan was found.",
        "No observational cohort on rapamycin and lifespan was found.",
        "Safety: no adverse-effect data in the references found.",
      ]),
    );
    expect(world.hypotheses.join(" ")).toMatch(/seen in mice .* a randomized trial in humans would show it; none among the references found has tested it\./);
    expect(result.answer).toMatch(/Human trials \(searched “rapamycin lifespan randomized controlled trial”\): no human trial on it was found\./);
  });
});

describe("a deep-research reply is more than a chat", () => {
  it("says how it researched, gives the bottom line, then the evidence by axis, every [N] one of its references", async () => {
    const { result } = await run();
    expect(result.answer).toMatch(/^Deep research: 6 iterations, one search per evidence axis \(human trials, animal models, observational cohorts, safety and adverse effects, mechanism and dose and timing\); \d+ records screened, \d+ accepted, \d+ cited below\./);
    expect(result.answer).toMatch(/\n\nBottom line: /);
    for (const label of ["Human trials", "Observational cohorts", "Animal models", "Mechanism", "Safety and adverse effects", "Dose and timing"]) {
      expect(result.answer).toMatch(new RegExp(`\\n\\n${label} \\(searched “[^”]+”\\): `));
    }
    expect(result.quality.contractValid).toBe(true);
    expect(result.quality.citations.outOfRangeOrdinals).toEqual([]);
    // Numbered in the order cited: no gap.
    expect(result.quality.citations.missingMarkerOrdinals).toEqual([]);
    const cited = new Set(result.quality.citations.markers);
    expect(cited.size).toBeGreaterThanOrEqual(6);
    // Each paper once in the list, whatever ids it was found under.
    expect(result.references.filter((r) => r.title === mouse.title)).toHaveLength(1);
    const sentences = splitSentences(result.answer.replace(/\n+/g, " ")).map(key);
    expect(new Set(sentences).size).toBe(sentences.length);

    // A chat over the same question answers from one search: the reply is something else.
    const literature = await runLiteratureSearch(literatureQueryRequestSchema.parse({ question: QUESTION }), { sources: { local: searchable(corpus).source }, includeAbstracts: true });
    const chat = composeChatResult({ question: QUESTION, literature, conversationId: "c" });
    expect(result.answer).not.toBe(chat.answer);
    expect(result.references.length).toBeGreaterThan(chat.references.length);
  });

  it("ends early on the time budget with what it has, and says so", async () => {
    let t = 0;
    const { result, world } = await run({ budgetSeconds: 1, now: () => (t += 400) });
    expect(world.objectives.length).toBeGreaterThan(0);
    expect(world.objectives.length).toBeLessThan(6);
    expect(result.answer).toMatch(/\(the time budget ran out\)/);
    expect(result.quality.contractValid).toBe(true);
  });

  it("resumes after its saved iterations, never searching a saved axis again", async () => {
    const first = await run({ iterations: 2 });
    const { world, texts } = await run({ done: first.done, world: first.world, iterations: 6 });
    expect(texts).not.toContain("rapamycin lifespan randomized controlled trial");
    expect(texts).not.toContain("rapamycin lifespan mice");
    expect(world.objectives).toHaveLength(6);
    expect(new Set(world.objectives).size).toBe(6);
  });
});

describe("a finished run's status line", () => {
  it("counts iterations and references in correct English", () => {
    expect(finishedStatus(6, 1)).toBe("Finished after 6 iterations with 1 reference");
    expect(finishedStatus(1, 3)).toBe("Finished after 1 iteration with 3 references");
  });
});
