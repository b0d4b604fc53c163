import type { LiteratureRecord } from "./record";
import { splitSentences } from "./sentences";
import { sectionsOf } from "./stance/sections";
import { opensAsAim } from "./topic";
import { abbreviationsOf } from "./abbreviations";

/**
 * Where a record states what it studied, for whether it addresses a part of the question
 * (relevance.ts, partsAddressed; roles.ts): its title, unless the library derived it from the
 * abstract's first sentence, and its abstract without the background, which says what others
 * found or proposed ("Metformin has been proposed as a drug to slow aging", "Fisetin extends
 * lifespan in mice"), not what this study tested. A background sentence that states the study's
 * aim or speaks of it ("We investigated …", "Using immunohistochemistry, we demonstrated …", "The
 * present study was aimed …") counts, and so does the long form of an abbreviation the background
 * defines ("health information exchange (HIE)") wherever the rest uses its short form.
 */
export function studiedText(record: Pick<LiteratureRecord, "title" | "titleDerived" | "abstract">): string {
  const abstract = record.abstract ?? "";
  const parts = sectionsOf(abstract).flatMap((s) => (s.role === "background" ? splitSentences(s.text).filter((t) => opensAsAim(t) || THIS_STUDY.test(t)) : [s.text]));
  if (!record.titleDerived) parts.unshift(record.title);
  const studied = parts.join(" \n ");
  // A defined abbreviation read as its long form, in place: "abnormal Pap smear" then names
  // "abnormal Papanicolaou smear", and "Papanicolaou (Pap) smears" names "Papanicolaou smears".
  // The text as written is kept beside it (the short form may be how the question puts it too).
  const definitions = abbreviationsOf(abstract);
  if (definitions.length === 0) return studied;
  let expanded = studied;
  for (const { short } of definitions) expanded = expanded.replace(new RegExp(`\\s*\\(${escape(short)}s?\\)`, "g"), "");
  // Twice: a long form may use another short form ("high-sensitivity CRP (hsCRP)").
  for (let round = 0; round < 2; round++) {
    for (const { short, long } of definitions) expanded = expanded.replace(new RegExp(`(?<![A-Za-z0-9-])${escape(short)}(s?)(?![A-Za-z0-9])`, "g"), (_, plural: string) => `${long}${plural}`);
  }
  return expanded === studied ? studied : `${studied} \n ${expanded}`;
}

/** A sentence that speaks of the study itself, in the first person or by name. */
const THIS_STUDY = /\b(we|our|here|this (study|trial|paper|work|report|analysis|investigation|survey)|the (present|current) (study|trial|work|investigation|analysis))\b/i;

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
