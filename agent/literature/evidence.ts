import type { EvidenceType } from "@/lib/shared/contracts";
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
    if (trial.studyType?.toUpperCase() === "INTERVENTIONAL") {
      // Several arms, or a double-blind one, compare against something; allocation unstated is not "randomized".
      if (MULTI_ARM_MODELS.has(trial.interventionModel?.toUpperCase() ?? "")) return { type: "controlled_trial", reason: `registered ${trial.interventionModel!.toLowerCase()} trial without stated randomization` };
      if (BLINDED.has(trial.masking?.toUpperCase() ?? "")) return { type: "controlled_trial", reason: "registered blinded trial without stated randomization" };
      return { type: "single_arm_trial", reason: "registered interventional trial that names no control group" };
    }
  }

  const types = record.publicationTypes.map((t) => t.toLowerCase());
  const has = (name: string) => types.some((t) => t === name);
  const hasPrefix = (prefix: string) => types.some((t) => t.startsWith(prefix));
  // A notice about another article (its correction, retraction or an expression of concern) reports
  // nothing of its own, whatever trial it names: before the article's own design types.
  if (has("published erratum") || has("retraction of publication") || has("expression of concern") || NOTICE_TITLE.test(record.title)) {
    return { type: "commentary", reason: "a notice about another article (a correction, retraction or expression of concern)" };
  }
  if (has("randomized controlled trial")) return { type: "randomized_controlled_trial", reason: "publication type Randomized Controlled Trial" };
  if (has("controlled clinical trial") || has("pragmatic clinical trial")) return { type: "controlled_trial", reason: "publication type controlled clinical trial" };
  if (has("clinical trial") || hasPrefix("clinical trial, phase")) {
    // PubMed's generic type says a trial, not which: its own words may say randomized or controlled.
    const words = designInWords(record);
    if (words && (words.type === "randomized_controlled_trial" || words.type === "controlled_trial")) return words;
    return { type: "single_arm_trial", reason: "publication type Clinical Trial, naming no control group" };
  }
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
 * The design as the record itself names it, in its title or abstract, when no publication type or
 * MeSH heading did (many records carry none: a local library's, a Europe PMC preprint's, a PubMed
 * record not yet indexed): "we randomly assigned", "two cohorts followed for nine years", "a
 * nested case–control analysis", "a double-blind trial". The strongest design named wins, except
 * that a design named as what others did ("previous randomized trials") is read no differently:
 * the abstract's own methods usually name its design first, and a review names the trials it pools.
 * A bare "trial" is weaker than any observational word: "data from the XYZ trial" is a cohort.
 */
function designInWords(record: LiteratureRecord): { type: EvidenceType; reason: string } | null {
  // Typographic hyphens and dashes ("case–control", "cross‐sectional") read as the ASCII hyphen.
  const plain = (text: string) => text.replace(/[\u2010-\u2015\u2212]/g, "-").replace(/\s+/g, " ");
  const title = record.titleDerived ? "" : plain(record.title);
  const text = `${title} ${plain(record.abstract ?? "")}`;
  for (const [re, type] of DESIGN_WORDS) {
    const found = re.exec(text);
    if (found) return { type, reason: `the ${found.index < title.length ? "title" : "abstract"} says “${found[0].toLowerCase()}”` };
  }
  return null;
}

/** A registered trial's intervention models with more than one arm (ClinicalTrials.gov). */
const MULTI_ARM_MODELS = new Set(["PARALLEL", "CROSSOVER", "FACTORIAL"]);
/** Masking that hides the arm from participants and investigators: there is an arm to hide. */
const BLINDED = new Set(["DOUBLE", "TRIPLE", "QUADRUPLE"]);

/**
 * Design words in the order they decide: pooled evidence; genetic and emulated-trial designs,
 * which borrow trial words but observe; randomized, then controlled (a placebo, a sham, blinding,
 * a crossover), then uncontrolled trials; observational words; a bare "trial"; animal or cell work.
 */
