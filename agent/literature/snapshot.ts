import type { EvidenceType, OutcomeDirection, StudySnapshot, StudySpecies } from "@/lib/shared/contracts";
import { splitSentences } from "./sentences";
import { clauses, isFindingSentence, readFinding, type FindingReading } from "./findings";
import { NOT_FINDINGS, sectionsOf } from "./stance/sections";
import type { LiteratureRecord } from "./record";

/**
 * A study at a glance, read from its record without a model: the design (the evidence type), the
 * species and population, the sample size, the intervention or exposure, and the direction of its
 * main finding. Regular expressions over the title and the abstract's sentences, MeSH and the trial
 * registry's fields; every field is null (or `unclear`) when nothing says, never a guess.
 */

export type SnapshotSource = Pick<LiteratureRecord, "title" | "abstract" | "mesh" | "publicationTypes"> &
  Partial<Pick<LiteratureRecord, "trial" | "titleDerived">>;

export function extractSnapshot(record: SnapshotSource, design: EvidenceType): StudySnapshot {
  const abstract = record.abstract ?? "";
  // Background, aims and methods never state the finding; a conclusion section does first.
  const sections = sectionsOf(abstract).filter((section) => !NOT_FINDINGS.has(section.role));
  const sentences = sections.flatMap((section) => splitSentences(section.text).map((text) => ({ text, conclusion: section.role === "conclusion" })));
  const title = record.titleDerived ? "" : record.title;
  const species = speciesOf(record, design);
  const counted = countedPopulation(abstract);
  const enrollment = record.trial?.enrollment && record.trial.enrollment > 0 ? record.trial.enrollment : null;
  const { direction, finding } = mainFinding(sentences);
  return {
    design,
    species,
    population: counted?.population ?? populationFromTitle(title) ?? populationFromMesh(record.mesh, species),
    sampleSize: counted?.n ?? enrollment ?? nEquals(abstract),
    intervention: tidy(interventionOf(record, title, abstract), abstract),
    direction,
    finding,
  };
}

// ---------------------------------------------------------------------------------------------
// Species

const MESH_SPECIES: [RegExp, StudySpecies][] = [
  [/^mice\b|^mus\b|^mice,/i, "mouse"],
  [/^rats\b|^rats,/i, "rat"],
  [/^(macaca|primates|callithrix|haplorhini|pan troglodytes|chlorocebus|papio)/i, "nonhuman_primate"],
  [/^dogs$/i, "dog"],
  [/^(zebrafish|fishes|oryzias|cyprinodontiformes|killifishes)/i, "fish"],
  [/^drosophila/i, "fly"],
  [/^(caenorhabditis|nematoda)/i, "worm"],
  [/^(saccharomyces|yeasts|schizosaccharomyces)/i, "yeast"],
  [/^(swine|sheep|cattle|rabbits|cats|horses|guinea pigs|cricetinae|mesocricetus|heterocephalus)/i, "other_mammal"],
];
const MESH_CELLS = /^(cells, cultured|cell line|in vitro techniques|cell culture techniques|organoids)/i;

const TEXT_SPECIES: [RegExp, StudySpecies][] = [
  [/\b(mice|mouse|murine)\b/i, "mouse"],
  [/\b(rats?)\b/i, "rat"],
  [/\b(monkeys?|macaques?|primates?|marmosets?)\b/i, "nonhuman_primate"],
  [/\b(dogs?|canine)\b/i, "dog"],
  [/\b(zebrafish|killifish)\b/i, "fish"],
  [/\b(drosophila|fruit fl(y|ies))\b/i, "fly"],
  [/\b(c\. elegans|caenorhabditis|nematodes?|worms)\b/i, "worm"],
  [/\b(yeast|saccharomyces)\b/i, "yeast"],
];
const TEXT_HUMAN =
  /\b(patients?|participants?|adults?|women|men|children|adolescents|infants|volunteers?|subjects|individuals|people|persons|residents|veterans|twins|centenarians|humans?|cohorts?|smokers|survivors)\b/i;
const TEXT_CELLS = /\b(cell lines?|cultured|in vitro|fibroblasts|hepatocytes|cardiomyocytes|organoids|stem cells)\b/i;

