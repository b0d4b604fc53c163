/**
 * Where a reader can open a reference: PubMed, the DOI, the trial registry, or, for a record of the
 * service's own library that has none of those, the record page this gateway serves
 * (/library/records/<id>). The agent's own address is never a link: its record route answers only
 * the gateway (it needs the service key), so a URL on that path is turned into the gateway's page,
 * whatever origin it carries.
 */

export type ReferenceLink = { href: string; text: string; kind: "pubmed" | "doi" | "trial" | "record" | "source" };

/** The fields links are built from, as chat, literature and deep-research references carry them. */
export type LinkableReference = {
  pmid?: string | number | null | undefined;
  doi?: string | null | undefined;
  nct?: string | null | undefined;
  url?: string | null | undefined;
  source?: string | null | undefined;
  publishedDoi?: string | null | undefined;
};

const UUID = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}";
const LIBRARY_RECORD_PATH = new RegExp(`^(?:/api)?/library/records/(${UUID})/?$`, "i");
const NCT_ID = /\b(NCT\d{8})\b/i;

/** The record page on this gateway, as a same-origin path. */
const libraryRecordPath = (id: string) => `/library/records/${id}`;

/** A DOI without a resolver prefix ("https://doi.org/10.1/x" → "10.1/x"), or null when it is not one. */
export function bareDoi(doi: string | null | undefined): string | null {
  if (!doi) return null;
  const bare = doi.trim().replace(/^(?:https?:\/\/(?:dx\.)?doi\.org\/|doi:)/i, "");
  return /^10\.\d{4,9}\/\S+$/.test(bare) ? bare : null;
}

/** The library record id a URL points at (the agent's or this gateway's record path), or null. */
export function libraryRecordId(url: string | null | undefined): string | null {
  const parsed = parseHttpUrl(url);
  if (!parsed) return null;
  return LIBRARY_RECORD_PATH.exec(parsed.pathname)?.[1]?.toLowerCase() ?? null;
}

function parseHttpUrl(url: string | null | undefined): URL | null {
  if (!url) return null;
  try {
    const parsed = new URL(url);
    return parsed.protocol === "https:" || parsed.protocol === "http:" ? parsed : null;
  } catch {
    return null;
  }
}

const doiHref = (doi: string) => `https://doi.org/${doi.split("/").map(encodeURIComponent).join("/")}`;

/** Every place to read a reference, best first, without duplicates. */
export function referenceLinks(ref: LinkableReference): ReferenceLink[] {
  const out: ReferenceLink[] = [];
  const add = (link: ReferenceLink) => {
    if (!out.some((l) => l.href === link.href)) out.push(link);
  };
  const pmid = ref.pmid == null ? null : String(ref.pmid).trim();
  if (pmid && /^\d+$/.test(pmid)) add({ href: `https://pubmed.ncbi.nlm.nih.gov/${pmid}/`, text: `PubMed ${pmid}`, kind: "pubmed" });
  const doi = bareDoi(ref.doi);
  if (doi) add({ href: doiHref(doi), text: `DOI ${doi}`, kind: "doi" });
  const published = bareDoi(ref.publishedDoi);
  if (published && published !== doi) add({ href: doiHref(published), text: "Published version", kind: "doi" });
  const url = parseHttpUrl(ref.url);
  const nct = (ref.nct && NCT_ID.exec(ref.nct)?.[1]) ?? (url && /clinicaltrials\.gov$/i.test(url.hostname) ? NCT_ID.exec(url.pathname)?.[1] : undefined);
  if (nct) add({ href: `https://clinicaltrials.gov/study/${nct.toUpperCase()}`, text: `ClinicalTrials.gov ${nct.toUpperCase()}`, kind: "trial" });
  const recordId = libraryRecordId(ref.url);
  if (recordId) {
    add({ href: libraryRecordPath(recordId), text: "Library record", kind: "record" });
  } else if (url && !(nct && /clinicaltrials\.gov$/i.test(url.hostname))) {
    add({ href: url.toString(), text: "Source", kind: "source" });
  }
  return out;
}

/**
 * The one address an export names for a reference: the first of its links, made absolute on
 * `origin` when it is this gateway's record page. Null when there is nowhere to read it.
 */
export function publicReferenceUrl(ref: LinkableReference, origin: string): string | null {
  const first = referenceLinks(ref)[0];
  if (!first) return null;
  return first.href.startsWith("/") ? `${origin.replace(/\/+$/, "")}${first.href}` : first.href;
}
