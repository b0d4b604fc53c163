import { z } from "zod";
import { citationFields } from "@/lib/shared/contracts/citation";
import { isoDateSchema } from "@/lib/shared/contracts/common";
import { evidenceRoleSchema, evidenceTypeSchema, stanceSchema, studySnapshotSchema, verdictBasisSchema, verdictSchema, verificationSchema } from "@/lib/shared/contracts/evidence";
import { componentRef, documentAs, responseRegistry } from "@/lib/shared/contracts/registry";
import { requestContract, requestObject } from "@/lib/shared/contracts/request-contract";
import { failedSourceSchema } from "@/lib/shared/contracts/source-health";
import { MAX_QUESTION_CHARS, MAX_RESULTS_LIMIT, MAX_TAG_CHARS, MAX_TAGS } from "@/lib/shared/contracts/limits";

export { MAX_QUESTION_CHARS, MAX_TAGS };

/** Length in Unicode code points, as JSON Schema's minLength/maxLength count it. */
function codePointLength(value: string): number {
  let n = 0;
  for (const _ of value) n++;
  return n;
}

/** `question`: 1 to 8192 characters (code points) and not only whitespace. */
const questionSchema = z
  .string({ error: "question is required and must be a string" })
  .refine((s) => s.trim().length > 0, "question must not be empty")
  .refine((s) => codePointLength(s) <= MAX_QUESTION_CHARS, `question must be at most ${MAX_QUESTION_CHARS} characters`)
  .meta({ minLength: 1, maxLength: MAX_QUESTION_CHARS });

/** `year`: one year (`2021`) or an inclusive range (`2015-2021`). */
const yearFilterSchema = z
  .string()
  .regex(/^\d{4}(-\d{4})?$/, "year must be YYYY or YYYY-YYYY")
  .refine((s) => {
    const [from, to] = s.split("-").map(Number);
    return to === undefined || (from !== undefined && from <= to);
  }, "year range must not end before it starts");

const literatureModes = ["fast", "deep"] as const;
const sourceProfiles = ["fast-default", "deep-default", "clinical", "paperclip", "litqa-recall"] as const;
const tagModes = ["fanout", "combined"] as const;
const literatureScopes = ["preprints", "no-preprints", "trials"] as const;
const retrievalProfiles = ["default", "litqa-recall"] as const;

/** Section 2.10: the literature search request, with its defaults. */
export const literatureQueryRequestSchema = requestContract(
  requestObject({
    question: questionSchema,
    mode: z.enum(literatureModes).default("fast"),
    sourceProfile: z.enum(sourceProfiles).optional().describe("accepted for compatibility; no longer steers retrieval"),
    tags: z
      .array(z.string().trim().min(1, "tags must not be empty").max(MAX_TAG_CHARS))
      .max(MAX_TAGS, `at most ${MAX_TAGS} tags`)
      .optional()
      .describe(
        "tracked terms for radar-style searches: a reference counts for a tag when the tag is its subject (title, MeSH, aim), not a mention in passing; with a question of its own, only when it also answers the question (tags narrow, never widen)",
      ),
    tagMode: z
      .enum(tagModes)
      .optional()
      .describe("fanout: each tag searched independently (a reference counts for any tag); combined: one search (a reference counts for every tag); fanout when tags are given without it"),
    allowSourceExpansion: z.boolean().optional().describe("deprecated, ignored"),
    maxResults: z.int().min(1).max(MAX_RESULTS_LIMIT).optional().describe("maximum number of results"),
    perSourceLimit: z.int().min(0).optional().describe("deprecated, ignored"),
    sources: z.array(z.string()).optional().describe("deprecated, ignored"),
    scope: z
      .enum(literatureScopes)
      .optional()
      .describe("preprints: preprint servers only; no-preprints: exclude them; trials: the trial registry only"),
    retrievalProfile: z.enum(retrievalProfiles).optional(),
    privacyMode: z.string().max(64).optional().describe("forwarded upstream when provided"),
    year: yearFilterSchema.optional().describe("publication-year filter"),
    date_from: isoDateSchema.optional().describe("start date filter, YYYY-MM-DD"),
    date_to: isoDateSchema.optional().describe("end date filter, YYYY-MM-DD"),
    filterReferences: z.boolean().default(true).describe("false gives raw references"),
    includeRejected: z.boolean().default(false).describe("true adds rejectedReferences[] and relevance.reason"),
  })
  .refine((r) => !(r.date_from && r.date_to) || r.date_from <= r.date_to, {
    path: ["date_to"],
    message: "date_to must not be before date_from",
  }),
  { id: "LiteratureQueryRequest" },
);
export type LiteratureQueryRequest = z.infer<typeof literatureQueryRequestSchema>;
export type LiteratureQueryInput = z.input<typeof literatureQueryRequestSchema>;