function speciesOf(record: SnapshotSource, design: EvidenceType): StudySpecies | null {
  const mesh = record.mesh;
  const animal = mesh.map((m) => MESH_SPECIES.find(([re]) => re.test(m))?.[1]).find((s) => s !== undefined);
  const humans = mesh.some((m) => /^humans$/i.test(m));
  const cells = mesh.some((m) => MESH_CELLS.test(m));
  if (mesh.length > 0 && (animal || humans || cells)) {
    if (design === "preclinical" || !humans) return animal ?? (cells ? "cells" : humans ? "human" : null);
    return cells && !TEXT_HUMAN.test(record.abstract ?? "") ? "cells" : "human";
  }
  const text = `${record.title} ${record.abstract ?? ""}`;
  const animalInText = TEXT_SPECIES.find(([re]) => re.test(text))?.[1];
  const humanInText = TEXT_HUMAN.test(text);
  if (record.trial) return "human";
  if (animalInText && (!humanInText || design === "preclinical" || TEXT_SPECIES.some(([re]) => re.test(record.title)))) return animalInText;
  if (TEXT_CELLS.test(text) && (design === "preclinical" || !humanInText)) return "cells";
  if (humanInText) return "human";
  return null;
}

// ---------------------------------------------------------------------------------------------
// Population and sample size

const UNITS: Record<string, number> = {
  zero: 0, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10, eleven: 11, twelve: 12,
  thirteen: 13, fourteen: 14, fifteen: 15, sixteen: 16, seventeen: 17, eighteen: 18, nineteen: 19,
};
const TENS: Record<string, number> = { twenty: 20, thirty: 30, forty: 40, fifty: 50, sixty: 60, seventy: 70, eighty: 80, ninety: 90 };
const NUMBER_WORD = `(?:${[...Object.keys(UNITS), ...Object.keys(TENS), "hundred", "thousand"].join("|")})`;
const NUMBER = `(\\d{1,3}(?:,\\d{3})+|\\d+|${NUMBER_WORD}(?:(?:[- ]|\\s+and\\s+)${NUMBER_WORD})*)`;
const PEOPLE =
  "adults|patients|participants|subjects|individuals|women|men|children|adolescents|infants|volunteers|persons|people|residents|veterans|twins|centenarians|users|survivors|smokers|employees|workers|students|nurses|physicians|athletes|outpatients|inpatients|members|respondents|donors|recipients|mothers|newborns|neonates|pregnant women|elderly|mice|rats|animals|monkeys|macaques|dogs|pigs|rabbits|cases|eyes|couples|families|households|pairs";
const NOT_MODIFIER = "(?!(?:were|was|and|or|in|from|to|with|who|had|of|the|for|at|on|by|than|per|each|all|these|those|our)\\b)";
const COUNTED = new RegExp(
  `(?<![\\d.,/A-Za-z-])\\b${NUMBER}\\s+((?:${NOT_MODIFIER}[A-Za-z][A-Za-z'-]*\\s+){0,4}?(?:${PEOPLE}))\\b((?:\\s+(?:with|who had|undergoing|receiving|on)\\s+(?!(?:a|an|the|mean|median|average|ages?|aged)\\b)(?:(?!(?:who|were|was|and|in|from|aged|for|at|during|between|to|whose|recruited|enrolled|randomi[sz]ed)\\b)[A-Za-z0-9'-]+\\s*){1,6})?)`,
  "gi",
);

/** "fourteen" → 14, "one thousand ninety-nine" → 1099, "2,400" → 2400. */
export function parseCount(text: string): number | null {
  const digits = text.replace(/,/g, "");
  if (/^\d+$/.test(digits)) return Number(digits);
  let total = 0;
  let current = 0;
  for (const word of text.toLowerCase().split(/[\s-]+/)) {
    if (word === "and") continue;
    if (word in UNITS) current += UNITS[word]!;
    else if (word in TENS) current += TENS[word]!;
    else if (word === "hundred") current = (current || 1) * 100;
    else if (word === "thousand") {
      total += (current || 1) * 1000;
      current = 0;
    } else return null;
  }
  return total + current || null;
}

