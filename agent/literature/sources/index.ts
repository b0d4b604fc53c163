import type { Queryable } from "@/lib/db";
import { createLocalLibrarySource } from "../../library/source";
import type { AgentConfig } from "../../config";
import type { EngineDeps } from "../engine";
import type { SourceName } from "../record";
import { BIORXIV_REQUESTS_PER_SECOND, createBiorxivSource } from "./biorxiv";
import { CLINICALTRIALS_REQUESTS_PER_SECOND, createClinicalTrialsSource } from "./clinicaltrials";
import { createCrossrefSource, CROSSREF_REQUESTS_PER_SECOND } from "./crossref";
import { createEuropePmcSource, EUROPEPMC_REQUESTS_PER_SECOND } from "./europepmc";
import { createOpenAlexSource, OPENALEX_REQUESTS_PER_SECOND } from "./openalex";
import { createPubmedSource, PUBMED_REQUESTS_PER_SECOND } from "./pubmed";
import type { LiteratureSource } from "./types";

/**
 * The engine's sources as configuration enables them (LITERATURE_SOURCES, OPENALEX_API_KEY), each
 * with its base URL, timeout, retries and its own rate limit (scaled by SOURCE_RATE_MULTIPLIER for
 * benchmarks against a replay server), plus the Crossref and bioRxiv lookups for verification.
 */
export function createEngineDeps(config: AgentConfig, db: Queryable): Omit<EngineDeps, "progress" | "signal"> {
  const lit = config.literature;
  const enabled = new Set(lit.enabledSources);
  const rate = (perSecond: number) => perSecond * lit.rateMultiplier;
  const common = { timeoutMs: lit.timeoutMs, maxRetries: lit.maxRetries };
  const sources: Partial<Record<SourceName, LiteratureSource>> = {};

  if (enabled.has("pubmed")) {
    sources.pubmed = createPubmedSource({
      ...common,
      baseUrl: lit.baseUrls.pubmed,
      tool: "longevity-research-agent",
      email: lit.contactEmail,
      ...(lit.ncbiApiKey ? { apiKey: lit.ncbiApiKey } : {}),
      requestsPerSecond: rate(lit.ncbiApiKey ? PUBMED_REQUESTS_PER_SECOND.withKey : PUBMED_REQUESTS_PER_SECOND.withoutKey),
    });
  }
  if (enabled.has("europepmc")) {
    sources.europepmc = createEuropePmcSource({ ...common, baseUrl: lit.baseUrls.europepmc, requestsPerSecond: rate(EUROPEPMC_REQUESTS_PER_SECOND) });
  }
  if (enabled.has("clinicaltrials")) {
    sources.clinicaltrials = createClinicalTrialsSource({
      ...common,
      baseUrl: lit.baseUrls.clinicaltrials,
      requestsPerSecond: rate(CLINICALTRIALS_REQUESTS_PER_SECOND),
    });
  }
  const crossref = enabled.has("crossref")
    ? createCrossrefSource({ ...common, baseUrl: lit.baseUrls.crossref, mailto: lit.contactEmail, requestsPerSecond: rate(CROSSREF_REQUESTS_PER_SECOND) })
    : undefined;
  if (crossref) sources.crossref = crossref;
  if (enabled.has("openalex") && lit.openalexApiKey) {
    sources.openalex = createOpenAlexSource({
      ...common,
      baseUrl: lit.baseUrls.openalex,
      apiKey: lit.openalexApiKey,
      mailto: lit.contactEmail,
      requestsPerSecond: rate(OPENALEX_REQUESTS_PER_SECOND),
    });
  }
  if (enabled.has("local")) sources.local = createLocalLibrarySource({ db, agentUrl: config.publicUrl });
  const biorxiv = enabled.has("biorxiv")
    ? createBiorxivSource({ ...common, baseUrl: lit.baseUrls.biorxiv, requestsPerSecond: rate(BIORXIV_REQUESTS_PER_SECOND) })
    : undefined;

  return {
    sources,
    ...(crossref
      ? {
          checkDoi: async (doi: string, signal?: AbortSignal) => {
            const work = await crossref.getWork(doi, { includeNotices: true, ...(signal ? { signal } : {}) });
            return work ? { found: true, title: work.record.title, retracted: work.record.isRetracted } : { found: false };
          },
        }
      : {}),
    ...(biorxiv
      ? {
          publishedVersion: async (doi: string, signal?: AbortSignal) =>
            (await biorxiv.getPublishedVersion(doi, undefined, signal ? { signal } : {}))?.publishedDoi ?? null,
        }
      : {}),
  };
}
