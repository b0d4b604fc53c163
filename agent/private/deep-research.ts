import { randomUUID } from "node:crypto";
import { encryptedDeepResearchStartPlaintextSchema, type ChatResult, type EncryptedEnvelope } from "@/lib/shared/contracts";
import type { Queryable } from "@/lib/shared/db";
import { isUuid } from "@/lib/shared/db/uuid";
import { nativePrimitives } from "@/lib/shared/sealing/native";
import { decryptAtRest, deriveRecoveryKeys, encryptAtRest } from "@/lib/shared/sealing/recovery";
import { finishedStatus, researchTurn, type StoredIteration } from "../deep-research/run";
import { EMPTY_WORLD, type WorldState } from "../deep-research/world";
import type { LlmSettings } from "../chat/llm";
import type { JobLane, JobStatus } from "../jobs/queue";
import { submitJob } from "../jobs/submit";
import { JobFailure, type JobHandler } from "../jobs/worker";
import { recordWireStatus, type WireStatus } from "../jobs/wire-status";
import type { EngineDeps } from "../literature/engine";
import { NoSourceAnsweredError } from "../literature/reach";
import type { EnclaveKey } from "./enclave-key";
import { openEnvelopeInJob } from "./envelope";

/** A run's status, as its job's is worded to the gateway (agent/jobs/wire-status.ts). */
export type PrivateRunStatus = WireStatus<"privateDeepResearch">;

/** What a private run keeps, encrypted under its recovery key's storage key. */
type RunState = {
  question: string;
  iterations: StoredIteration[];
  world: WorldState;
  sessionStatus?: string;
  result?: PrivateRunResult;
};

/** The plaintext of a completed run's sealed answer (section 4.1: reply, citations, worldState, …). */
type PrivateRunResult = {
  messageId: string;
  status: "completed";
  reply: string;
  citations: ChatResult["references"];
  worldState: WorldState;
  quality: ChatResult["quality"];
  sessionStatus: string;
};

/**
 * Records a new private run of `owner` (who started it: `ownerOf` in agent/http/access.ts), its
 * question encrypted under the recovery key, before its job is queued.
 */
export async function createPrivateRun({ db, messageId, message, recoveryKey, owner }: { db: Queryable; messageId: string; message: string; recoveryKey: string; owner: string }) {
  const { lookupId, storageKey } = deriveRecoveryKeys(nativePrimitives, recoveryKey);
  const state: RunState = { question: message, iterations: [], world: EMPTY_WORLD };
  await db.query("INSERT INTO agent.private_runs (message_id, lookup_id, status, sealed, owner) VALUES ($1, $2, 'queued', $3, $4)", [
    messageId,
    lookupId,
    encryptAtRest(nativePrimitives, storageKey, state),
    owner,
  ]);
}

/**
 * Starts a private run of `owner` for a sealed request the route has opened: records it (its
 * question encrypted under the recovery key) and queues its job in `lane`, which opens the
 * envelope again. Returns the run's messageId.
 */
export async function startPrivateRun({
  db,
  envelope,
  message,
  recoveryKey,
  owner,
  lane,
}: {
  db: Queryable;
  envelope: EncryptedEnvelope;
  message: string;
  recoveryKey: string;
  owner: string;
  lane: JobLane;
}): Promise<string> {
  const messageId = randomUUID();
  await createPrivateRun({ db, messageId, message, recoveryKey, owner });
  await submitJob({ db, kind: "private_deep_research", input: { messageId, envelope }, lane, caller: owner, maxAttempts: 3 });
  return messageId;
}

/**
 * One read of a run, so its status and its sealed state are of the same moment: null unless
 * `owner` started it (and, when given, the recovery key's `lookupId` is the run's).
 */
async function readRun(db: Queryable, { messageId, owner, lookupId }: { messageId: string; owner: string; lookupId?: string }) {
  if (!isUuid(messageId)) return null;
  const { rows } = await db.query<{ status: PrivateRunStatus; sealed: string; error: string | null; job_status: JobStatus | null }>(
    `SELECT r.status, r.sealed, r.error,
            (SELECT j.status FROM agent.jobs j WHERE j.kind = 'private_deep_research' AND j.input->>'messageId' = r.message_id::text
              ORDER BY j.created_at DESC LIMIT 1) AS job_status
       FROM agent.private_runs r WHERE r.message_id = $1 AND r.owner = $2 AND ($3::text IS NULL OR r.lookup_id = $3)`,
    [messageId, owner, lookupId ?? null],
  );
  const row = rows[0];
  if (!row) return null;
  // A run whose job died for good (its worker crashed on every attempt) will not finish.
  return { status: recordWireStatus(row.status, row.job_status), sealed: row.sealed, error: row.error };
}

/**
 * A private run's status without its content, for the settlement of whoever started it (the
 * gateway): null when unknown or started by another owner. The status says nothing of the question.
 */
export async function getPrivateRunStatus({ db, messageId, owner }: { db: Queryable; messageId: string; owner: string }): Promise<PrivateRunStatus | null> {
  return (await readRun(db, { messageId, owner }))?.status ?? null;
}

