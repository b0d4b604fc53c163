import type { Cite } from "./synthesis";
import { keysOf, type FindingReference } from "./world";

/**
 * Citations while a reply is written: texts carry a placeholder per reference (⟦i⟧), and once the
 * reply is complete each placeholder becomes the [N] of its reference in the reply's list, numbered
 * in the order the reply first cites them. A reference the list does not hold (one an earlier turn
 * found) is named instead of numbered, so no marker can point at nothing.
 */

const TOKEN = /⟦(\d+)⟧/g;

export type CitationRegistry = { cite: Cite; cited: FindingReference[] };

export function createCitations(): CitationRegistry {
  const cited: FindingReference[] = [];
  const index = new Map<string, number>();
  const cite: Cite = (refs) => {
    const tokens: string[] = [];
    for (const ref of refs) {
      const keys = keysOf(ref);
      let i = keys.map((k) => index.get(k)).find((n) => n !== undefined);
      if (i === undefined) {
        i = cited.length;
        cited.push(ref);
      }
      for (const k of keys) index.set(k, i);
      const token = `⟦${i}⟧`;
      if (!tokens.includes(token)) tokens.push(token);
    }
    return tokens.join("");
  };
  return { cite, cited };
}

type Numbered = { ordinal: number; title: string; url: string; pmid?: string | null; doi?: string | null; pmcid?: string | null };

/**
 * Numbers `references` by their first citation in `texts` (uncited ones after, in their order) and
 * writes each placeholder as its marker. With `fixed`, the references keep the numbers they have.
 */
export function resolveCitations<R extends Numbered>({ texts, cited, references, fixed = false }: { texts: string[]; cited: FindingReference[]; references: R[]; fixed?: boolean }): {
  texts: string[];
  references: R[];
} {
  const byKey = new Map<string, number>();
  references.forEach((r, i) => {
    for (const k of keysOf(r)) if (!byKey.has(k)) byKey.set(k, i);
  });
  const target = (token: number) => {
    const ref = cited[token];
    return ref ? keysOf(ref).map((k) => byKey.get(k)).find((i) => i !== undefined) : undefined;
  };
  let numbered: R[];
  if (fixed) numbered = references;
  else {
    const order: number[] = [];
    for (const text of texts) {
      for (const m of text.matchAll(TOKEN)) {
        const i = target(Number(m[1]));
        if (i !== undefined && !order.includes(i)) order.push(i);
      }
    }
    for (let i = 0; i < references.length; i++) if (!order.includes(i)) order.push(i);
    numbered = order.map((i, n) => ({ ...references[i]!, ordinal: n + 1 }));
  }
  const ordinalOf = new Map<number, number>();
  references.forEach((r, i) => ordinalOf.set(i, numbered.find((n) => keysOf(n).some((k) => keysOf(r).includes(k)))!.ordinal));
  const write = (text: string) =>
    text
      .replace(TOKEN, (_, token: string) => {
        const i = target(Number(token));
        return i === undefined ? ` (${nameOf(cited[Number(token)])})` : `[${ordinalOf.get(i)}]`;
      })
      .replace(/\]\s+\(/g, "] (")
      .replace(/ {2,}/g, " ");
  return { texts: texts.map(write), references: numbered };
}

/** A text for storage, outside any reply: each run of placeholders becomes the references' names. */
export function nameCitations(text: string, cited: FindingReference[]): string {
  return text.replace(/(\s*⟦\d+⟧)+/g, (run) => ` (${[...run.matchAll(TOKEN)].map((m) => nameOf(cited[Number(m[1])])).join("; ")})`);
}

function nameOf(ref: FindingReference | undefined): string {
  if (!ref) return "a reference";
  if (ref.pmid) return `PMID ${ref.pmid}`;
  if (ref.doi) return `doi:${ref.doi}`;
  const title = ref.title.length > 60 ? `${ref.title.slice(0, 57).trimEnd()}…` : ref.title;
  return `“${title}”`;
}
