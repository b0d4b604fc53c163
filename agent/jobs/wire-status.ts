import type { Job, JobStatus } from "./queue";

/**
 * How each API names a job's states before it ends: the chat APIs say `active` where literature
 * and private deep research say `running`, and the sealed literature poll has one word for both.
 * Every API reads a cancelled job as `failed`.
 */
const VOCABULARIES = {
  chat: { queued: "queued", running: "active" },
  literature: { queued: "queued", running: "running" },
  privateLiterature: { queued: "active", running: "active" },
  privateDeepResearch: { queued: "queued", running: "running" },
} as const;
type Vocabulary = keyof typeof VOCABULARIES;

/** The same table as a mapped type, so that indexing it with a generic vocabulary keeps that vocabulary's words. */
type Words = { [V in Vocabulary]: (typeof VOCABULARIES)[V] };
export type WireStatus<V extends Vocabulary> = Words[V]["queued"] | Words[V]["running"] | "completed" | "failed";

/** A job's status in the words of the API `vocabulary`. */
export function toWireStatus<V extends Vocabulary>(status: JobStatus, vocabulary: V): WireStatus<V> {
  if (status === "completed") return "completed";
  if (status === "failed" || status === "cancelled") return "failed";
  const words: Words = VOCABULARIES;
  return words[vocabulary][status];
}

/**
 * Why a job that reads `failed` ended: `cancelled` for a cancelled job when the API words it so,
 * else the job's own error, else `failed`.
 */
export function wireErrorOf(job: Pick<Job, "status" | "error">, { failed, cancelled }: { failed: string; cancelled?: string }): string {
  if (job.status === "cancelled" && cancelled !== undefined) return cancelled;
  return job.error ?? failed;
}

/**
 * The status of a record that a job works on and keeps its own status in (a private deep-research
 * run): the record's own, except that an unfinished record whose job reads `failed` (its worker
 * crashed on every attempt, or it was cancelled) will not finish, and reads `failed` too. `job`
 * is null when there is no job (swept after its retention): the record's status stands.
 */
export function recordWireStatus(record: WireStatus<"privateDeepResearch">, job: JobStatus | null): WireStatus<"privateDeepResearch"> {
  const unfinished = record === "queued" || record === "running";
  return unfinished && job !== null && toWireStatus(job, "privateDeepResearch") === "failed" ? "failed" : record;
}
