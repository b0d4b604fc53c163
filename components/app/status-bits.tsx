"use client";

import type { UserFacingError } from "@/lib/web/user-facing-error";

/** Progress of long work: the stage in words and, when known, a bar. Fixed height: no layout shift. */
export function Progress({ stage, percent }: { stage: string; percent: number | null }) {
  return (
    <div className="progress" data-testid="progress">
      <span>{stage}</span>
      <progress max={100} value={percent ?? undefined} aria-label="Progress">
        {percent ?? ""}
      </progress>
      {percent !== null ? <span className="muted">{percent}%</span> : null}
    </div>
  );
}

/** A failure where it happened: what went wrong, what to do, and a retry when one makes sense. */
export function ErrorNote({ error, retry }: { error: UserFacingError; retry?: (() => void) | null }) {
  return (
    <div className="error-note" role="alert" data-testid="error-note">
      <strong>{error.message}</strong>
      {error.action ? <span> {error.action}</span> : null}
      {retry ? (
        <button type="button" onClick={retry}>
          Retry
        </button>
      ) : null}
    </div>
  );
}
