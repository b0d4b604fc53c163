import type { LiteratureRecord } from "@/agent/literature/record";

/** Test data builder: a complete literature record, with overrides. */
export function buildRecord(overrides: Partial<LiteratureRecord> = {}): LiteratureRecord {
  return {
    ids: { pmid: "19587680", doi: "10.1038/nature08221" },
    title: "Rapamycin fed late in life extends lifespan in genetically heterogeneous mice",
    abstract:
      "Inhibition of the TOR signalling pathway by genetic or pharmacological intervention extends lifespan in invertebrates. " +
      "Here we report that rapamycin, an inhibitor of the mTOR pathway, extends median and maximal lifespan of both male and female mice when fed beginning at 600 days of age. " +
      "Rapamycin may extend lifespan by postponing death from cancer, by retarding mechanisms of ageing, or both.",
    journal: "Nature",
    year: 2009,
    date: "2009-07-16",
    authors: ["Harrison DE"],
    publicationTypes: ["Journal Article"],
    mesh: ["Animals", "Mice", "Longevity", "Sirolimus"],
    source: "pubmed",
    sources: ["pubmed"],
    url: "https://pubmed.ncbi.nlm.nih.gov/19587680/",
    isPreprint: false,
    isRetracted: false,
    ...overrides,
  };
}

/** Test data builder: a ClinicalTrials.gov record's design, every field unknown unless given. */
export function buildTrialDesign(design: Partial<NonNullable<LiteratureRecord["trial"]>> = {}): NonNullable<LiteratureRecord["trial"]> {
  return {
    studyType: "INTERVENTIONAL",
    phases: [],
    allocation: null,
    interventionModel: null,
    primaryPurpose: null,
    masking: null,
    hasResults: null,
    overallStatus: null,
    enrollment: null,
    conditions: [],
    interventions: [],
    ...design,
  };
}
