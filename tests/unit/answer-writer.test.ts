import { describe, expect, it } from "vitest";
import { composeChatResult } from "@/agent/chat/compose";
import { writeAnswer, type AnswerReference } from "@/agent/literature/answer";
import { runLiteratureSearch } from "@/agent/literature/engine";
import { extractSnapshot } from "@/agent/literature/snapshot";
import { readQuestion } from "@/agent/literature/reading";
import { deriveVerdict } from "@/agent/literature/verdict";
import type { EngineResult } from "@/agent/literature/result";
import { chatResultSchema, literatureJobResultSchema, literatureQueryRequestSchema, type EvidenceType } from "@/lib/shared/contracts";
import { buildRecord } from "../support/records";
import { bottomLineAfterVerdict } from "@/lib/shared/contracts/bottom-line";

/**
 * The extractive answer: a bottom line first, then the evidence by strength with each claim's
 * subject, then the limits; never a sentence twice. Abstracts are synthetic, written for these tests.
 */

type RefInput = { id: number; title: string; abstract: string; evidenceType: EvidenceType; mesh?: string[]; score?: number };

/** A reference as the engine returns it (with its snapshot), for composeChatResult. */
function engineRef({ id, title, abstract, evidenceType, mesh = ["Humans"], score = 0.9 }: RefInput) {
  return {
    id,
    title,
    url: `https://pubmed.ncbi.nlm.nih.gov/9100000${id}/`,
    source: "pubmed",
    year: 2020,
    pmid: `9100000${id}`,
    doi: null,
    pmcid: null,
    evidenceType,
    verification: "verified",
    confidence: 0.7,
    abstract,
    snapshot: extractSnapshot({ title, abstract, mesh, publicationTypes: [] }, evidenceType),
    relevance: { accepted: true, score, matchedTerms: ["senolytic"], flags: [] },
  };
}

const chat = (question: string, refs: RefInput[], extra: Record<string, unknown> = {}) =>
  composeChatResult({ question, literature: { references: refs.map(engineRef), ...extra } as unknown as EngineResult, conversationId: "c" });

const senolyticTrial: RefInput = {
  id: 1,
  title: "Senolytic dasatinib plus quercetin in idiopathic pulmonary fibrosis",
  abstract: "An open-label pilot trial of intermittent dasatinib plus quercetin in fourteen patients with idiopathic pulmonary fibrosis. Physical function improved after three weeks of treatment.",
  evidenceType: "single_arm_trial",
  mesh: ["Humans", "Senotherapeutics", "Idiopathic Pulmonary Fibrosis"],
};

