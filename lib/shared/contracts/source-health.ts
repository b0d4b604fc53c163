import { z } from "zod";
import { LITERATURE_UNAVAILABLE_REASONS } from "@/lib/shared/contracts/unavailable-reasons";
import { responseRegistry } from "@/lib/shared/contracts/registry";

/**
 * Ours, which literature sources failed and how, as typed values a
 * client can read (never sentences to parse), and each source's health as the agent tracks it.
 */

/**
 * Why a source gave nothing: it did not answer in time, could not be reached (connection refused,
 * DNS, reset), answered an HTTP error, kept rate-limiting past its retries, answered something
 * unreadable, was skipped because it failed repeatedly just before (`circuit_open`), or failed
 * inside the agent (`internal_error`).
 */
const sourceFailureKinds = ["timeout", "unreachable", "http_error", "rate_limited", "bad_response", "circuit_open", "internal_error"] as const;
const sourceFailureKindSchema = z.enum(sourceFailureKinds);
export type SourceFailureKind = z.infer<typeof sourceFailureKindSchema>;

/** One source that failed during a search. */
export const failedSourceSchema = z
  .object({
    source: z.string().describe("pubmed, europepmc, clinicaltrials, crossref, openalex, biorxiv or local"),
    kind: sourceFailureKindSchema,
  })
  .register(responseRegistry, { id: "FailedSource", description: "A literature source that failed during the search, and how" });
export type FailedSource = z.infer<typeof failedSourceSchema>;

/**
 * A source's circuit: `closed` (called normally), `open` (failed repeatedly: skipped until a probe
 * at `retryAt` succeeds), `half_open` (being tried again).
 */
const sourceCircuits = ["closed", "open", "half_open"] as const;
const sourceCircuitSchema = z.enum(sourceCircuits);
export type SourceCircuit = z.infer<typeof sourceCircuitSchema>;

/** One source's health, from the calls this agent process made to it (and its probes). */
export const sourceHealthSchema = z
  .object({
    source: z.string(),
    circuit: sourceCircuitSchema,
    successes: z.int().min(0).describe("calls that answered, since the agent started"),
    failures: z.int().min(0).describe("calls that failed, since the agent started"),
    consecutiveFailures: z.int().min(0),
    lastErrorKind: sourceFailureKindSchema.nullable(),
    lastErrorAt: z.iso.datetime({ offset: true }).nullable(),
    lastSuccessAt: z.iso.datetime({ offset: true }).nullable(),
    lastLatencyMs: z.int().min(0).nullable().describe("duration of the last call that answered"),
    retryAt: z.iso.datetime({ offset: true }).nullable().describe("when an open circuit is probed again"),
  })
  .register(responseRegistry, { id: "SourceHealth" });
export type SourceHealth = z.infer<typeof sourceHealthSchema>;

/**
 * Whether the literature can be searched at all: `available` unless every live source's circuit is
 * open and the local library is empty (or disabled). Paid chat and literature answer 503
 * `literature_unavailable` before payment when it is not.
 */
export const literatureReachSchema = z
  .object({
    available: z.boolean(),
    localLibrary: z.enum(["has_records", "empty", "disabled", "unknown"]),
    sources: z.array(sourceHealthSchema),
    retryAfterSeconds: z.int().min(1).nullable().describe("when it is not available: how long until a source is tried again"),
    message: z.string().nullable().describe("when something is wrong: what, in words"),
  })
  .register(responseRegistry, { id: "LiteratureReach" });
export type LiteratureReach = z.infer<typeof literatureReachSchema>;

/**
 * 503 of paid chat and literature (with Retry-After) when no literature source can answer: before
 * payment, or because the started search reached none. Nothing is charged.
 */
export const literatureUnavailableSchema = z
  .object({
    error: z.literal("literature_unavailable"),
    reason: z
      .enum(LITERATURE_UNAVAILABLE_REASONS)
      .describe(
        "no_source_reachable: no source could be searched (every live source failing, the local library empty, off or failing); nothing_in_library: every live source asked failed, and the local library, searched, has nothing on this question. Asking the same again helps only once a live source answers again; other words, or a wider question, may find something in the library now",
      ),
    message: z.string().describe("what is wrong, in words"),
    failedSources: z.array(failedSourceSchema),
    retryAfterSeconds: z.int().min(1),
  })
  .register(responseRegistry, { id: "LiteratureUnavailable" });
