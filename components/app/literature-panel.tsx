"use client";

import { useRef, useState } from "react";
import type { LiteratureJobResult, LiteratureQueryInput } from "@/lib/shared/contracts";
import { sourceTitle } from "@/lib/shared/contracts/source-words";
import { buildLiteratureRequest, FIELD_IDS, INITIAL_LITERATURE_FORM, type LiteratureErrors, type LiteratureField } from "@/lib/web/literature-request";
import { JobEndedError, usePaidJob, type StartedJob } from "@/lib/web/paid-job";
import { readLiteratureResult } from "@/lib/web/read-results";
import { followStatus, freeJson, paidPost } from "@/lib/web/api-requests";
import { UserFacingError } from "@/lib/web/user-facing-error";
import { WHAT_IT_BUYS } from "@/lib/web/what-it-buys";
import { whatWouldHelp, type SearchedWith } from "@/lib/web/what-would-help";
import { useApp, type AskRequest } from "./context";
import { JobStatus, useAskRequest, useScrollToResult } from "./job-status";
import { LiteratureForm } from "./literature-form";
import { LiteratureResults } from "./literature-results";
import { startSealedJob } from "./sealed-job";
import { useSpendCheck } from "./spend-confirm";
import { literatureSources, plannedSources } from "@/lib/shared/contracts/sources";

/** Poll the free job route every second; a literature search may take minutes (deep mode). */
const POLL_MS = 1_000;
const LIMIT_MS = 300_000;

/** A plain search being followed: its thread entry, the job, and where it searches (for the progress words). */
type LiteratureHandle = { entryId: string; jobId: string; sources: string[] };

/** The sources a request searches (lib/shared/contracts/sources.ts, as the agent plans them), for the progress line. */
function sourcesSearched(body: Pick<LiteratureQueryInput, "mode" | "retrievalProfile" | "scope">): string[] {
  return plannedSources(body, literatureSources);
}

/** "searching PubMed and 2 more sources": where the work is, in words. */
function searchingWords(sources: string[]): string {
  const [first, ...rest] = sources;
  if (!first) return "Searching the literature sources";
  return `Searching ${sourceTitle(first)}${rest.length > 0 ? ` and ${rest.length} more source${rest.length === 1 ? "" : "s"}` : ""}, then judging each reference`;
}

function stageOf(status: string | null | undefined, sources: string[]): string {
  if (status === "queued") return "Queued: waiting for a search worker";
  if (status === "pending") return "Sealed: waiting for the enclave";
  if (status === "active") return `Sealed: ${searchingWords(sources).toLowerCase()}`;
  if (status === "completed") return "Opening the results";
  return searchingWords(sources);
}

/** A job result that is final: completed or failed, or (no status at all) one carrying results. */
function isFinal(r: LiteratureJobResult): boolean {
  if (r.status === "completed" || r.status === "failed") return true;
  return !r.status && (r.references != null || r.answer != null);
}

/** A failed search is final: waiting longer does not help, a new search is paid again. */
function settled(result: LiteratureJobResult): LiteratureJobResult {
  if (result.status === "failed") throw new JobEndedError(`The search failed: ${result.error ?? "unknown error"}.`, "Change the question or the options and search again.");
  return result;
}