function countedPopulation(abstract: string): { n: number; population: string } | null {
  for (const match of abstract.matchAll(COUNTED)) {
    const before = abstract.slice(Math.max(0, match.index - 12), match.index);
    if (/\b(aged|age|of|than|over|under|to|from|and)\s*$|[<>≥≤=]\s*$/i.test(before) && !/\b(of|total of)\s*$/i.test(before.replace(/aged.*/i, ""))) continue;
    const n = parseCount(match[1]!);
    if (!n || n < 2) continue;
    const population = `${match[2]!.trim()}${match[3] ? ` ${match[3].trim()}` : ""}`.replace(/\s+/g, " ").replace(/[.,;:]+$/, "");
    if (/^(cases|eyes|pairs|couples|families|households)$/i.test(population)) return { n, population };
    return { n, population: lowerFirst(population, abstract) };
  }
  return null;
}

function nEquals(abstract: string): number | null {
  const match = /\b[nN]\s*=\s*(\d{1,3}(?:,\d{3})+|\d+)/.exec(abstract);
  const n = match ? Number(match[1]!.replace(/,/g, "")) : null;
  return n && n > 1 ? n : null;
}

const POPULATION_NOUN = new RegExp(`\\b(${PEOPLE}|population|cohort)\\b`, "i");

function populationFromTitle(title: string): string | null {
  const match = /\b(?:in|among|of)\s+((?:[A-Za-z0-9'-]+\s+){0,5}?(?:[A-Za-z'-]+))\s*(?::|\?|\.|$|,)/i.exec(title);
  if (!match || !POPULATION_NOUN.test(match[1]!)) return null;
  return lowerFirst(match[1]!.trim(), title);
}

const SPECIES_PLURAL: Record<StudySpecies, string | null> = {
  human: null,
  mouse: "mice",
  rat: "rats",
  nonhuman_primate: "monkeys",
  dog: "dogs",
  other_mammal: null,
  fish: "fish",
  fly: "flies",
  worm: "worms",
  yeast: "yeast",
  cells: "cells",
};

function populationFromMesh(mesh: string[], species: StudySpecies | null): string | null {
  const lower = mesh.map((m) => m.toLowerCase());
  if (species === "human" || (species === null && lower.includes("humans"))) {
    if (lower.includes("aged, 80 and over")) return "adults aged 80 and over";
    if (lower.includes("aged")) return "older adults";
    if (lower.includes("middle aged")) return "middle-aged adults";
    if (lower.includes("child") || lower.includes("child, preschool")) return "children";
    if (lower.includes("infant")) return "infants";
    return null;
  }
  return species ? SPECIES_PLURAL[species] : null;
}

// ---------------------------------------------------------------------------------------------
// Intervention or exposure

const VERBS =
  "extends?|extended|reduces?|reduced|improves?|improved|increases?|increased|decreases?|decreased|delays?|delayed|prevents?|prevented|protects?|protected|attenuates?|attenuated|lowers?|lowered|shortens?|shortened|promotes?|promoted|induces?|induced|enhances?|enhanced|inhibits?|inhibited|ameliorates?|rescues?|restores?|slows?|does not|did not|do not|fails? to|is associated|was associated|are associated|were associated|predicts?|predicted|affects?|modulates?|alters?|blunts?|blunted|impairs?|impaired|worsens?|worsened|causes?|caused|counteracts?|counteracted|accelerates?|accelerated|raises?|raised|halves?|halved|doubles?|doubled|abolishes?|abolished|suppresses?|suppressed|boosts?|boosted|triggers?|triggered";
const DESIGN_WORDS = /^(a |an |the )?(randomi[sz]ed|systematic|meta-analy|cohort|prospective|retrospective|study|trial|review|analysis|comparison|evaluation|assessment|association|relationship|effects?|impact|role|use|outcomes?|prevalence|incidence|risk|factors?|predictors?|determinants?|long-term|short-term|clinical|update|new|novel|case)\b/i;