/** The statuses of the private runs among `messageIds`, in one query, for the gateway's settlement cron; unknown ids are left out. */
export async function getPrivateRunStatuses({ db, messageIds, owner }: { db: Queryable; messageIds: string[]; owner: string }): Promise<{ messageId: string; status: PrivateRunStatus }[]> {
  const ids = messageIds.filter(isUuid);
  if (ids.length === 0) return [];
  const { rows } = await db.query<{ message_id: string; status: PrivateRunStatus; job_status: JobStatus | null }>(
    `SELECT r.message_id::text AS message_id, r.status,
            (SELECT j.status FROM agent.jobs j WHERE j.kind = 'private_deep_research' AND j.input->>'messageId' = r.message_id::text
              ORDER BY j.created_at DESC LIMIT 1) AS job_status
       FROM agent.private_runs r WHERE r.message_id = ANY($1::uuid[]) AND r.owner = $2`,
    [ids, owner],
  );
  return rows.map((r) => ({ messageId: r.message_id, status: recordWireStatus(r.status, r.job_status) }));
}

/**
 * A private run as its starter, holding its recovery key, sees it: null when the id is unknown,
 * belongs to another key or was started by another owner (indistinguishable on purpose), else its
 * status and, when completed, the result opened from storage (the route seals it to the poll's
 * ephemeral key).
 */
export async function readPrivateRun({ db, messageId, recoveryKey, owner }: { db: Queryable; messageId: string; recoveryKey: string; owner: string }) {
  const { lookupId, storageKey } = deriveRecoveryKeys(nativePrimitives, recoveryKey);
  const run = await readRun(db, { messageId, owner, lookupId });
  if (!run) return null;
  if (run.status === "completed") return { status: run.status, result: (decryptAtRest(nativePrimitives, storageKey, run.sealed) as RunState).result! };
  if (run.status === "failed") return { status: run.status, error: run.error ?? "The private research run failed" };
  return { status: run.status };
}

/**
 * Private deep research, inside the enclave. The job row holds the client's envelope; the worker
 * opens it for the recovery key, reads the run's encrypted state (so a run taken over after a
 * crash resumes after its saved iterations), researches like a plain turn, and saves every
 * iteration and the final result encrypted under the recovery key. Its searches follow the rule of
 * private literature search: only search queries leave the enclave, and only when private
 * literature is enabled; otherwise the engine it is given holds the local library alone. Its model,
 * if any, is the private one (PRIVATE_LLM_BASE_URL, an attested endpoint): the question and the
 * evidence are never sent to any other.
 */
export function createPrivateDeepResearchHandler({
  db,
  enclaveKey,
  engine,
  iterations,
  budgetSeconds,
  llm = null,
}: {
  db: Queryable;
  enclaveKey: () => Promise<EnclaveKey>;
  engine: Omit<EngineDeps, "progress" | "signal">;
  iterations: number;
  budgetSeconds: number;
  /** The private model (config.enclave.llm), never LLM_BASE_URL's. */
  llm?: LlmSettings | null;
}): JobHandler<"private_deep_research"> {
  return async (job, { progress, signal }) => {
    const { envelope, messageId } = job.input;
    const { plaintext } = await openEnvelopeInJob(enclaveKey, envelope, encryptedDeepResearchStartPlaintextSchema, "deep-research request");
    const { lookupId, storageKey } = deriveRecoveryKeys(nativePrimitives, plaintext.recoveryKey);
    const { rows } = await db.query<{ status: PrivateRunStatus; sealed: string }>("SELECT status, sealed FROM agent.private_runs WHERE message_id = $1 AND lookup_id = $2", [
      messageId,
      lookupId,
    ]);
    const row = rows[0];
    if (!row) throw new JobFailure("The private research run is unknown");
    if (row.status === "completed" || row.status === "failed") return { skipped: true };
    const state = decryptAtRest(nativePrimitives, storageKey, row.sealed) as RunState;
    const write = async (status: PrivateRunStatus, next: RunState, error: string | null = null) => {
      await db.query("UPDATE agent.private_runs SET status = $2, sealed = $3, error = $4, updated_at = now() WHERE message_id = $1", [
        messageId,
        status,
        encryptAtRest(nativePrimitives, storageKey, next),
        error,
      ]);
    };
    try {
      await write("running", state);
      const { result, world, done } = await researchTurn({
        question: state.question,
        done: state.iterations,
        world: state.world,
        engine,
        iterations,
        budgetSeconds,
        ids: { conversationId: messageId, messageId },
        progress,
        signal,
        state: async (sessionStatus) => void (state.sessionStatus = sessionStatus),
        save: (done, world) => write("running", { ...state, iterations: done, world }),
        llm,
      });
      const sessionStatus = finishedStatus(done.length, result.references.length);
      const final: PrivateRunResult = { messageId, status: "completed", reply: result.answer, citations: result.references, worldState: world, quality: result.quality, sessionStatus };
      await write("completed", { ...state, iterations: done, world, sessionStatus, result: final });
      return { messageId };
    } catch (err) {
      if (signal.aborted) throw err;
      const message =
        err instanceof NoSourceAnsweredError ? `${err.message} The private research run failed; nothing was charged for it.` : "The private research run failed; nothing was charged for it";
      await db.query("UPDATE agent.private_runs SET status = 'failed', error = $2, updated_at = now() WHERE message_id = $1", [messageId, message]);
      throw new JobFailure(message);
    }
  };
}