describe("the extractive answer", () => {
  it("gives a claim without a subject its intervention and population (it used to read “Physical function improved after three weeks of treatment. [1]”)", () => {
    const result = chat("Do senolytics improve physical function?", [senolyticTrial]);
    expect(result.answer).toContain(
      "Human trials: In a trial of senolytic dasatinib plus quercetin in 14 patients with idiopathic pulmonary fibrosis, physical function improved after three weeks of treatment. [1]",
    );
    expect(result.answer).not.toMatch(/(^|\s)Physical function improved/);
    expect(result.references[0]!.snapshot).toMatchObject({ sampleSize: 14, intervention: "senolytic dasatinib plus quercetin", direction: "positive" });
  });

  it("does not give a claim a subject it already has, and keeps a Title Case title from capitalising the claim", () => {
    const recipients: RefInput = {
      id: 3,
      title: "Statin Use And Mortality In Kidney Transplant Recipients",
      abstract:
        "We followed 5,200 kidney transplant recipients treated with statins for ten years. Among 5,200 recipients, statin use was associated with lower all-cause mortality.",
      evidenceType: "observational",
    };
    const withSubject = chat("Is statin use associated with mortality in transplant recipients?", [recipients]);
    expect(withSubject.answer).toContain("Among 5,200 recipients, statin use was associated with lower all-cause mortality. [1]");
    expect(withSubject.answer).not.toMatch(/recipients, among 5,200/i);

    const titled: RefInput = {
      id: 4,
      title: "Inhibition Of mTOR By Rapamycin Extends Lifespan In Mice",
      abstract: "Genetically heterogeneous mice were fed rapamycin from 600 days of age. Inhibition of the mTOR pathway extended median and maximal lifespan.",
      evidenceType: "preclinical",
      mesh: ["Animals", "Mice", "Sirolimus"],
    };
    const lowered = chat("Does rapamycin extend lifespan in mice?", [titled]);
    expect(lowered.answer).not.toMatch(/, Inhibition of the mTOR pathway/);
  });

  it("opens with the bottom line, and the verdict is on the result", () => {
    const result = chat("Do senolytics improve physical function?", [senolyticTrial]);
    // One uncontrolled trial: it leans, and says why its confidence is low.
    expect(result.answer.split("\n\n")[0]).toMatch(/^Bottom line: the evidence leans toward supporting it, with low confidence\. The one study that tests senolytics and physical function reports findings in its favour.* Low confidence: it rests on one uncontrolled trial\./);
    expect(result.verdict).toBe("supports");
    expect(result.verdictBasis?.confidence).toBe("low");
    expect(result.verdictBasis).toMatchObject({ supporting: 1, contradicting: 0 });
    expect(result.references[0]!.stance).toBe("supports");
    expect(chatResultSchema.parse(result).verdict).toBe("supports");
    // Limits come last: no controlled trial, thin evidence.
    expect(result.answer.split("\n\n").at(-1)).toMatch(/^Limits: No randomized or controlled trial.*thin: only one study tests the question\./);
  });

  it("its bottom line, under a heading naming the verdict, goes on from the verdict sentence; a writer's own words stay whole", () => {
    const result = chat("Do senolytics improve physical function?", [senolyticTrial]);
    const statement = result.metadata.bottomLine!;
    const after = bottomLineAfterVerdict({ statement, verdict: result.verdict!, confidence: result.verdictBasis?.confidence });
    expect(after).toMatch(/^The one study that tests senolytics and physical function reports findings in its favour/);
    // The verdict sentence is the heading's: it must not lead the card again. Another confidence's sentence is not stripped.
    expect(bottomLineAfterVerdict({ statement, verdict: "supports", confidence: "high" })).toMatch(/^The evidence leans toward supporting it/);
    const written = "Bottom line: one small uncontrolled trial suggests a benefit, so the evidence leans toward it.";
    expect(bottomLineAfterVerdict({ statement: written, verdict: "supports", confidence: "low" })).toBe("One small uncontrolled trial suggests a benefit, so the evidence leans toward it.");
    const insufficient = "Bottom line: the evidence is insufficient to answer it: no study found tests both metformin and reduced cancer risk.";
    expect(bottomLineAfterVerdict({ statement: insufficient, verdict: "insufficient", confidence: "low" })).toBe("No study found tests both metformin and reduced cancer risk.");
  });

  it("never writes a sentence twice: two references with the same passage make one claim citing both", () => {
    const copy = { ...senolyticTrial, id: 2, title: "Dasatinib plus quercetin in pulmonary fibrosis (conference abstract)" };
    const result = chat("Do senolytics improve physical function?", [senolyticTrial, copy]);
    const claims = result.answer.match(/physical function improved after three weeks of treatment/gi) ?? [];
    expect(claims).toHaveLength(1);
    expect(result.answer).toMatch(/treatment\. \[1\]\[2\]/);
    expect(result.quality).toMatchObject({ contractValid: true, citations: { uncitedReferenceOrdinals: [] } });
    const sentences = result.answer.split(/(?<=[.!?])\s+/);
    expect(new Set(sentences).size).toBe(sentences.length);
  });

  it("groups the evidence by strength: reviews, human trials, observational studies, then animal and cell studies", () => {
    const result = chat("Does metformin reduce mortality?", [
      { id: 1, title: "Metformin and mortality in mice", abstract: "Metformin reduced mortality in aged male mice fed a standard diet.", evidenceType: "preclinical", mesh: ["Animals", "Mice"] },
      { id: 2, title: "Metformin use and mortality: a cohort study", abstract: "We followed 9,000 adults with diabetes. Metformin use was associated with lower mortality than sulfonylurea use.", evidenceType: "observational" },
      { id: 3, title: "Metformin and mortality: a randomized trial", abstract: "We randomized 3,000 older adults to metformin or placebo. Metformin reduced all-cause mortality over five years.", evidenceType: "randomized_controlled_trial" },
    ]);
    const labels = result.answer.split("\n\n").map((p) => p.split(":")[0]);
    expect(labels).toEqual(["Bottom line", "Human trials", "Observational studies", "Animal and cell studies", "Limits"].filter((l) => labels.includes(l)));
    expect(labels.slice(0, 4)).toEqual(["Bottom line", "Human trials", "Observational studies", "Animal and cell studies"]);
    expect(result.verdict).toBe("supports");
  });

  it("contradicts when the strongest evidence finds no effect, and is mixed when evidence of similar weight disagrees", () => {
    const nullTrial: RefInput = {
      id: 1,
      title: "Metformin and mortality in older adults: a randomized trial",
      abstract: "We randomized 3,000 older adults to metformin or placebo. Metformin did not reduce all-cause mortality compared with placebo.",
      evidenceType: "randomized_controlled_trial",
    };
    const positiveCohort: RefInput = {
      id: 2,
      title: "Metformin use and mortality: a cohort study",
      abstract: "We followed 9,000 adults with diabetes. Metformin use was associated with lower mortality than sulfonylurea use.",
      evidenceType: "observational",
    };
    const contradicts = chat("Does metformin reduce mortality?", [nullTrial]);
    expect(contradicts.verdict).toBe("contradicts");
    expect(contradicts.answer).toMatch(/^Bottom line: the evidence contradicts it, with moderate confidence\./);
    expect(contradicts.verdictBasis).toMatchObject({ confidence: "moderate", confidenceReason: "one randomized trial" });
    // Two studies that agree are "both", never "all 2".
    const two = chat("Does metformin reduce mortality?", [nullTrial, { ...nullTrial, id: 3, title: "Metformin and mortality in people over 70: a randomized trial" }]);
    expect(two.answer).toMatch(/^Bottom line: [^\n]*\. Both studies that test metformin and mortality report no effect/);
    expect(two.answer).not.toMatch(/All 2/);
    const mixed = chat("Does metformin reduce mortality?", [nullTrial, { ...positiveCohort, evidenceType: "randomized_controlled_trial" }]);
    expect(mixed.verdict).toBe("mixed");
    expect(mixed.answer).toMatch(/The findings are mixed/);
  });

  it("is insufficient when nothing is on topic, and says which sources failed in its limits", () => {
    const empty = chat("Does taurine extend lifespan?", [], { failedSources: [{ source: "pubmed", kind: "unreachable" }] });
    expect(empty.verdict).toBe("insufficient");
    expect(empty.verdictBasis?.reason).toBe("nothing on-topic was found in the sources searched");
    expect(empty.answer).toMatch(/^Bottom line: the evidence is insufficient\. No relevant evidence/);
    // The specific sentence, said once (it used to be a general one replaced after the fact).
    expect(empty.answer.split("\n\n").at(-1)).toMatch(/^Limits: PubMed could not be reached; /);
    expect(empty.failedSources).toEqual([{ source: "pubmed", kind: "unreachable" }]);
    expect(empty.quality.citations.markers).toEqual([]);
  });

  it("is insufficient when the only evidence is in animals and the question is about people", () => {
    const result = chat("Does rapamycin extend lifespan in older adults?", [
      { id: 1, title: "Rapamycin extends lifespan in genetically heterogeneous mice", abstract: "Rapamycin extended median and maximal lifespan of male and female mice.", evidenceType: "preclinical", mesh: ["Animals", "Mice"] },
    ]);
    expect(result.verdict).toBe("insufficient");
    // A study in another species than the question names does not test it: context, not evidence (roles.ts).
    expect(result.references.map((r) => [r.evidenceRole, r.roleReason])).toEqual([["context", expect.stringMatching(/ in mice, not in humans; shown for context/)]]);
    expect(result.answer).toMatch(/^Bottom line: the evidence is insufficient to answer it: no study found tests .+ in humans\. The closest found, 1 study in mice, supports it there\./);
  });
});

