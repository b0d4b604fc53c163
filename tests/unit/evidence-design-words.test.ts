import { describe, expect, it } from "vitest";
import { classifyEvidence } from "@/agent/literature/evidence";
import type { LiteratureRecord } from "@/agent/literature/record";
import { buildRecord, buildTrialDesign } from "../support/records";

/**
 * The design of a record that no publication type, MeSH heading or registry field classifies (a
 * local library's record, a Europe PMC preprint, a PubMed record not yet indexed), read from its
 * own words: the phrasings real abstracts use, British spellings and typographic dashes included.
 * Titles and abstracts written for these tests (synthetic: none of it is real research).
 */

const bare = (title: string, abstract: string, overrides: Partial<LiteratureRecord> = {}) =>
  buildRecord({ ids: {}, title, abstract, publicationTypes: [], mesh: [], ...overrides });
const typeOf = (title: string, abstract: string, overrides: Partial<LiteratureRecord> = {}) => classifyEvidence(bare(title, abstract, overrides)).type;

describe("the design named in a record's own words", () => {
  it.each([
    // Cohorts, however they are named.
    ["Dietary urolithin A and grip strength in older adults: findings from two cohorts", "Across two cohorts of 3,100 older adults followed for a median of nine years, higher intake was associated with greater grip strength."],
    ["Sleep duration and dementia", "We followed 7,959 participants of the Whitehall II study for 25 years; short sleep at age 50 was associated with a higher risk of dementia."],
    ["Grip strength and mortality in UK Biobank", "Among 502,293 UK Biobank participants, lower grip strength was associated with higher all-cause mortality."],
    ["Coffee and frailty", "In this nested case–control analysis of 1,200 adults, coffee drinking was associated with a lower risk of frailty."],
    ["Vitamin D and falls", "In this cross‐sectional analysis of 3,000 older women, low vitamin D was associated with falls."],
    ["Metformin use and cancer incidence", "Data from a nationwide register of 120,000 adults with diabetes were analysed; metformin users had fewer cancers."],
    ["Statins and dementia: a follow-up study", "Statin users had a lower incidence of dementia over twelve years."],
    ["Genetically predicted IGF-1 and longevity: a Mendelian randomization study", "Using genetic variants as instruments, higher IGF-1 was associated with shorter lifespan."],
    ["Metformin and cancer: emulating a target trial", "We emulated a target trial using electronic health records of 50,000 adults."],
  ])("an observational study: %s", (title, abstract) => {
    expect(typeOf(title, abstract)).toBe("observational");
  });

  it.each([
    ["Exercise and cognition in older adults: a randomised trial", "Participants were randomised to aerobic exercise or stretching."],
    ["Metformin and walking speed", "After randomisation, 120 older adults received metformin or placebo."],
    ["Rapamycin and immune response", "Older adults were randomly allocated to everolimus or placebo for six weeks."],
    ["Spermidine and memory", "Participants were randomly divided into two groups of 50."],
  ])("a randomized trial, however spelt: %s", (title, abstract) => {
    expect(typeOf(title, abstract)).toBe("randomized_controlled_trial");
  });

  it.each([
    ["Nicotinamide riboside and walking speed in older adults: a 12-week trial", "In this double-blind trial, 88 older adults received nicotinamide riboside or placebo for twelve weeks."],
    ["Resveratrol and blood pressure", "Thirty adults received resveratrol and thirty a placebo; blood pressure fell in both."],
    ["Light therapy and sleep in dementia", "Residents received light therapy or a sham device for four weeks."],
    ["Fisetin and physical function: a crossover trial", "Ten older women received fisetin and a matching capsule in random order."],
  ])("a trial with a control group: %s", (title, abstract) => {
    expect(typeOf(title, abstract)).toBe("controlled_trial");
  });

  it.each([
    ["Dasatinib plus quercetin in diabetic kidney disease: a trial", "Nine patients took dasatinib plus quercetin for three days; senescent cells in adipose tissue fell."],
    ["Metformin in older adults with prediabetes: a phase 3 trial", "We report the primary outcome of the trial in 3,000 adults."],
    ["Rapamycin and oral health: a phase III study", "Adults aged 60 and over took rapamycin weekly."],
  ])("a trial that names no control: %s", (title, abstract) => {
    expect(typeOf(title, abstract)).toBe("single_arm_trial");
  });

  it.each([
    ["Lifespan of aged mice given acarbose", "Acarbose was given to aged mice from twenty months of age; male mice lived longer."],
    ["Senolytics in knockout mice", "Senescent cells were cleared in p16 knockout mice, which lived longer."],
    ["Fibroblast senescence", "Human fibroblasts in culture were exposed to hydrogen peroxide."],
  ])("an animal or cell study: %s", (title, abstract) => {
    expect(typeOf(title, abstract)).toBe("preclinical");
  });

  it("says which words it read the design from, and where", () => {
    expect(classifyEvidence(bare("Exercise and cognition", "Participants were randomised to aerobic exercise or stretching.")).reason).toBe("the abstract says “randomised”");
    expect(classifyEvidence(bare("Coffee and frailty: a nested case–control study", "Coffee drinkers were frailer.")).reason).toBe("the title says “case-control”");
  });

  it("is still “not stated” when nothing names a design", () => {
    expect(typeOf("Metformin and ageing", "Metformin is discussed as a candidate drug against ageing.")).toBe("unknown");
  });

  it("reads what kind of trial a PubMed “Clinical Trial” is from its own words: a randomised one is a randomized trial", () => {
    const record = bare("Exercise and cognition", "Participants were randomised to aerobic exercise or stretching for a year.", { publicationTypes: ["Journal Article", "Clinical Trial"] });
    expect(classifyEvidence(record).type).toBe("randomized_controlled_trial");
    // Without such words it stays a trial that names no control.
    expect(classifyEvidence({ ...record, abstract: "Adults took the drug for a year." }).type).toBe("single_arm_trial");
  });

  it("names a registered interventional trial of several arms a controlled trial, and any other registered trial one that names no control", () => {
    const registered = (design: Partial<NonNullable<LiteratureRecord["trial"]>>) => classifyEvidence(bare("A study of a drug", "", { trial: buildTrialDesign(design) })).type;
    expect(registered({ allocation: "NA", interventionModel: "PARALLEL" })).toBe("controlled_trial");
    expect(registered({ interventionModel: "CROSSOVER" })).toBe("controlled_trial");
    expect(registered({ masking: "DOUBLE" })).toBe("controlled_trial");
    expect(registered({})).toBe("single_arm_trial");
  });
});
