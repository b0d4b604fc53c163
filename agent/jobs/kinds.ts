import { z } from "zod";
import { encryptedEnvelopeSchema, literatureQueryRequestSchema, type EncryptedResponse, type LiteratureJobResult, type QueuedChatResult } from "@/lib/shared/contracts";

/**
 * What each kind of job takes and gives. Inputs are checked against these schemas when a job is
 * queued (a route cannot queue what no worker could run) and again when a worker takes it (a row
 * written by an older version, or by hand, fails as the job's error instead of being cast and
 * misread). Results are typed here and written only by the kind's handler.
 */
const schemas = {
  literature: literatureQueryRequestSchema,
  chat: z.object({ message: z.string(), conversationId: z.uuid().nullable(), fast: z.boolean().optional() }),
  deep_research: z.object({ messageId: z.uuid() }),
  /** Sealed work keeps only the envelope: the worker opens it again. */
  private_chat: z.object({ envelope: encryptedEnvelopeSchema }),
  private_literature: z.object({ envelope: encryptedEnvelopeSchema }),
  private_deep_research: z.object({ messageId: z.uuid(), envelope: encryptedEnvelopeSchema }),
} as const;

export type JobKind = keyof typeof schemas;

/** A job's input as the route gives it (before defaults are filled in). */
export type JobInputOf<K extends JobKind> = z.input<(typeof schemas)[K]>;
/** A job's input as its handler reads it. */
export type JobInput<K extends JobKind> = z.output<(typeof schemas)[K]>;

/** The same schemas, each typed by its kind, so that parsing with the schema of a generic kind gives that kind's input. */
const jobInputSchemas: { [K in JobKind]: z.ZodType<JobInput<K>, JobInputOf<K>> } = schemas;

/** A turn that was cancelled or finished before this attempt began does nothing more. */
type Skipped = { skipped: true };

type JobResults = {
  literature: LiteratureJobResult;
  chat: QueuedChatResult;
  deep_research: { conversationId: string; messageId: string; quality: unknown } | Skipped;
  /** Sealed to the request's key. */
  private_chat: EncryptedResponse;
  private_literature: EncryptedResponse;
  /** The run's result is kept in agent.private_runs, sealed under its recovery key. */
  private_deep_research: { messageId: string } | Skipped;
};
export type JobResult<K extends JobKind> = JobResults[K];

/** The input a job of `kind` was queued with does not fit its schema. */
export class InvalidJobInputError extends Error {
  constructor(kind: JobKind, cause: z.ZodError) {
    super(`Invalid ${kind} job input: ${z.prettifyError(cause)}`, { cause });
    this.name = "InvalidJobInputError";
  }
}

/** Checks `input` against the schema of `kind`. Throws InvalidJobInputError. */
export function parseJobInput<K extends JobKind>(kind: K, input: unknown): JobInput<K> {
  const parsed = jobInputSchemas[kind].safeParse(input);
  if (!parsed.success) throw new InvalidJobInputError(kind, parsed.error);
  return parsed.data;
}