describe("the verdict", () => {
  const ref = (stance: "supports" | "contradicts" | "mixed" | "unclear", evidenceType: EvidenceType = "randomized_controlled_trial", extra = {}) => ({
    evidenceRole: "supporting" as const,
    evidenceType,
    relevance: 1,
    stance,
    certainty: 1,
    direct: true,
    ...extra,
  });

  it("weighs by design: one randomized trial outweighs two animal studies", () => {
    expect(deriveVerdict([ref("contradicts"), ref("supports", "preclinical"), ref("supports", "preclinical")]).verdict).toBe("mixed");
    expect(deriveVerdict([ref("contradicts"), ref("supports", "preclinical")]).verdict).toBe("contradicts");
    expect(deriveVerdict([ref("supports", "systematic_review"), ref("contradicts", "observational")]).verdict).toBe("mixed");
    expect(deriveVerdict([ref("supports", "systematic_review"), ref("contradicts", "narrative_review")]).verdict).toBe("supports");
  });

  it("is insufficient without on-topic references, without stated findings, or with only indirect or weak ones", () => {
    expect(deriveVerdict([]).verdict).toBe("insufficient");
    expect(deriveVerdict([ref("supports", "observational", { evidenceRole: "context" })]).verdict).toBe("insufficient");
    expect(deriveVerdict([ref("unclear")]).basis.reason).toBe("none of the studies that test it states a clear finding on it");
    expect(deriveVerdict([ref("supports", "preclinical", { direct: false })]).verdict).toBe("insufficient");
    expect(deriveVerdict([ref("supports", "narrative_review", { relevance: 0.4, certainty: 0.6 })]).basis.reason).toBe("the only direct evidence found is weak");
  });

  it("reads the question: an equivalence question is supported by a finding of no difference", () => {
    const references: AnswerReference[] = [
      {
        ordinal: 1,
        title: "Home-based versus centre-based rehabilitation",
        abstract: "Two hundred patients were randomized to home-based or centre-based rehabilitation. Functional outcomes at six months did not differ between the groups.",
        evidenceType: "randomized_controlled_trial",
        evidenceRole: "supporting",
        relevance: 1,
        snapshot: null,
      },
    ];
    expect(writeAnswer({ reading: readQuestion("Is home-based rehabilitation as effective as centre-based rehabilitation?"), references }).verdict).toBe("supports");
  });
});