/** How a reference was judged. `reason` only on rejected ones with includeRejected. */
const literatureReferenceRelevanceSchema = z
  .object({
    accepted: z.boolean(),
    score: z.number(),
    matchedTerms: z.array(z.string()),
    flags: z.array(z.string()).describe("why it was judged as it was: off_topic, animal_only, retracted, outside_dates, …"),
    reason: z.string().nullish().describe("why it was rejected (rejected references, with includeRejected)"),
    missingConcepts: z.array(z.string()).optional().describe("the question's concepts its text does not name, when any"),
    partCoverage: z
      .partialRecord(z.enum(["topic", "exposure", "outcome", "main"]), z.number().min(0).max(1))
      .optional()
      .describe("the share of each required part of the question (its topic, exposure, outcome, or main subject) the record names, rarer words weighing more"),
    partsAddressed: z
      .array(z.enum(["topic", "exposure", "outcome", "main"]))
      .optional()
      .describe("the required parts it addresses: at least half of the part's weight, rarer words weighing more; a reference addressing every one tests the question"),
  })
  .register(responseRegistry, { id: "LiteratureReferenceRelevance" });

const nullableId = (what: string) => z.string().nullable().optional().describe(what);

/**
 * One reference of a literature result: the shared shape's fields (`id` to `relevance`), then what
 * this service adds beside them, its identifiers and its grading. The added fields are optional
 * so results stored before them still read, and other fields are kept when read.
 */
export const literatureReferenceSchema = z
  .looseObject({
    id: z.union([z.number(), z.string()]).describe("the reference's number: the N of the answer's [N] markers"),
    title: z.string(),
    url: z.string(),
    source: z.string().nullish().describe("the source it was first found in: pubmed, europepmc, clinicaltrials, biorxiv, medrxiv, crossref, openalex or local"),
    year: z.number().nullish(),
    item_date: isoDateSchema.nullish().describe("publication (or first posting) date, when known to the day"),
    relevance: literatureReferenceRelevanceSchema.optional(),
    sources: z.array(z.string()).optional().describe("every source it came from (duplicates merged)"),
    ...citationFields,
    doi: nullableId("lower case, without a resolver prefix"),
    pmid: nullableId("PubMed id, digits only"),
    pmcid: nullableId("PubMed Central id, with its PMC prefix"),
    nct: nullableId("ClinicalTrials.gov id (NCT…)"),
    label: z.string().optional().describe('how the source list names it: "PMID 123", "doi:10…", an NCT id, a preprint id, or "local library"'),
    isPreprint: z.boolean().optional(),
    isRetracted: z.boolean().optional(),
    publishedDoi: z.string().nullable().optional().describe("for a preprint: the DOI of its journal version, when known"),
    evidenceType: evidenceTypeSchema.optional(),
    evidenceReason: z.string().optional().describe("why it has its evidenceType"),
    verification: verificationSchema.optional(),
    verificationReason: z.string().optional(),
    confidence: z.number().min(0).max(1).optional(),
    confidenceReason: z.string().optional(),
    snapshot: studySnapshotSchema.optional().describe("the study at a glance"),
    stance: stanceSchema.optional().describe("what its findings say about the question's claim (accepted references)"),
    evidenceRole: evidenceRoleSchema
      .optional()
      .describe("supporting: it tests the question (its intervention or exposure and its outcome); context: it addresses part of it, or is outside the request; lead_only: off topic or retracted"),
    roleReason: z.string().optional().describe('why it has its evidenceRole, in plain words: "studies metformin and aging", "does not study aging"'),
  })
  .register(responseRegistry, { id: "LiteratureReference" });
export type LiteratureReference = z.infer<typeof literatureReferenceSchema>;

/** Section 2.11: the filtering summary of a completed literature job. */
export const literatureQualitySchema = z
  .object({
    filtered: z.boolean(),
    rawCount: z.int().min(0),
    acceptedCount: z.int().min(0),
    rejectedCount: z.int().min(0),
    lowConfidence: z.boolean(),
    evidenceThin: z.boolean(),
    rejectionReasons: z.record(z.string(), z.int().min(0)),
  })
  .register(responseRegistry, { id: "LiteratureQuality" });