function interventionOf(record: SnapshotSource, title: string, abstract: string): string | null {
  const registered = record.trial?.interventions.filter(Boolean) ?? [];
  if (registered.length > 0) return registered.slice(0, 2).join(" and ");
  const fromTitle = wholePhrase(titleSubject(title.replace(/\s*\[[^\]]*\]\s*/g, " ").trim()));
  if (fromTitle) return fromTitle;
  const match =
    /\beffects? of\s+([A-Za-z0-9+/-]+(?:\s+[A-Za-z0-9+/-]+){0,3}?)\s+on\b/i.exec(abstract) ??
    /\b(?:randomi[sz]ed to (?:receive )?|treated with|treatment with|supplementation with|administration of)\s+((?:(?:intermittent|daily|oral|intravenous|low-dose|high-dose|weekly|either)\s+)?[A-Za-z0-9+/-]+(?:\s+(?!(?:for|in|on|or|versus|vs|compared|at|during|to|was|were|and|with|from|by|as|after|before|over|daily|per|the|a|an)\b)[A-Za-z0-9+/-]+){0,3}(?:\s+plus\s+[A-Za-z0-9-]+)?)/i.exec(
      abstract,
    );
  // Cut by the word limit ("maximal feasible dosages of", "increasing amounts of vitamin"): better none.
  if (match && !PHRASE_END.test(abstract.slice(match.index + match[0].length))) return null;
  const candidate = wholePhrase(match?.[1]?.trim() ?? null);
  // Only a short noun phrase: not a clause ("to explore whether"), an adverb, or a comparison.
  if (!candidate || DESIGN_WORDS.test(candidate) || /^(placebo|the|a|an|to|\d)\b/i.test(candidate) || /\b(whether|compared|was|were|is|are)\b|ly$/i.test(candidate)) return null;
  if (/^(treatment|therapy|intervention|exposure|medication|drugs?)$/i.test(candidate)) return null;
  return candidate;
}

/** What may follow a whole intervention named in a sentence: punctuation, its end, or a word that starts what comes next. */
const PHRASE_END = /^\s*(?:[.,;:)]|$|(?:for|in|on|or|versus|vs|compared|at|during|to|was|were|is|are|and|with|from|by|as|after|before|over|daily|weekly|twice|once|per|the|a|an|until|alone|plus|had|has|have|showed|led|resulted|reduced|increased|improved|extended)\b)/i;

