"use client";

import { useEffect, useRef } from "react";
import type { JobPhase, PendingJob } from "@/lib/web/paid-job";
import type { AskRequest } from "./context";
import styles from "./job-status.module.css";
import { ErrorNote, Progress } from "./status-bits";

/**
 * A paid job's state in a panel: the signature awaited, the work in words, the failure with what
 * to do, the banner of a job followed again after a reload, and a way to stop following.
 */
export function JobStatus<H, R>({ phase, resumed, what, onStop }: { phase: JobPhase<R>; resumed: PendingJob<H> | null; what: string; onStop?: () => void }) {
  return (
    <>
      {resumed && phase.kind === "working" ? (
        <p className={styles.banner} role="status" data-testid="resume-banner">
          Following your {what} “{resumed.question.length > 120 ? `${resumed.question.slice(0, 119)}…` : resumed.question}”, paid before the page was reloaded.
        </p>
      ) : null}
      {phase.kind === "paying" ? <Progress stage="Waiting for the payment signature…" percent={null} /> : null}
      {phase.kind === "working" ? (
        <div className={styles.working} data-testid="job-working">
          <Progress stage={phase.stage} percent={phase.percent} />
          {onStop ? (
            <button type="button" className="link-button" onClick={onStop}>
              Stop following
            </button>
          ) : null}
        </div>
      ) : null}
      {phase.kind === "failed" ? <ErrorNote error={phase.error} retry={phase.retry} /> : null}
    </>
  );
}

/** Brings the result into view when it arrives (the form may be a screen above it on a phone). */
export function useScrollToResult(arrived: boolean) {
  const ref = useRef<HTMLDivElement | null>(null);
  useEffect(() => {
    if (!arrived || !ref.current) return;
    const smooth = !window.matchMedia("(prefers-reduced-motion: reduce)").matches;
    ref.current.scrollIntoView({ block: "start", behavior: smooth ? "smooth" : "auto" });
  }, [arrived]);
  return ref;
}

/** Runs `onAsk` once per suggested follow-up (each click brings a new nonce), after the render that brought it. */
export function useAskRequest(ask: AskRequest | null | undefined, onAsk: (ask: AskRequest) => void) {
  const asked = useRef<number | null>(null);
  const latest = useRef(onAsk);
  useEffect(() => {
    latest.current = onAsk;
  });
  useEffect(() => {
    if (!ask || asked.current === ask.nonce) return;
    asked.current = ask.nonce;
    const timer = setTimeout(() => latest.current(ask), 0);
    return () => clearTimeout(timer);
  }, [ask]);
}
