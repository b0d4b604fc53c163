"use client";
/**
 * One lifecycle for every paid request of the page (chat, literature, deep research; plain or
 * sealed): claim the page's payment lock, pay, follow the job until it ends, resume it after a
 * reload, stop following it, retry a follow that gave up. The panels say only how to pay and how
 * to follow; the states, the lock, the leave warning and the resume are the same for all of them.
 */
import { useCallback, useEffect, useRef, useState } from "react";
import { warnBeforeLeaving } from "@/lib/web/leave-warning";
import { anotherPaymentUnderWay, claimPayment, type PayingPanel } from "@/lib/web/payment-lock";
import { describeThrown } from "@/lib/web/describe-thrown";
import { UserFacingError } from "@/lib/web/user-facing-error";

/** A job that has ended for good (failed, cancelled, timed out): there is nothing to retry. */
export class JobEndedError extends UserFacingError {
  constructor(message: string, action: string) {
    super(message, { action });
    this.name = "JobEndedError";
  }
}

export type JobPhase<R> =
  | { kind: "idle" }
  | { kind: "paying" }
  | { kind: "working"; stage: string; percent: number | null }
  | { kind: "done"; result: R }
  | { kind: "failed"; error: UserFacingError; retry: (() => void) | null };

/** What following a job may report while it runs. */
type FollowContext = { signal: AbortSignal; report: (stage: string, percent?: number | null) => void };

/**
 * A paid job being followed. `handle` is what a reload needs to follow it again (null for sealed
 * jobs, whose opening key lives only in this page's memory: the page then asks before it is left).
 */
export type StartedJob<H, R> = {
  handle: H | null;
  /** The question, for the banner that says what is being followed after a reload. */
  question: string;
  sealed: boolean;
  firstStage: string;
  follow: (context: FollowContext) => Promise<R>;
  /** Called once if the job ends for good without a result (nothing left to retry), with why. */
  ended?: (error: UserFacingError) => void;
  /** The research thread's entry the job answers: its answer says which turn it is. */
  entryId?: string;
};

/** A job remembered for this tab: followed again after a reload. */
export type PendingJob<H> = { handle: H; question: string };

function readPending<H>(key: string): PendingJob<H> | null {
  try {
    const value = JSON.parse(sessionStorage.getItem(key) ?? "null") as PendingJob<H> | null;
    return value && typeof value === "object" && "handle" in value && typeof value.question === "string" ? value : null;
  } catch {
    return null;
  }
}

export type PaidJobOptions<H, R> = {
  /** The panel: the payment lock's holder, and `lra:pending:<panel>` in sessionStorage. */
  panel: PayingPanel;
  /** How to follow a job remembered before a reload. */
  resume: (pending: PendingJob<H>) => StartedJob<H, R>;
  /** Called once a job has delivered its result. */
  onDone?: (result: R, job: StartedJob<H, R>) => void;
  /** Called when a job remembered before a reload is followed again. */
  onResume?: (pending: PendingJob<H>) => void;
};

export type PaidJob<H, R> = {
  phase: JobPhase<R>;
  busy: boolean;
  /** The job remembered before a reload, while it is followed again (for the banner). */
  resumed: PendingJob<H> | null;
  /**
   * Pays and follows: `pay` runs with the lock held and returns the started job once the paid
   * request is answered. `sealed` asks before the page is left from the signature on.
   */
  run: (pay: () => Promise<StartedJob<H, R> | null>, options?: { sealed?: boolean }) => Promise<void>;
  /** Stops following (nothing more is polled; the job is forgotten by this tab). */
  stop: () => void;
  /** Shows a failure that happened before anything was paid. */
  refuse: (error: UserFacingError) => void;
};

const storageKey = (panel: PayingPanel) => `lra:pending:${panel}`;