export type LiteratureQuality = z.infer<typeof literatureQualitySchema>;

/**
 * The passage of an accepted reference that bears on the question: what the answer quotes.
 * Registered for the OpenAPI document, which names it by id; no module parses it.
 */
z
  .object({
    ordinal: z.int().min(1).describe("the reference's number (its id)"),
    referenceId: z.string().describe("the reference's label"),
    text: z.string(),
    url: z.string(),
  })
  .register(responseRegistry, { id: "LiteraturePassage" });

/**
 * A reference a tag's search accepted, in a fanout's per-tag coverage.
 * Registered for the OpenAPI document, which names it by id; no module parses it.
 */
z
  .object({
    id: z.union([z.number(), z.string()]).nullable().describe("the id of the same reference in `references`, when it is listed there"),
    title: z.string(),
    url: z.string(),
    score: z.number().describe("its relevance to the tag"),
  })
  .register(responseRegistry, { id: "LiteratureTagReference" });

/**
 * A reference a tag's search rejected, in a fanout's per-tag coverage (with includeRejected).
 * Registered for the OpenAPI document, which names it by id; no module parses it.
 */
z
  .object({ title: z.string(), url: z.string(), reason: z.string().nullable().describe("why it was rejected") })
  .register(responseRegistry, { id: "LiteratureTagRejectedReference" });

/**
 * Per-tag coverage of a fanout search. The reference lists' items are open objects when read;
 * the document states what this service puts there.
 */
export const literatureResultsByTagEntrySchema = z
  .object({
    tag: z.string(),
    covered: z.boolean().describe("accepted, source-grounded evidence was found for the tag"),
    acceptedCount: z.int().min(0),
    rejectedCount: z.int().min(0),
    matchedTerms: z.array(z.string()),
    acceptedReferences: z.array(documentAs(z.record(z.string(), z.unknown()), componentRef("LiteratureTagReference"))),
    rejectedReferences: z
      .array(documentAs(z.record(z.string(), z.unknown()), componentRef("LiteratureTagRejectedReference")))
      .nullable()
      .describe("null unless includeRejected was true"),
  })
  .register(responseRegistry, { id: "LiteratureResultsByTagEntry" });
export type LiteratureResultsByTagEntry = z.infer<typeof literatureResultsByTagEntrySchema>;

export const literatureJobStatuses = ["queued", "running", "completed", "failed"] as const;

/** Section 2.11: GET /api/literature/jobs/{jobId}; every field optional and nullable. */
export const literatureJobResultSchema = z
  .object({
    jobId: z.string().nullish(),
    status: z.enum(literatureJobStatuses).nullish(),
    error: z.string().nullish().describe("set when status is failed"),
    answer: z.string().nullish(),
    formattedAnswer: z.string().nullish(),
    references: z.array(literatureReferenceSchema).nullish(),
    rejectedReferences: z
      .array(documentAs(z.record(z.string(), z.unknown()), componentRef("LiteratureReference")))
      .nullish()
      .describe("the references the relevance filter rejected, each with relevance.reason: only with includeRejected"),
    contextPassages: z.array(documentAs(z.record(z.string(), z.unknown()), componentRef("LiteraturePassage"))).nullish(),
    reasoning: z.array(z.string()).nullish(),
    quality: literatureQualitySchema.nullish(),
    retrievalBackend: z.string().nullish(),
    fallbackUsed: z.boolean().nullish(),
    failedSources: z.array(failedSourceSchema).nullish().describe("the sources that failed outright, and how"),
    effectiveSources: z.array(z.string()).nullish(),
    sourceProfile: z.string().nullish(),
    tagMode: z.string().nullish(),
    tags: z.array(z.string()).nullish(),
    resultsByTag: z.record(z.string(), literatureResultsByTagEntrySchema).nullish(),
    verdict: verdictSchema.nullish().describe("the bottom line the answer opens with"),
    verdictBasis: verdictBasisSchema.nullish(),
    bottomLine: z.string().nullish().describe("the paragraph the answer opens with, stating the verdict in words"),
  })
  .register(responseRegistry, { id: "LiteratureJobResult" });
export type LiteratureJobResult = z.infer<typeof literatureJobResultSchema>;

/** Section 4.4: 202 of POST /api/literature. */
export const literatureAcceptedSchema = z
  .object({ jobId: z.string().min(1), status: z.literal("queued") })
  .register(responseRegistry, { id: "LiteratureAccepted" });
