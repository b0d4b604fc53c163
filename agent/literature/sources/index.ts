import type { Queryable } from "@/lib/shared/db";
import { createLocalLibrarySource } from "../../library/source";
import type { AgentConfig } from "../../config";
import type { EngineDeps } from "../engine";
import type { SourceName } from "../record";
import { createSourceHealthTracker, trackCall, trackSource, type SourceHealthTracker } from "../source-health";
import { BIORXIV_REQUESTS_PER_SECOND, createBiorxivSource } from "./biorxiv";
import { CLINICALTRIALS_REQUESTS_PER_SECOND, createClinicalTrialsSource } from "./clinicaltrials";
import { createCrossrefSource, CROSSREF_REQUESTS_PER_SECOND } from "./crossref";
import { createEuropePmcSource, EUROPEPMC_REQUESTS_PER_SECOND } from "./europepmc";
import { createOpenAlexSource, OPENALEX_REQUESTS_PER_SECOND } from "./openalex";
import { createPubmedSource, PUBMED_REQUESTS_PER_SECOND } from "./pubmed";
import type { LiteratureSource } from "./types";
import { keysOf } from "@/lib/shared/narrow";

/** The engine's dependencies, and the health of the sources they call. */
export type AgentEngine = Omit<EngineDeps, "progress" | "signal"> & { sourceHealth: SourceHealthTracker };

/** The one-record search a probe makes to see whether an open circuit's source answers again. */
const PROBE_QUERY = { text: "aging", terms: ["aging"], limit: 1 };

/**
 * The engine's sources as configuration enables them (LITERATURE_SOURCES, OPENALEX_API_KEY), each
 * with its base URL, timeout, retries and its own rate limit (scaled by SOURCE_RATE_MULTIPLIER for
 * benchmarks against a replay server), plus the Crossref and bioRxiv lookups for verification.
 * Every call goes through the sources' health tracker (SOURCE_CIRCUIT_FAILURES,
 * SOURCE_CIRCUIT_COOLDOWN_MS): a source that keeps failing is skipped until a probe finds it back.
 */
export function createEngineDeps(config: AgentConfig, db: Queryable): AgentEngine {
  const lit = config.literature;
  const sourceHealth = createSourceHealthTracker(lit.circuit);
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
  if (enabled.has("local")) sources.local = createLocalLibrarySource({ db, recordPageBase: config.recordPageBase });
  const biorxiv = enabled.has("biorxiv")
    ? createBiorxivSource({ ...common, baseUrl: lit.baseUrls.biorxiv, requestsPerSecond: rate(BIORXIV_REQUESTS_PER_SECOND) })
    : undefined;

  for (const name of keysOf(sources)) {
    const source = sources[name];
    if (!source) continue;
    // The local library is the database: nothing to probe, and its health is the database's.
    if (name !== "local") sourceHealth.setProbe(name, () => source.search(PROBE_QUERY));
    sources[name] = trackSource(source, sourceHealth);
  }
  if (biorxiv) sourceHealth.register("biorxiv");

  return {
    sources,
    sourceHealth,
    ...(crossref
      ? {
          checkDoi: async (doi: string, signal?: AbortSignal) => {
            const work = await trackCall("crossref", sourceHealth, signal, () => crossref.getWork(doi, { includeNotices: true, ...(signal ? { signal } : {}) }));
            return work ? { found: true, title: work.record.title, retracted: work.record.isRetracted } : { found: false };
          },
        }
      : {}),
    ...(biorxiv
      ? {
          publishedVersion: async (doi: string, signal?: AbortSignal) =>
            (await trackCall("biorxiv", sourceHealth, signal, () => biorxiv.getPublishedVersion(doi, undefined, signal ? { signal } : {})))?.publishedDoi ?? null,
        }
      : {}),
  };
}
