import type { ChatResult, LiteratureJobResult, LiteratureQueryInput } from "@/lib/shared/contracts";
import type { PaidOperation } from "@/lib/shared/operations";
import type { EnclaveKeyInfo, PrivateKind, PrivateResearchResult, Started } from "@/lib/client/sealing/client";
import { transactionOf } from "@/lib/web/api-requests";
import { describeThrown } from "@/lib/web/describe-thrown";
import { JobEndedError, type StartedJob } from "@/lib/web/paid-job";
import { endsSealedJob } from "@/lib/web/private-failures";
import type { ThreadKind, ThreadResult } from "@/lib/web/thread";
import type { Payer } from "@/lib/web/types";
import type { AppContext, ThreadApi } from "./context";

/** Where each sealed request enters the thread, what it is recorded as, and whether it is settled when accepted (deep research: on delivery). */
const SEALED = {
  chat: { thread: "chat", operation: "chatEncrypted", settledWhenAccepted: true },
  literature: { thread: "literature", operation: "literatureEncrypted", settledWhenAccepted: true },
  "deep-research": { thread: "research", operation: "deepResearchEncrypted", settledWhenAccepted: false },
} as const satisfies Record<PrivateKind, { thread: ThreadKind; operation: PaidOperation["id"]; settledWhenAccepted: boolean }>;

/** What each kind seals (private deep research always carries the recovery key its polls need). */
type Plaintext = { chat: { message: string; recoveryKey?: string }; literature: LiteratureQueryInput; "deep-research": { message: string; recoveryKey: string } };
/** Each kind's answer, as the sealing client opens it. */
type Opened = { chat: ChatResult; literature: LiteratureJobResult; "deep-research": PrivateResearchResult };

type SealingClient = typeof import("@/lib/client/sealing/client");
type Follow = { gateway: string; onStatus: (status: string) => void; signal: AbortSignal; limitMs: number; intervalMs?: number };

/** How the sealing client follows each kind to its opened answer. */
const FOLLOW: { [K in PrivateKind]: (client: SealingClient, started: Started<K>, follow: Follow, sealed: { enclave: EnclaveKeyInfo; plaintext: Plaintext[K] }) => Promise<Opened[K]> } = {
  chat: (client, started, follow) => client.awaitPrivateChat(started, follow),
  literature: (client, started, follow) => client.awaitPrivateLiterature(started, follow),
  "deep-research": (client, started, follow, { enclave, plaintext }) => client.awaitPrivateDeepResearch(started, { ...follow, enclave, recoveryKey: plaintext.recoveryKey }),
};

export type SealedRequest<K extends PrivateKind, R> = {
  kind: K;
  app: Pick<AppContext, "recordPayment" | "markDelivered"> & { thread: Pick<ThreadApi, "begin" | "finish"> };
  payer: Payer;
  enclave: EnclaveKeyInfo;
  plaintext: Plaintext[K];
  question: string;
  /** The progress line once accepted, then each sealed status in words. */
  firstStage: string;
  stage: (status: string) => string;
  /** The opened answer as the panel shows it, and as the thread keeps it; may throw a JobEndedError. */
  open: (opened: Opened[K]) => Promise<{ result: R; outcome: ThreadResult }>;
  /** Paid and accepted: the panel clears its box. */
  onAccepted?: () => void;
  /** Ended without an answer: the question goes back in the panel's box. */
  restore: (question: string) => void;
  limitMs: number;
  intervalMs?: number;
};

/**
 * Private mode's start and follow, the same for every panel: seal the plaintext in this browser to
 * the checked enclave key, pay the encrypted route, record the payment and enter the question in
 * the thread, then follow the job to the answer opened here. A failure polling again could not
 * mend (see endsSealedJob) ends it for good, without a Retry.
 */
export async function startSealedJob<K extends PrivateKind, R>(request: SealedRequest<K, R>): Promise<StartedJob<never, R>> {
  const { kind, app, payer, enclave, plaintext, question } = request;
  const { thread, operation, settledWhenAccepted } = SEALED[kind];
  const client = await import("@/lib/client/sealing/client");
  const started = await client.startPrivate(kind, { gateway: location.origin, payFetch: payer.payFetch, enclave, plaintext });
  const receipt = settledWhenAccepted && payer.receiptOf ? await payer.receiptOf(started.response, client.START_PATHS[kind]).catch((err: unknown) => ({ verified: false as const, problem: `it could not be checked (${err instanceof Error ? err.message : String(err)})` })) : null;
  app.recordPayment(operation, settledWhenAccepted ? { transaction: transactionOf(started.response.headers.get("payment-response")), settled: true, receipt } : { transaction: null, settled: false });
  const entryId = app.thread.begin({ kind: thread, question, payer, sealed: true });
  request.onAccepted?.();
  // An answer that came with the start (a chat's, within the gateway's wait) is not polled again.
  const answeredWhenAccepted = typeof started.body.hpke_response_ciphertext === "string";
  return {
    handle: null,
    question,
    entryId,
    sealed: true,
    firstStage: request.firstStage,
    ended: (error) => {
      app.thread.finish(entryId, { failure: error.message });
      request.restore(question);
    },
    follow: async ({ signal, report }) => {
      const follow: Follow = { gateway: location.origin, onStatus: (status) => report(request.stage(status)), signal, limitMs: request.limitMs, ...(request.intervalMs ? { intervalMs: request.intervalMs } : {}) };
      let opened: Opened[K];
      try {
        opened = await FOLLOW[kind](client, started, follow, { enclave, plaintext });
      } catch (err) {
        if (!endsSealedJob(err, { answeredWhenAccepted })) throw err;
        const { message, action } = describeThrown(err);
        throw new JobEndedError(message, action ?? "Ask again.");
      }
      // Delivered, so a payment deferred to delivery was settled, whatever the panel makes of the answer.
      if (!settledWhenAccepted) app.markDelivered(operation);
      const { result, outcome } = await request.open(opened);
      app.thread.finish(entryId, { outcome });
      return result;
    },
  };
}