/** A search, with the question and every option that changes it; $0.03 (or $0.03 sealed). */
export function LiteraturePanel({ ask }: { ask?: AskRequest | null }) {
  const app = useApp();
  const { getPayer, privateMode, recordPayment, thread } = app;
  const [form, setForm] = useState(INITIAL_LITERATURE_FORM);
  const [errors, setErrors] = useState<LiteratureErrors>({});

  const followPlain = (handle: LiteratureHandle, question: string): StartedJob<LiteratureHandle, LiteratureResult> => ({
    handle,
    question,
    entryId: handle.entryId,
    sealed: false,
    firstStage: stageOf("queued", handle.sources),
    // Ended for good without results (failed, or forgotten by the service: 404): the thread says why.
    ended: (error) => endedWithout(handle.entryId, question, error),
    follow: async ({ signal, report }) => {
      const final = await followStatus({
        read: async () => readLiteratureResult(await freeJson(`/api/literature/jobs/${encodeURIComponent(handle.jobId)}`)),
        done: isFinal,
        onUpdate: (r) => {
          if (!isFinal(r)) report(stageOf(r.status, handle.sources));
        },
        intervalMs: POLL_MS,
        limitMs: LIMIT_MS,
        signal,
      });
      return settled(final);
    },
  });

  /** A question that got no results for good goes back in the box (unless another is typed there). */
  const restore = (question: string) => setForm((current) => (current.question.trim() ? current : { ...current, question }));
  /** A search that ended without results: the thread says why, and the question goes back in the box. */
  function endedWithout(entryId: string, question: string, error: Error) {
    thread.finish(entryId, { failure: error.message });
    restore(question);
  }

  /** The results on screen: the question they answer, its thread entry (for its turn), the filters it was asked with. */
  const [shown, setShown] = useState<{ question: string; entryId: string | null; searched: SearchedWith } | null>(null);
  /** The filters of the search being paid for, kept for what would help if it finds nothing. */
  const searching = useRef<SearchedWith>({});
  const spend = useSpendCheck();

  const job = usePaidJob<LiteratureHandle, LiteratureResult>({
    panel: "literature",
    resume: ({ handle, question }) => followPlain(handle, question),
    onDone: (result, started) => {
      if (started.handle) thread.finish(started.handle.entryId, { outcome: { kind: "literature", result } });
      setShown({ question: started.question, entryId: started.entryId ?? null, searched: searching.current });
    },
    onResume: ({ question }) => thread.resumed("literature", question),
  });

  function search(current = form) {
    if (job.busy) return;
    const built = buildLiteratureRequest(current);
    if ("errors" in built) {
      setErrors(built.errors);
      const first = (Object.keys(FIELD_IDS) as LiteratureField[]).find((f) => built.errors[f]);
      if (first) document.getElementById(FIELD_IDS[first])?.focus();
      return;
    }
    setErrors({});
    setForm((f) => ({ ...f, tags: built.tags, tagDraft: "" }));
    const body = built.body;
    const question = body.question;
    const sources = sourcesSearched(body);
    const sealed = privateMode;
    const searched: SearchedWith = { scope: body.scope, dateFrom: body.date_from, dateTo: body.date_to, year: body.year };
    spend.request({ operation: "literature", question, buys: WHAT_IT_BUYS.literature, action: "Running this search", proceed: () => pay(body, sources, sealed, searched) });
  }

  function pay(body: LiteratureQueryInput, sources: string[], sealed: typeof privateMode, searched: SearchedWith) {
    const question = body.question;
    searching.current = searched;
    void job.run(
      async () => {
        const payer = await getPayer();
        if (sealed) {
          return startSealedJob({
            kind: "literature",
            app,
            payer,
            enclave: sealed.enclave,
            plaintext: body,
            question,
            firstStage: stageOf("pending", sources),
            stage: (status) => stageOf(status, sources),
            open: async (opened) => {
              const result = settled(await readLiteratureResult(opened));
              return { result, outcome: { kind: "literature", result } };
            },
            restore,
            limitMs: LIMIT_MS,
          });
        }
        const paid = await paidPost(payer, "/api/literature", body);
        recordPayment("literature", { transaction: paid.transaction, settled: true, receipt: paid.receipt });
        const entryId = thread.begin({ kind: "literature", question, payer, sealed: false });
        const status = paid.body.status;
        // Usually 202 {jobId}; the contract allows an immediate 200 with the result itself.
        if (paid.status === 200 && status !== "queued" && status !== "running") {
          const answered = await readLiteratureResult(paid.body);
          // Nothing to follow, so no handle: the thread gets its outcome here, not in onDone.
          const follow = async () => {
            const result = settled(answered);
            thread.finish(entryId, { outcome: { kind: "literature", result } });
            return result;
          };
          return { handle: null, question, entryId, sealed: false, firstStage: stageOf("completed", sources), ended: (error) => endedWithout(entryId, question, error), follow };
        }
        const jobId = typeof paid.body.jobId === "string" ? paid.body.jobId : "";
        if (!jobId) throw new UserFacingError("The service did not return a job id.", { action: "Try again." });
        return followPlain({ entryId, jobId, sources }, question);
      },
      { sealed: sealed !== null },
    );
  }

  // A suggested follow-up searches here, one click away (its price was on its button).
  useAskRequest(ask, ({ question }) => {
    const next = { ...form, question };
    setForm(next);
    search(next);
  });

  const resultRef = useScrollToResult(job.phase.kind === "done");
  const phase = job.phase;
  return (
    <section aria-labelledby="literature-heading" className="panel" data-testid="literature-panel">
      <h3 id="literature-heading">Literature search</h3>
      <p className="muted small">Ranked, checked references with a short cited answer; a fast search takes a few seconds, a deep one up to a minute.</p>
      <LiteratureForm form={form} setForm={setForm} errors={errors} setErrors={setErrors} busy={job.busy} sealed={privateMode !== null} onSubmit={() => search()} />
      {spend.dialog}
      <div className="outcome" aria-live="polite" ref={resultRef}>
        <JobStatus phase={phase} resumed={job.resumed} what="search" />
        {phase.kind === "done" ? (
          <LiteratureResults
            result={phase.result}
            heading={shown ? { question: shown.question, turn: shown.entryId ? thread.turnOf(shown.entryId) : null } : null}
            help={whatWouldHelp(shown?.searched)}
          />
        ) : null}
      </div>
    </section>
  );
}

type LiteratureResult = LiteratureJobResult;