/** The paid-job lifecycle of one panel. */
export function usePaidJob<H, R>(options: PaidJobOptions<H, R>): PaidJob<H, R> {
  const [phase, setPhase] = useState<JobPhase<R>>({ kind: "idle" });
  const [resumed, setResumed] = useState<PendingJob<H> | null>(null);
  const busy = phase.kind === "paying" || phase.kind === "working";
  const latest = useRef(options);
  useEffect(() => {
    latest.current = options;
  });
  const polling = useRef<AbortController | null>(null);
  const leaveWarning = useRef<(() => void) | null>(null);
  const key = storageKey(options.panel);

  const keepWarning = () => void (leaveWarning.current ??= warnBeforeLeaving());
  const stopWarning = () => {
    leaveWarning.current?.();
    leaveWarning.current = null;
  };
  /** Retry follows the same job again through the current `follow`. */
  const followAgain = useRef<(job: StartedJob<H, R>) => Promise<void>>(async () => undefined);

  const follow = useCallback(
    async (job: StartedJob<H, R>) => {
      if (job.handle !== null) sessionStorage.setItem(key, JSON.stringify({ handle: job.handle, question: job.question } satisfies PendingJob<H>));
      if (job.sealed) keepWarning();
      polling.current?.abort();
      const controller = new AbortController();
      polling.current = controller;
      setPhase({ kind: "working", stage: job.firstStage, percent: null });
      const report = (stage: string, percent: number | null = null) => {
        if (!controller.signal.aborted) setPhase({ kind: "working", stage, percent });
      };
      try {
        const result = await job.follow({ signal: controller.signal, report });
        if (controller.signal.aborted) return;
        sessionStorage.removeItem(key);
        stopWarning();
        setResumed(null);
        setPhase({ kind: "done", result });
        latest.current.onDone?.(result, job);
      } catch (err) {
        if (controller.signal.aborted) return;
        const error = describeThrown(err);
        // Ended for good: the job said so (a sealed one too, see sealed-job.ts), or the service no longer knows it.
        const final = err instanceof JobEndedError || error.status === 404;
        if (final) {
          sessionStorage.removeItem(key);
          stopWarning();
          setResumed(null);
          job.ended?.(error);
        }
        setPhase({ kind: "failed", error, retry: final ? null : () => void followAgain.current(job) });
      }
    },
    [key],
  );
  useEffect(() => {
    followAgain.current = follow;
  }, [follow]);

  // A reload during a plain job follows it again instead of losing what was paid for.
  const resumedOnce = useRef(false);
  useEffect(() => {
    if (resumedOnce.current) return;
    resumedOnce.current = true;
    const pending = readPending<H>(key);
    if (!pending) return;
    const timer = setTimeout(() => {
      setResumed(pending);
      latest.current.onResume?.(pending);
      void follow(latest.current.resume(pending));
    }, 0);
    return () => clearTimeout(timer);
  }, [follow, key]);

  // Stop polling (and asking before leaving) when the panel goes away.
  useEffect(
    () => () => {
      polling.current?.abort();
      leaveWarning.current?.();
    },
    [],
  );

  const run = useCallback(
    async (pay: () => Promise<StartedJob<H, R> | null>, { sealed = false }: { sealed?: boolean } = {}) => {
      // Claimed before anything is awaited: `busy` is not rendered yet for clicks in the same task.
      const payment = claimPayment(latest.current.panel);
      if (!payment.ok) {
        // A repeated click here changes nothing; a click while another panel pays is told why.
        if (payment.heldBy !== latest.current.panel) setPhase({ kind: "failed", error: anotherPaymentUnderWay(), retry: null });
        return;
      }
      // A new job replaces the one followed before, whose answer (and its Retry) is given up.
      polling.current?.abort();
      stopWarning();
      sessionStorage.removeItem(key);
      setResumed(null);
      try {
        setPhase({ kind: "paying" });
        // From the signature on, a sealed answer opens only with the key this page holds.
        if (sealed) keepWarning();
        const job = await pay();
        payment.release();
        if (!job) {
          setPhase({ kind: "idle" });
          return;
        }
        await follow(job);
      } catch (err) {
        // Failed before the job was accepted: there is no answer to keep the page for.
        stopWarning();
        setPhase({ kind: "failed", error: describeThrown(err), retry: null });
      } finally {
        payment.release();
      }
    },
    [follow, key],
  );

  const stop = useCallback(() => {
    polling.current?.abort();
    sessionStorage.removeItem(key);
    stopWarning();
    setResumed(null);
    setPhase({ kind: "idle" });
  }, [key]);

  const refuse = useCallback((error: UserFacingError) => setPhase({ kind: "failed", error, retry: null }), []);

  return { phase, busy, resumed, run, stop, refuse };
}