const DESIGN_WORDS: [RegExp, EvidenceType][] = [
  [/\b(meta-?analys[ie]s|systematic(ally)? review(ed)?|pooled analysis of (\w+ ){0,3}(trials|studies))\b/i, "systematic_review"],
  [/\b(mendelian randomi[sz]ation|target trial|trial emulation|emulat(e|ed|ing) (a |the )?(target )?trial)\b/i, "observational"],
  [/\b(non-?randomi[sz]ed|not randomi[sz]ed|quasi-?(experimental|randomi[sz]ed))\b/i, "controlled_trial"],
  [/\b(randomi[sz]ed|randomi[sz]ation|randomly (assigned|allocated|divided))\b/i, "randomized_controlled_trial"],
  [/\b(controlled (clinical )?trial|placebo(-controlled)?|sham|(double|triple)-?blind(ed)?|cross-?over (trial|study|design))\b/i, "controlled_trial"],
  [/\b(single-?arm|uncontrolled (trial|study)|open-label (pilot )?(trial|study)|phase (i|ii|iii|iv|1|2|3|4)[ab]?(\/(ii|iii|2|3))? (trial|study))\b/i, "single_arm_trial"],
  [
    /\b(cohorts?|case-?controls?|cross-?sectional|retrospective(ly)?|prospective(ly)?|population-based|nationwide|registry|registries|registers?|register-based|biobank|longitudinal (study|survey|data|analysis)|follow-up study|followed\b[^.]{0,80}?\b(years|months|decades)|surveys?|questionnaires?|case series|chart review|observational)\b/i,
    "observational",
  ],
  [/\b(trial|pilot study)\b/i, "single_arm_trial"],
  [
    /\b(in (aged |old |young |male |female )?(mice|rats)|(mice|rats) were|(knockout|transgenic|aged|old|mutant|wild-type) (mice|rats)|murine model|mouse model|rat model|in vitro|in culture|cell lines?|cultured cells)\b/i,
    "preclinical",
  ],
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

/** "Correction to: …", "Erratum: …", "Retraction: …", "Notice of retraction", "Expression of concern: …". */
const NOTICE_TITLE = /^\s*(?:correction(?: to)?|corrigendum|erratum|retraction(?: note| notice)?|notice of retraction|retracted|expression of concern)\b\s*[:.-]/i;

/**
 * A case report or case series: patients described without a comparison (PubMed's Case Reports,
 * or the title says so, or the abstract calls itself one: "This case report presents …", "We
 * report a 2-year-old boy …").
 */
export function isCaseReport(record: Pick<LiteratureRecord, "title" | "publicationTypes"> & Partial<Pick<LiteratureRecord, "abstract">>): boolean {
  return record.publicationTypes.some((t) => t.toLowerCase() === "case reports") || /\b(a case report|case series|a case of|report of (a|two|three) cases?)\b/i.test(record.title) || CASE_REPORT_SAYS.test(record.abstract ?? "");
}
const CASE_REPORT_SAYS =
  /\b(?:this|the present|our) case (?:report|series)\b|\bwe (?:report|describe|present) (?:a|an|one|two|three|the case of an?) (?:\d+[- ](?:year|month|week)[- ]old )?(?:case|patient|child|boy|girl|man|woman|infant|toddler|neonate)s?\b/i;

/**
 * A cross-sectional study: what it relates was measured at one time, so it cannot show which came
 * first. Not one that also followed people over time ("A prospective study … was established by
 * re-examinations"): its longitudinal part can.
 */
export function isCrossSectional(record: Pick<LiteratureRecord, "title" | "mesh" | "abstract">): boolean {
  const text = `${record.title} ${record.abstract ?? ""}`;
  const crossSectional = record.mesh.some((m) => m.toLowerCase() === "cross-sectional studies") || /\bcross-?sectional (study|survey|analysis|design)\b/i.test(text);
  return crossSectional && !record.mesh.some((m) => LONGITUDINAL_HEADINGS.has(m.toLowerCase())) && !LONGITUDINAL.test(text);
}
const LONGITUDINAL_HEADINGS = new Set(["prospective studies", "longitudinal studies", "follow-up studies"]);
const LONGITUDINAL = /\b(?:prospective(?:ly)?\s+(?:study|studies|analysis|cohort|follow\w*)|longitudinal\s+(?:study|analysis|data|follow\w*)|followed\s+(?:up\s+)?for\s+(?:a\s+)?(?:median\s+|mean\s+|average\s+)?(?:of\s+)?\d|re-?examin\w*)/i;

/**
 * How long a study's longest stated treatment or follow-up lasted, in weeks ("for 16 weeks",
 * "a 12-week trial", "followed for a median of 4.9 years"); null when it states none. Ages
 * ("aged 71 to 80 years") are not durations.
 */
export function studyWeeks(record: Pick<LiteratureRecord, "title" | "abstract">): number | null {
  const text = `${record.title} ${record.abstract ?? ""}`;
  const weeks: number[] = [];
  const unit = { day: 1 / 7, days: 1 / 7, week: 1, weeks: 1, month: 4.35, months: 4.35, year: 52, years: 52 } as const;
  for (const m of text.matchAll(DURATION)) {
    const n = Number(m[1] ?? m[3]);
    const u = (m[2] ?? m[4])!.toLowerCase() as keyof typeof unit;
    if (Number.isFinite(n)) weeks.push(n * unit[u]);
  }
  return weeks.length > 0 ? Math.max(...weeks) : null;
}
const DURATION =
  /\b(?:for|over|during|after|median of|mean of|up to|lasting)\s+(?:a\s+(?:median|mean)\s+of\s+)?(\d+(?:\.\d+)?)\s+(days?|weeks?|months?|years?)\b|\b(\d+(?:\.\d+)?)-(day|week|month|year)\b/gi;