/** A phrase that ends on a function word, a dangling hyphen or an open bracket was cut mid-phrase. */
const CUT_END = /(?:\b(?:of|with|to|and|or|nor|the|a|an|in|for|on|by|at|from|as|than|per|plus|versus|vs|into|via|without|between|whose|that|which|its|their)|[-/+(,&])$/i;

/** The phrase when it is whole, else null: a study line never shows "maximal feasible dosages of". */
function wholePhrase(phrase: string | null): string | null {
  if (!phrase) return null;
  const trimmed = phrase.replace(/[.,;:]+$/, "").trim();
  if (CUT_END.test(trimmed)) return null;
  const opened = (trimmed.match(/[([]/g) ?? []).length;
  const closed = (trimmed.match(/[)\]]/g) ?? []).length;
  return opened === closed ? trimmed : null;
}

/** The intervention or exposure a title names: "Effects of X on Y", "X extends Y", "X and Y in Z", "X in Z". */
function titleSubject(title: string): string | null {
  if (!title) return null;
  const patterns = [
    /^(?:the\s+)?(?:effects?|impact|influence|efficacy|safety|benefits?|use)\s+of\s+(.+?)\s+(?:on|in|for|among|during|after|versus|vs\.?|compared|as)\b/i,
    /^(?:does|do|is|are|can|could|should|will)\s+(.+?)\s+(?:improve|reduce|increase|decrease|extend|prevent|delay|protect|affect|predict|lower|slow|be associated|associated|related)\b/i,
    new RegExp(`^(.+?)\\s+(?:${VERBS})\\b`, "i"),
    /^(.+?)\s+(?:and|versus|vs\.?)\s+.+?(?:\s+in\s+|\s+among\s+|:|$)/i,
    /^(.+?)\s+(?:in|for|among)\s+.+$/i,
  ];
  for (const re of patterns) {
    const match = re.exec(title);
    let subject = match?.[1]?.trim();
    if (!subject) continue;
    subject = subject.replace(/\s+(?:fed|given|administered|started|initiated|begun|taken|treatment|supplementation in|late in life|early in life)\b.*$/i, "").trim();
    subject = subject.replace(/^(?:a|an|the)\s+/i, "");
    if (subject.split(/\s+/).length > 6 || subject.length < 3 || DESIGN_WORDS.test(subject) || /[:?]/.test(subject)) continue;
    return subject;
  }
  return null;
}

function tidy(value: string | null, context: string): string | null {
  if (!value) return null;
  const cleaned = value.replace(/[.,;:]+$/, "").replace(/\s+/g, " ").trim();
  return cleaned ? lowerFirst(cleaned, context) : null;
}

/** Names and proper adjectives that keep their capital wherever they stand. */
const PROPER =
  /^(American|African|Asian|European|Chinese|Japanese|Korean|Indian|Swedish|Danish|Norwegian|Finnish|Icelandic|Dutch|German|French|Italian|Spanish|Portuguese|British|English|Scottish|Welsh|Irish|Australian|Canadian|Brazilian|Mexican|Israeli|Turkish|Iranian|Taiwanese|Thai|Mediterranean|Nordic|Scandinavian|Caucasian|Hispanic|Latino|Latina|Alzheimer|Parkinson|Huntington|Crohn|Cushing|Down|Medicare|Medicaid|Western|Eastern)('s)?$/;

/**
 * Lower-cases the first letter of a phrase taken from the start of a title or sentence, unless the
 * word is an acronym or a name: written capitalised elsewhere in the text too ("Mediterranean").
 */
export function lowerFirst(phrase: string, context: string): string {
  const first = /^[A-Za-z][A-Za-z0-9'-]*/.exec(phrase)?.[0];
  // The article "A" opening a quoted sentence after a comma is "a" ("In older adults, a minimal …").
  if (first === "A" && /^A\s/.test(phrase)) return `a${phrase.slice(1)}`;
  // Acronyms and mixed case ("NmU", "DNA", "mTOR") stay as written.
  if (!first || first.length < 2 || !/^[A-Z][a-z'-]*$/.test(first) || PROPER.test(first)) return phrase;
  const elsewhere = new RegExp(`[a-z,;(]\\s+${first}\\b`).test(context);
  return elsewhere ? phrase : first.toLowerCase() + phrase.slice(first.length);
}

// ---------------------------------------------------------------------------------------------
// The main finding and its direction

const CONCLUSION = /^(in conclusion|conclusions?|to conclude|we conclude|overall|taken together|in summary|these (results|findings|data)|our (results|findings|data)|this (study|trial|analysis) (shows|showed|demonstrates|demonstrated|found|suggests|indicates))\b/i;

/** How a reading counts toward a study's own direction: a harm from an intervention is negative. */
export function directionOf(reading: FindingReading): OutcomeDirection {
  if (reading.effect === "none") return "null";
  if (reading.effect === "unclear") return "unclear";
  return reading.valence === "harm" && !reading.association ? "negative" : "positive";
}

/**
 * The sentence stating a study's main finding, and the direction of its findings taken together: a
 * sentence of the conclusion section, or one that opens as a conclusion, is the main one.
 */
function mainFinding(sentences: { text: string; conclusion?: boolean }[]): { direction: OutcomeDirection; finding: string | null } {
  const candidates = sentences
    .map(({ text, conclusion }, i) => ({ text, i, conclusion: conclusion === true || CONCLUSION.test(text) }))
    .filter((s) => isFindingSentence(s.text))
    .map((s) => ({ ...s, directions: clauses(s.text).map((c) => directionOf(readFinding(c))).filter((d) => d !== "unclear") }))
    .filter((s) => s.directions.length > 0);
  if (candidates.length === 0) return { direction: "unclear", finding: null };
  const main = candidates.find((c) => c.conclusion) ?? candidates.at(-1)!;
  const tally: Record<OutcomeDirection, number> = { positive: 0, negative: 0, null: 0, mixed: 0, unclear: 0 };
  for (const c of candidates) for (const d of c.directions) tally[d] += (c === main ? 2 : 1) / c.directions.length;
  const ranked = (["positive", "null", "negative"] as const).map((d) => [d, tally[d]] as const).sort((a, b) => b[1] - a[1]);
  const total = ranked.reduce((n, [, w]) => n + w, 0);
  const [top, second] = ranked;
  const direction = second![1] >= total / 3 ? "mixed" : top![0];
  return { direction, finding: main.text };
}
