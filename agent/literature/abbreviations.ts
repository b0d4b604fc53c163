/** An abbreviation's short form: 2 to 10 characters, a letter among them, no space. */
const DEFINITION = /\(([A-Za-z0-9][\w-]{0,8}[A-Za-z0-9]|[A-Z])s?\)/g;

/**
 * The abbreviations a text defines ("inhaled corticosteroids (ICSs)"), each with its long form, by
 * Schwartz and Hearst's rule (Pac Symp Biocomput 2003): the long form ends before the parenthesis,
 * its first word starts with the short form's first letter, and every letter of the short form
 * appears in it, in order.
 */
export function abbreviationsOf(text: string): { short: string; long: string }[] {
  const found: { short: string; long: string }[] = [];
  for (const m of text.matchAll(DEFINITION)) {
    // "ICSs" is the plural of "ICS".
    const short = m[1]!.replace(/(?<=[A-Z]{2})s$/, "");
    if (!/[A-Za-z]/.test(short) || !/[A-Z]/.test(short)) continue;
    const before = text.slice(0, m.index).trimEnd();
    const words = before.split(/\s+/).slice(-Math.min(short.length + 5, short.length * 2));
    const long = longFormOf(short, words.join(" "));
    if (long) found.push({ short, long });
  }
  return found;
}

/** The long form a short form abbreviates at the end of `candidate`, by the rule above; null when none does. */
export function longFormOf(short: string, candidate: string): string | null {
  let s = short.length - 1;
  let l = candidate.length - 1;
  const alnum = (c: string | undefined) => c !== undefined && /[a-z0-9]/i.test(c);
  while (s >= 0) {
    const c = short[s]!.toLowerCase();
    if (!alnum(c)) {
      s--;
      continue;
    }
    // The short form's first letter must open a word of the long form.
    while (l >= 0 && (candidate[l]!.toLowerCase() !== c || (s === 0 && l > 0 && alnum(candidate[l - 1])))) l--;
    if (l < 0) return null;
    l--;
    s--;
  }
  const start = candidate.lastIndexOf(" ", l) + 1;
  const long = candidate.slice(start).replace(/^[^a-z0-9]+/i, "");
  return long.length > short.length ? long : null;
}
