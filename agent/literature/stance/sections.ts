/**
 * A structured abstract's sections and what each is for. PubMed's client renders a labelled
 * section as "LABEL: text" (sources/pubmed-xml.ts); other sources write the label without a colon
 * ("CONCLUSIONS Metformin …"). The conclusion is the authors' own answer; aims, background and
 * methods never state a finding (issue 25, item 4).
 */

export type SectionRole = "background" | "aim" | "methods" | "results" | "conclusion" | "other";
export type Section = { role: SectionRole; label: string | null; text: string };

/** Read in this order: "MEASUREMENTS AND MAIN RESULTS" is results, "CONCLUSIONS AND RELEVANCE" a conclusion. */
const ROLES: [RegExp, SectionRole][] = [
  [/CONCLU|INTERPRETATION|IMPLICATION|DISCUSSION|COMMENT|SIGNIFICANCE|MESSAGE|LESSON|PERSPECTIVE/, "conclusion"],
  [/RESULT|FINDING|OBSERVATION|DATA SYNTHESIS|EXPERIENCE/, "results"],
  [/OBJECT|AIM|PURPOSE|GOAL|HYPOTHES|QUESTION/, "aim"],
  [/BACKGROUND|INTRODUCTION|CONTEXT|RATIONALE|IMPORTANCE|PROBLEM/, "background"],
  [/METHOD|DESIGN|SETTING|PATIENT|PARTICIPANT|SUBJECT|POPULATION|INTERVENTION|MEASURE|MATERIAL|PROCEDURE|DATA|STUDY|SAMPLE|ANALYS|TECHNIQUE|CASE|PROTOCOL|LOCATION|END ?POINT|OUTCOME|REGISTRATION|PROBAND/, "methods"],
];

/** "LABEL: " as PubMed renders it: capitals (and "and", commas, slashes), then a colon. */
const COLON_LABEL = /(?:^|(?<=[.!?;)\]]\s*|\n\s*))([A-Z][A-Z]+(?:[ ,/&-]+(?:[A-Z]{2,}|and|of|the|AND|OF|THE))*)\s*:\s*(?=\S)/g;
/** A known label without a colon, in capitals, at the start of the text or of a sentence. */
const BARE_LABEL =
  /(?:^|(?<=[.!?)\]]\s+|\n\s*))((?:BACKGROUND|INTRODUCTION|OBJECTIVES?|AIMS?|PURPOSE|METHODS?|METHODS AND FINDINGS|DESIGN|SETTING|PARTICIPANTS|RESULTS?|FINDINGS|CONCLUSIONS?|CONCLUSIONS AND RELEVANCE|INTERPRETATION|SIGNIFICANCE|IMPLICATIONS)(?: AND [A-Z]+)?)\s+(?=[A-Z0-9(])/g;

/** The role of a section label, or null when the words are not a label (an acronym that ends a sentence). */
export function roleOfLabel(label: string): SectionRole {
  const upper = label.toUpperCase();
  return ROLES.find(([re]) => re.test(upper))?.[1] ?? "other";
}

/** The sections of an abstract, in order; an unlabelled abstract is one section of role `other`. */
export function sectionsOf(text: string): Section[] {
  const marks: { at: number; end: number; label: string }[] = [];
  for (const re of [COLON_LABEL, BARE_LABEL]) {
    for (const m of text.matchAll(re)) {
      const label = m[1]!.trim();
      if (label === "UNLABELLED" || roleOfLabel(label) !== "other" || re === COLON_LABEL) marks.push({ at: m.index!, end: m.index! + m[0].length, label });
    }
  }
  marks.sort((a, b) => a.at - b.at);
  const kept = marks.filter((m, i) => i === 0 || m.at >= marks[i - 1]!.end);
  if (kept.length === 0) return [{ role: "other", label: null, text: text.trim() }];
  const sections: Section[] = [];
  const lead = text.slice(0, kept[0]!.at).trim();
  if (lead) sections.push({ role: "other", label: null, text: lead });
  kept.forEach((m, i) => {
    const body = text.slice(m.end, kept[i + 1]?.at ?? text.length).trim();
    if (body) sections.push({ role: m.label === "UNLABELLED" ? "other" : roleOfLabel(m.label), label: m.label, text: body });
  });
  return sections;
}

/** Sections that never state a finding. */
export const NOT_FINDINGS: ReadonlySet<SectionRole> = new Set(["background", "aim", "methods"]);
