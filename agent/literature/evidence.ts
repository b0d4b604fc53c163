import type { EvidenceType } from "@/lib/contracts";
import type { LiteratureRecord } from "./record";

/**
 * The evidence type of a record, first matching rule wins (../shared/notes/literature-sources.md):
 * a ClinicalTrials.gov record by its design; else PubMed/Europe PMC publication types; else MeSH
 * "Animals" without "Humans", or in-vitro/cell-line work, is preclinical; else unknown.
 */
export function classifyEvidence(record: LiteratureRecord): { type: EvidenceType; reason: string } {
  const trial = record.trial;
  if (trial) {
    const allocation = trial.allocation?.toUpperCase() ?? "";
    if (allocation === "RANDOMIZED") return { type: "randomized_controlled_trial", reason: "registered trial with randomized allocation" };
    if (allocation === "NON_RANDOMIZED") return { type: "controlled_trial", reason: "registered trial with non-randomized allocation" };
    if (trial.interventionModel?.toUpperCase() === "SINGLE_GROUP") return { type: "single_arm_trial", reason: "registered single-group trial" };
    if (trial.studyType?.toUpperCase() === "OBSERVATIONAL") return { type: "observational", reason: "registered observational study" };
  }

  const types = record.publicationTypes.map((t) => t.toLowerCase());
  const has = (name: string) => types.some((t) => t === name);
  const hasPrefix = (prefix: string) => types.some((t) => t.startsWith(prefix));
  if (has("randomized controlled trial")) return { type: "randomized_controlled_trial", reason: "publication type Randomized Controlled Trial" };
  if (has("controlled clinical trial") || has("pragmatic clinical trial")) return { type: "controlled_trial", reason: "publication type controlled clinical trial" };
  if (has("clinical trial") || hasPrefix("clinical trial, phase")) return { type: "single_arm_trial", reason: "publication type Clinical Trial without a control" };
  if (has("systematic review") || has("meta-analysis")) return { type: "systematic_review", reason: "publication type Systematic Review or Meta-Analysis" };
  if (has("review")) return { type: "narrative_review", reason: "publication type Review" };
  const mesh = record.mesh.map((m) => m.toLowerCase());
  if (
    has("observational study") ||
    has("case reports") ||
    has("comparative study") ||
    mesh.some((m) => m.includes("cohort studies") || m.includes("case-control studies") || m.includes("cross-sectional studies"))
  ) {
    return { type: "observational", reason: "observational design (publication type or MeSH)" };
  }
  if (has("comment") || has("editorial") || has("letter")) return { type: "commentary", reason: "publication type Comment, Editorial or Letter" };
  if ((mesh.includes("animals") && !mesh.includes("humans")) || mesh.some((m) => m.includes("in vitro") || m.includes("cell line"))) {
    return { type: "preclinical", reason: "animal or in-vitro work (MeSH)" };
  }
  return designInWords(record) ?? { type: "unknown", reason: "no publication type, design word or registry design that classifies it" };
}

/**
 * The design as the abstract itself names it, when no publication type or MeSH heading did (many
 * records carry none: a local library's, a Europe PMC preprint's): "we randomly assigned", "a
 * retrospective cohort", "a meta-analysis of …". The strongest design named wins, except that a
 * design named as what others did ("previous randomized trials") is read no differently: the
 * abstract's own methods usually name its design first, and a review names the trials it pools.
 */
function designInWords(record: LiteratureRecord): { type: EvidenceType; reason: string } | null {
  const text = `${record.titleDerived ? "" : record.title} ${record.abstract ?? ""}`.replace(/\s+/g, " ");
  const found = DESIGN_WORDS.find(([re]) => re.test(text));
  if (!found) return null;
  const [re, type] = found;
  return { type, reason: `the abstract says “${re.exec(text)![0].toLowerCase()}”` };
}

/** Design words in the order they decide: pooled evidence, then randomized, controlled, uncontrolled, observational, animal or cell work. */
const DESIGN_WORDS: [RegExp, EvidenceType][] = [
  [/\b(meta-?analys[ie]s|systematic(ally)? review(ed)?|pooled analysis of (\w+ ){0,3}(trials|studies))\b/i, "systematic_review"],
  [/\b(non-?randomi[sz]ed|not randomi[sz]ed|quasi-?(experimental|randomi[sz]ed))\b/i, "controlled_trial"],
  [/\b(randomi[sz]ed|randomly (assigned|allocated))\b/i, "randomized_controlled_trial"],
  [/\b(controlled (clinical )?trial|placebo-controlled)\b/i, "controlled_trial"],
  [/\b(single-?arm|uncontrolled (trial|study)|open-label (pilot )?(trial|study)|phase (i|ii|1|2)\b (trial|study))\b/i, "single_arm_trial"],
  [
    /\b(cohort|case-?control|cross-?sectional|retrospective(ly)?|prospective(ly)?|population-based|registry|longitudinal (study|survey|data)|surveys?|questionnaires?|case series|chart review|observational)\b/i,
    "observational",
  ],
  [/\b(in (mice|rats)|mice were|rats were|murine model|mouse model|rat model|in vitro|cell lines?|cultured cells)\b/i, "preclinical"],
];

/** A title that presents a study's plan rather than its results. */
const PROTOCOL_TITLE = /\b(study protocol|trial protocol|protocol (for|of) an?\b|rationale and design|design and rationale|rationale, design|design and methods of)\b/i;

/**
 * A study's protocol or design paper: what a trial will do, with no results yet (PubMed's
 * publication type "Clinical Trial Protocol", or a title that presents a protocol or a trial's
 * rationale and design). It tests nothing yet, so it is never evidence (roles.ts).
 */
export function isStudyProtocol(record: Pick<LiteratureRecord, "publicationTypes" | "title">): boolean {
  if (record.publicationTypes.some((t) => t.toLowerCase() === "clinical trial protocol")) return true;
  return PROTOCOL_TITLE.test(record.title ?? "");
}