describe("the literature result", () => {
  it("counts only studies that test both parts of the question: the closest ones are context, and the bottom line says what they lack", async () => {
    const metformin = (pmid: string, title: string, abstract: string) => buildRecord({ ids: { pmid }, title, abstract, publicationTypes: ["Randomized Controlled Trial"], mesh: ["Humans", "Metformin"] });
    const records = [
      metformin("91000021", "Metformin co-treatment during IVF in women with polycystic ovaries", "We randomized 120 women with polycystic ovaries to metformin or placebo during IVF. Metformin reduced the risk of ovarian hyperstimulation."),
      metformin("91000022", "Bedtime insulin plus metformin in type 2 diabetes", "We randomized 96 adults with type 2 diabetes to insulin with or without metformin. Metformin reduced weight gain and improved glycaemic control."),
      // Cancer is common in a pool, metformin rare: the metformin studies lead.
      ...["Cervical cancer screening uptake in northern municipalities", "Hereditary colorectal cancer risk in Lynch syndrome families", "Pain control in minority patients with cancer", "Breast cancer risk variants in female carriers"].map((title, i) =>
        buildRecord({ ids: { pmid: `9100003${i}` }, title, abstract: `${title}: cancer risk was compared between groups.`, mesh: ["Humans"] }),
      ),
    ];
    const result = await runLiteratureSearch(literatureQueryRequestSchema.parse({ question: "Is metformin associated with reduced cancer risk?" }), {
      sources: { pubmed: { name: "pubmed", search: async () => records } },
      includeAbstracts: true,
    });
    // The metformin studies name no cancer: each is context, saying what it lacks, and nothing tests the question.
    const accepted = result.references!.filter((r) => r.relevance?.accepted);
    expect(accepted.length).toBeGreaterThan(0);
    for (const r of accepted.filter((r) => /metformin/i.test(r.title))) expect(r).toMatchObject({ evidenceRole: "context", roleReason: expect.stringMatching(/^does not study reduced cancer risk/) });
    expect(result.verdict).toBe("insufficient");
    const bottomLine = result.answer!.split("\n\n")[0]!;
    expect(bottomLine).toBe(
      "Bottom line: the evidence is insufficient to answer it: no study found tests both metformin and reduced cancer risk. The closest found, 2 studies, do not study reduced cancer risk.",
    );
    // The chat writes its answer from the same references and says the same.
    const reply = composeChatResult({ question: "Is metformin associated with reduced cancer risk?", literature: result, conversationId: "c" });
    expect(reply.verdict).toBe("insufficient");
    expect(reply.answer.split("\n\n")[0]).toBe(bottomLine);
    // A study that tests every part of the question supports it, and nothing is said to be missing.
    const direct = await runLiteratureSearch(literatureQueryRequestSchema.parse({ question: "Does metformin reduce weight gain in type 2 diabetes?" }), {
      sources: { pubmed: { name: "pubmed", search: async () => records } },
    });
    expect(direct.references!.find((r) => r.pmid === "91000022")).toMatchObject({ evidenceRole: "supporting", roleReason: "studies metformin and weight gain" });
    expect(direct.answer).not.toMatch(/closest/);
  });


  it("opens its answer with the bottom line and carries the verdict, each reference's snapshot and each accepted one's stance", async () => {
    const trial = buildRecord({
      ids: { pmid: "91000011" },
      title: "Metformin and all-cause mortality in older adults: a randomized trial",
      abstract: "We randomized 3,000 older adults to metformin or placebo. Metformin did not reduce all-cause mortality compared with placebo over five years.",
      publicationTypes: ["Randomized Controlled Trial"],
      mesh: ["Humans", "Aged", "Metformin"],
    });
    const result = await runLiteratureSearch(literatureQueryRequestSchema.parse({ question: "Does metformin reduce mortality in older adults?" }), {
      sources: { pubmed: { name: "pubmed", search: async () => [trial] } },
    });
    const parsed = literatureJobResultSchema.parse(result);
    expect(parsed.verdict).toBe("contradicts");
    expect(parsed.verdictBasis).toMatchObject({ contradicting: 1, supporting: 0 });
    expect(parsed.answer).toMatch(/^Bottom line: the evidence contradicts it, with moderate confidence\./);
    expect(parsed.answer).toContain("Human trials: ");
    expect(parsed.references![0]).toMatchObject({
      stance: "contradicts",
      snapshot: { design: "randomized_controlled_trial", species: "human", sampleSize: 3000, population: "older adults", intervention: "metformin", direction: "null" },
    });
  });
});
