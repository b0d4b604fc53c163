/**
 * An author's name split the way a reference manager stores it (family name, given names), from
 * the forms the sources write: PubMed, Europe PMC and Crossref give "Family Initials" ("Bao Y",
 * "van der Berg JM"), OpenAlex "Given Family" ("Ying Bao"), a library file either, or "Family,
 * Given". A group ("UK Biobank Consortium") or a lone word stays one literal name: split, a
 * reference manager would file it under its last word.
 */
type AuthorName = { family: string; given: string; suffix?: string } | { literal: string };

// "Jr" and Roman numerals end a name without being its initials.
const SUFFIX = /^(?:JR|SR|II|III|IV)$/;
const GROUP = /\b(?:consortium|group|collaborat\w*|investigators|committee|society|network|team|association|council|initiative|study|trial|project|working|program+e?)\b/i;

export function splitAuthorName(raw: string): AuthorName {
  const name = raw.replace(/\s+/g, " ").trim();
  if (GROUP.test(name)) return { literal: name };
  const comma = name.indexOf(",");
  if (comma > 0) {
    const given = name.slice(comma + 1).trim();
    return given ? { family: name.slice(0, comma).trim(), given } : { literal: name.slice(0, comma).trim() };
  }
  const all = name.split(" ");
  const suffix = all.length >= 3 && SUFFIX.test(all.at(-1)!.replace(/\.$/, "").toUpperCase()) ? all.at(-1)! : undefined;
  const words = suffix ? all.slice(0, -1) : all;
  const last = words.at(-1) ?? "";
  const person = (family: string, given: string): AuthorName => ({ family, given, ...(suffix ? { suffix } : {}) });
  if (words.length >= 2 && /^[A-Z]{1,4}$/.test(last)) return person(words.slice(0, -1).join(" "), [...last].map((initial) => `${initial}.`).join(" "));
  if (words.length >= 2 && words.length <= 4) return person(last, words.slice(0, -1).join(" "));
  return { literal: name };
}

/** "Family, Given[, Suffix]" (RIS's AU form), or the literal name. */
export function invertedName(name: AuthorName): string {
  return "literal" in name ? name.literal : `${name.family}, ${name.given}${name.suffix ? `, ${name.suffix}` : ""}`;
}
