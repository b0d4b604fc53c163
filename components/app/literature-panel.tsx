"use client";

import { useEffect, useId, useRef, useState } from "react";
import type { LiteratureJobResult, LiteratureQueryInput, LiteratureReference, LiteratureResultsByTagEntry } from "@/lib/contracts";
import { MAX_QUESTION_CHARS, MAX_RESULTS_LIMIT, MAX_TAG_CHARS, MAX_TAGS } from "@/lib/contracts/limits";
import { describeSourceFailures, failureWords, sourceTitle } from "@/lib/contracts/source-words";
import type { Started } from "@/lib/sealing/client";
import { warnBeforeLeaving } from "@/lib/web/leave-warning";
import { anotherPaymentUnderWay, claimPayment } from "@/lib/web/payment-lock";
import { describeResponse, describeThrown, freeJson, paidPost, pollUntil, privateFailureAction, transactionOf, UserFacingError } from "@/lib/web/requests";
import { AnswerText, evidenceTypeLabel, safeHref, Warnings } from "./answer-view";
import { PriceNote, useApp, type PrivateState } from "./context";
import { ErrorNote, Progress } from "./status-bits";
import styles from "./literature-panel.module.css";

// The contract's limits come from lib/contracts/limits (no zod: the first page load stays small).

/** Poll the free job route every second; a literature search may take minutes (deep mode). */
const POLL_MS = 1_000;
const LIMIT_MS = 300_000;

/** The plain search being followed, kept for this tab so a reload follows it again. */
const PENDING = "lra:pending:literature";

type Mode = "fast" | "deep";
type Scope = "" | "preprints" | "no-preprints" | "trials";
type TagMode = "fanout" | "combined";
type DateFilter = "any" | "years" | "dates";

/**
 * The form. Only the request fields that change the search are offered (docs/literature.md,
 * agent/literature/engine.ts): `sources`, `perSourceLimit`, `allowSourceExpansion` and
 * `sourceProfile` are accepted by the service but ignored, so they are not shown.
 */
type Form = {
  question: string;
  mode: Mode;
  /** retrievalProfile `litqa-recall`: the deep sources with up to 8 query variants. */
  recall: boolean;
  scope: Scope;
  tags: string[];
  /** Text typed in the tag box but not yet added; added on submit so it is not lost. */
  tagDraft: string;
  tagMode: TagMode;
  dateFilter: DateFilter;
  yearFrom: string;
  yearTo: string;
  dateFrom: string;
  dateTo: string;
  maxResults: string;
  filterReferences: boolean;
  includeRejected: boolean;
  /** privacyMode: the agent then never logs the question. */
  keepOutOfLogs: boolean;
};

const INITIAL: Form = {
  question: "",
  mode: "fast",
  recall: false,
  scope: "",
  tags: [],
  tagDraft: "",
  tagMode: "fanout",
  dateFilter: "any",
  yearFrom: "",
  yearTo: "",
  dateFrom: "",
  dateTo: "",
  maxResults: "",
  filterReferences: true,
  includeRejected: false,
  keepOutOfLogs: false,
};

type Field = "question" | "tags" | "yearFrom" | "yearTo" | "dateFrom" | "dateTo" | "maxResults";
type Errors = Partial<Record<Field, string>>;

/** The element each field's error belongs to (focused when it is the first error). */
const FIELD_IDS: Record<Field, string> = {
  question: "literature-question",
  tags: "literature-tag-input",
  yearFrom: "literature-year-from",
  yearTo: "literature-year-to",
  dateFrom: "literature-date-from",
  dateTo: "literature-date-to",
  maxResults: "literature-max-results",
};

/** Length in Unicode code points, as the contract counts `question`. */
const codePoints = (s: string) => [...s].length;

/** A real calendar date written YYYY-MM-DD (browsers without a date picker give free text). */
function isIsoDate(s: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(s)) return false;
  const d = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
}

/** Adds the comma- or line-separated tags of `draft` to `tags`: trimmed, no empties, no duplicates. */
function addTags(tags: string[], draft: string): { tags: string[]; error?: string } {
  const next = [...tags];
  for (const raw of draft.split(/[,\n]/)) {
    const tag = raw.trim();
    if (!tag) continue;
    if (codePoints(tag) > MAX_TAG_CHARS) return { tags, error: `A tag may have at most ${MAX_TAG_CHARS} characters.` };
    if (next.some((t) => t.toLowerCase() === tag.toLowerCase())) continue;
    if (next.length >= MAX_TAGS) return { tags, error: `At most ${MAX_TAGS} tags.` };
    next.push(tag);
  }
  return { tags: next };
}

/**
 * The request the form stands for, or what is wrong with it, in words, per field. Checked here
 * so that nothing is paid for a request the service would refuse with a 400.
 */
function buildRequest(form: Form): { body: LiteratureQueryInput; tags: string[] } | { errors: Errors } {
  const errors: Errors = {};
  const question = form.question.trim();
  if (!question) errors.question = "Enter a question.";
  else if (codePoints(question) > MAX_QUESTION_CHARS) errors.question = `The question is ${codePoints(question)} characters long; at most ${MAX_QUESTION_CHARS}.`;

  const added = addTags(form.tags, form.tagDraft);
  if (added.error) errors.tags = added.error;
  const tags = added.tags;

  let year: string | undefined;
  let dateFrom: string | undefined;
  let dateTo: string | undefined;
  if (form.dateFilter === "years") {
    const from = form.yearFrom.trim();
    const to = form.yearTo.trim();
    const thisYear = new Date().getFullYear();
    if (!from && !to) errors.yearFrom = "Enter the first year, or choose “Any time”.";
    else if (from && !/^\d{4}$/.test(from)) errors.yearFrom = "Write the year with four digits, e.g. 2015.";
    else if (to && !/^\d{4}$/.test(to)) errors.yearTo = "Write the year with four digits, e.g. 2024.";
    else if (!from) errors.yearFrom = "Enter the first year too (for a single year, enter it in both).";
    else if (to && Number(to) < Number(from)) errors.yearTo = "The last year must not come before the first.";
    else {
      // An open end means "up to this year"; the contract's `year` is YYYY or YYYY-YYYY.
      const last = to || String(Math.max(Number(from), thisYear));
      year = last === from ? from : `${from}-${last}`;
    }
  } else if (form.dateFilter === "dates") {
    const from = form.dateFrom.trim();
    const to = form.dateTo.trim();
    if (!from && !to) errors.dateFrom = "Enter a start date, an end date or both, or choose “Any time”.";
    if (from && !isIsoDate(from)) errors.dateFrom = "Enter a real date, written YYYY-MM-DD.";
    if (to && !isIsoDate(to)) errors.dateTo = "Enter a real date, written YYYY-MM-DD.";
    if (!errors.dateFrom && !errors.dateTo && from && to && to < from) errors.dateTo = "The end date must not come before the start date.";
    dateFrom = from || undefined;
    dateTo = to || undefined;
  }

  let maxResults: number | undefined;
  const max = form.maxResults.trim();
  if (max) {
    const n = Number(max);
    if (!/^\d+$/.test(max) || n < 1 || n > MAX_RESULTS_LIMIT) errors.maxResults = `Enter a whole number from 1 to ${MAX_RESULTS_LIMIT}, or leave it empty for the default.`;
    else maxResults = n;
  }

  if (Object.keys(errors).length > 0) return { errors };
  const body: LiteratureQueryInput = {
    question,
    mode: form.mode,
    filterReferences: form.filterReferences,
    includeRejected: form.includeRejected,
    ...(form.recall ? { retrievalProfile: "litqa-recall" as const } : {}),
    ...(form.scope ? { scope: form.scope } : {}),
    ...(tags.length > 0 ? { tags, tagMode: form.tagMode } : {}),
    ...(maxResults !== undefined ? { maxResults } : {}),
    ...(year ? { year } : {}),
    ...(dateFrom ? { date_from: dateFrom } : {}),
    ...(dateTo ? { date_to: dateTo } : {}),
    // Any value turns question logging off (agent/literature/job.ts); "strict" names the intent.
    ...(form.keepOutOfLogs ? { privacyMode: "strict" } : {}),
  };
  return { body, tags };
}

type Phase =
  | { kind: "idle" }
  | { kind: "paying" }
  | { kind: "working"; stage: string }
  | { kind: "done"; result: LiteratureJobResult }
  | { kind: "failed"; error: UserFacingError; retry: (() => void) | null };

/** Job and sealed-request states in words (the job route gives no percentage). */
const STAGES: Record<string, string> = {
  queued: "Queued: waiting for a search worker…",
  running: "Searching the sources and judging each reference…",
  pending: "Sealed: waiting for the enclave…",
  active: "Sealed: the enclave is searching…",
  completed: "Opening the results…",
};
const stageOf = (status: string | null | undefined) => (status ? (STAGES[status] ?? `Status: ${status}`) : "Waiting for the search…");

/** A job result that is final: completed or failed, or (no status at all) one carrying results. */
function isFinal(r: LiteratureJobResult): boolean {
  if (r.status === "completed" || r.status === "failed") return true;
  return !r.status && (r.references != null || r.answer != null);
}

type PrivateFailure = Error & { code?: string; status?: number };
const isPrivateFailure = (err: unknown): err is PrivateFailure => err instanceof Error && err.name === "PrivateModeError";

/**
 * A failure in words. Private-mode failures (PrivateModeError, from the sealing client loaded on
 * demand, so recognised by name) keep their message, except a refused start, which is described
 * like any refused request (403 private literature off, 503 enclave not ready, 402 …).
 */
function describeFailure(err: unknown): UserFacingError {
  if (!isPrivateFailure(err)) return describeThrown(err);
  if (err.code === "request_refused" && err.status) {
    // The client's message is "<path> answered <status>: <error code>".
    const at = err.message.lastIndexOf(": ");
    const code = at >= 0 ? err.message.slice(at + 2).trim() : "";
    const described = describeResponse(err.status, code ? { error: code } : {});
    if (described) return described;
  }
  if (err.code === "key_rotated") return new UserFacingError(err.message, { action: "Switch private mode off and on to fetch the new key, then search again. Nothing was charged." });
  if (err.code === "gave_up") return new UserFacingError(err.message, { action: "Retry to keep waiting: it was paid, and the sealed answer is kept for an hour." });
  return new UserFacingError(err.message, { action: privateFailureAction(err) ?? "Try again." });
}

/** A search, with the question and every option that changes it; $0.03 (or $0.03 sealed). */
export function LiteraturePanel() {
  const { getPayer, privateMode, recordPayment } = useApp();
  const [form, setForm] = useState<Form>(INITIAL);
  const [errors, setErrors] = useState<Errors>({});
  const [phase, setPhase] = useState<Phase>({ kind: "idle" });
  const busy = phase.kind === "paying" || phase.kind === "working";
  /** The poll in progress: a new one (or leaving the page) stops the previous one. */
  const polling = useRef<AbortController | null>(null);
  /**
   * Set while a sealed search is paid for but its answer not opened (in flight, or failed with a
   * Retry): only this page's memory holds the key that opens it, so leaving asks first.
   */
  const leaveWarning = useRef<(() => void) | null>(null);
  const keepWarning = () => void (leaveWarning.current ??= warnBeforeLeaving());
  const stopWarning = () => {
    leaveWarning.current?.();
    leaveWarning.current = null;
  };

  useEffect(() => {
    return () => {
      polling.current?.abort();
      stopWarning();
    };
  }, []);

  // A reload during a plain search follows its (paid) job again instead of losing it.
  const resumed = useRef(false);
  useEffect(() => {
    const pending = sessionStorage.getItem(PENDING);
    if (!pending || resumed.current) return;
    resumed.current = true;
    const timer = setTimeout(() => void follow(pending), 0);
    return () => clearTimeout(timer);
    // Once, on mount.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  function update<K extends keyof Form>(key: K, value: Form[K]) {
    setForm((f) => ({ ...f, [key]: value }));
  }
  function clearError(...fields: Field[]) {
    setErrors((e) => {
      if (!fields.some((f) => e[f])) return e;
      const next = { ...e };
      for (const f of fields) delete next[f];
      return next;
    });
  }

  function newPoll(): AbortController {
    polling.current?.abort();
    const controller = new AbortController();
    polling.current = controller;
    return controller;
  }

  function settle(result: LiteratureJobResult) {
    if (result.status === "failed") {
      // A failed search is final: waiting longer does not help, a new search is paid again.
      setPhase({
        kind: "failed",
        error: new UserFacingError(`The search failed: ${result.error ?? "unknown error"}.`, { action: "Change the question or the options and search again." }),
        retry: null,
      });
    } else {
      setPhase({ kind: "done", result });
    }
  }

  /** Polls the free job route until the search ends; Retry continues with the same (paid) job. */
  async function follow(jobId: string) {
    sessionStorage.setItem(PENDING, jobId);
    const controller = newPoll();
    setPhase({ kind: "working", stage: stageOf("queued") });
    try {
      const final = await pollUntil<LiteratureJobResult>({
        read: async () => (await freeJson(`/api/literature/jobs/${encodeURIComponent(jobId)}`)) as LiteratureJobResult,
        done: isFinal,
        onUpdate: (r) => {
          if (!controller.signal.aborted && !isFinal(r)) setPhase({ kind: "working", stage: stageOf(r.status) });
        },
        intervalMs: POLL_MS,
        limitMs: LIMIT_MS,
        signal: controller.signal,
      });
      if (controller.signal.aborted) return;
      sessionStorage.removeItem(PENDING);
      settle(final);
    } catch (err) {
      if (controller.signal.aborted) return;
      const error = describeThrown(err);
      // An unknown job stays unknown; a timeout or a network hiccup is worth another wait.
      if (error.status === 404) sessionStorage.removeItem(PENDING);
      setPhase({ kind: "failed", error, retry: error.status === 404 ? null : () => void follow(jobId) });
    }
  }

  /** Follows a sealed search and opens its result here; Retry continues with the same request. */
  async function followPrivately(started: Started<"literature">) {
    keepWarning();
    const controller = newPoll();
    setPhase({ kind: "working", stage: stageOf("pending") });
    try {
      const client = await import("@/lib/sealing/client");
      const result = await client.awaitPrivateLiterature(started, {
        gateway: location.origin,
        onStatus: (status) => {
          if (!controller.signal.aborted) setPhase({ kind: "working", stage: stageOf(status) });
        },
        limitMs: LIMIT_MS,
        signal: controller.signal,
      });
      if (controller.signal.aborted) return;
      stopWarning();
      settle(result);
    } catch (err) {
      if (controller.signal.aborted) return;
      // Final: the search itself failed (no HTTP status), or the request is unknown or expired (404).
      const final = isPrivateFailure(err) && err.code === "request_failed" && (err.status === undefined || err.status === 404);
      // Otherwise Retry can still open the paid answer, so leaving keeps asking first.
      if (final) stopWarning();
      setPhase({ kind: "failed", error: describeFailure(err), retry: final ? null : () => void followPrivately(started) });
    }
  }

  async function searchPrivately(body: LiteratureQueryInput, state: PrivateState, releasePayment: () => void) {
    const payer = await getPayer();
    const client = await import("@/lib/sealing/client");
    setPhase({ kind: "paying" });
    // From signing on: the answer will open only with the key this page holds.
    keepWarning();
    const started = await client.startPrivate("literature", { gateway: location.origin, payFetch: payer.payFetch, enclave: state.enclave, plaintext: body });
    releasePayment();
    recordPayment("literatureEncrypted", { transaction: transactionOf(started.response.headers.get("payment-response")), settled: true });
    await followPrivately(started);
  }

  async function search(event: React.FormEvent) {
    event.preventDefault();
    if (busy) return;
    const built = buildRequest(form);
    if ("errors" in built) {
      setErrors(built.errors);
      const first = (Object.keys(FIELD_IDS) as Field[]).find((f) => built.errors[f]);
      if (first) document.getElementById(FIELD_IDS[first])?.focus();
      return;
    }
    // Claimed before anything is awaited: `busy` is not rendered yet for clicks in the same task.
    const payment = claimPayment("literature");
    if (!payment.ok) {
      // A repeated click here changes nothing; a click while another panel pays is told why.
      if (payment.heldBy !== "literature") setPhase({ kind: "failed", error: anotherPaymentUnderWay(), retry: null });
      return;
    }
    setErrors({});
    setForm((f) => ({ ...f, tags: built.tags, tagDraft: "" }));
    // A new search replaces the previous one, whose answer (and its Retry) is given up.
    polling.current?.abort();
    stopWarning();
    sessionStorage.removeItem(PENDING);
    try {
      if (privateMode) {
        await searchPrivately(built.body, privateMode, payment.release);
        return;
      }
      const payer = await getPayer();
      setPhase({ kind: "paying" });
      const paid = await paidPost(payer, "/api/literature", built.body);
      payment.release();
      recordPayment("literature", { transaction: paid.transaction, settled: true });
      const status = paid.body.status;
      // Usually 202 {jobId}; the contract allows an immediate 200 with the result itself.
      if (paid.status === 200 && status !== "queued" && status !== "running") {
        settle(paid.body as LiteratureJobResult);
        return;
      }
      const jobId = typeof paid.body.jobId === "string" ? paid.body.jobId : "";
      if (!jobId) throw new UserFacingError("The service did not return a job id.", { action: "Try again." });
      await follow(jobId);
    } catch (err) {
      // Failed before a sealed search was accepted: there is no answer to keep the page for.
      stopWarning();
      setPhase({ kind: "failed", error: describeFailure(err), retry: null });
    } finally {
      payment.release();
    }
  }

  function addDraftTags() {
    const added = addTags(form.tags, form.tagDraft);
    if (added.error) {
      setErrors((e) => ({ ...e, tags: added.error }));
      return;
    }
    clearError("tags");
    setForm((f) => ({ ...f, tags: added.tags, tagDraft: "" }));
  }

  const wide = form.mode === "deep" || form.recall;
  const hasTags = form.tags.length > 0 || form.tagDraft.trim().length > 0;
  const errorProps = (field: Field) => ({
    "aria-invalid": errors[field] ? true : undefined,
    "aria-describedby": errors[field] ? `${FIELD_IDS[field]}-error` : undefined,
  });
  const fieldError = (field: Field) =>
    errors[field] ? (
      <p id={`${FIELD_IDS[field]}-error`} className={styles.fieldError}>
        {errors[field]}
      </p>
    ) : null;

  return (
    <section aria-labelledby="literature-heading" className="panel" data-testid="literature-panel">
      <h3 id="literature-heading">Literature search</h3>
      <form onSubmit={search} noValidate>
        <label htmlFor={FIELD_IDS.question}>Your question</label>
        <textarea
          id={FIELD_IDS.question}
          value={form.question}
          onChange={(e) => {
            update("question", e.target.value);
            clearError("question");
          }}
          maxLength={MAX_QUESTION_CHARS}
          rows={3}
          placeholder="Does rapamycin extend lifespan in mice?"
          required
          aria-required
          {...errorProps("question")}
        />
        <p className={styles.counter} aria-hidden="true">
          {codePoints(form.question)} / {MAX_QUESTION_CHARS}
        </p>
        {fieldError("question")}

        <div className={styles.options}>
          <fieldset className={styles.group}>
            <legend>Depth</legend>
            <label className={styles.choice}>
              <input type="radio" name="literature-mode" value="fast" checked={form.mode === "fast"} onChange={() => update("mode", "fast")} />
              <span>Fast: PubMed, Europe PMC and the local library; 10 results by default</span>
            </label>
            <label className={styles.choice}>
              <input type="radio" name="literature-mode" value="deep" checked={form.mode === "deep"} onChange={() => update("mode", "deep")} />
              <span>Deep: adds ClinicalTrials.gov, Crossref and OpenAlex, more query variants; 25 results by default</span>
            </label>
            <label className={styles.choice}>
              <input type="checkbox" checked={form.recall} onChange={(e) => update("recall", e.target.checked)} />
              <span>Favour recall: the deep sources with up to 8 query variants (retrieval profile “litqa-recall”)</span>
            </label>
          </fieldset>

          <fieldset className={styles.group}>
            <legend>What to search</legend>
            <label htmlFor="literature-scope">Scope</label>
            <select id="literature-scope" value={form.scope} onChange={(e) => update("scope", e.target.value as Scope)}>
              <option value="">Full index</option>
              <option value="preprints">Preprints only</option>
              <option value="no-preprints">Exclude preprints</option>
              <option value="trials">Clinical trials only (ClinicalTrials.gov)</option>
            </select>
            <label htmlFor={FIELD_IDS.maxResults}>Maximum results</label>
            <input
              id={FIELD_IDS.maxResults}
              type="number"
              inputMode="numeric"
              min={1}
              max={MAX_RESULTS_LIMIT}
              step={1}
              value={form.maxResults}
              placeholder={`${wide ? 25 : 10} (default)`}
              onChange={(e) => {
                update("maxResults", e.target.value);
                clearError("maxResults");
              }}
              {...errorProps("maxResults")}
            />
            {fieldError("maxResults")}
          </fieldset>

          <fieldset className={styles.group}>
            <legend>Tracked terms (tags)</legend>
            <label htmlFor={FIELD_IDS.tags}>Add tags</label>
            <div className={styles.tagEntry}>
              <input
                id={FIELD_IDS.tags}
                type="text"
                value={form.tagDraft}
                placeholder="e.g. rapamycin, metformin"
                autoComplete="off"
                onChange={(e) => {
                  update("tagDraft", e.target.value);
                  clearError("tags");
                }}
                onKeyDown={(e) => {
                  // Enter adds the tag here rather than submitting (and paying for) the search.
                  if (e.key === "Enter" && !e.nativeEvent.isComposing) {
                    e.preventDefault();
                    addDraftTags();
                  }
                }}
                {...errorProps("tags")}
              />
              <button type="button" onClick={addDraftTags} disabled={!form.tagDraft.trim()}>
                Add tag
              </button>
            </div>
            <p className={styles.hint}>Separate several with commas; up to {MAX_TAGS}.</p>
            {fieldError("tags")}
            {form.tags.length > 0 ? (
              <ul className={styles.tagList} aria-label="Tags">
                {form.tags.map((tag) => (
                  <li key={tag} className={styles.tag}>
                    <span>{tag}</span>
                    <button type="button" aria-label={`Remove tag ${tag}`} onClick={() => update("tags", form.tags.filter((t) => t !== tag))}>
                      ×
                    </button>
                  </li>
                ))}
              </ul>
            ) : null}
            <fieldset className={styles.group} disabled={!hasTags}>
              <legend>How to search the tags</legend>
              <label className={styles.choice}>
                <input type="radio" name="literature-tag-mode" value="fanout" checked={form.tagMode === "fanout"} onChange={() => update("tagMode", "fanout")} />
                <span>Each on its own (fanout), with coverage reported per tag</span>
              </label>
              <label className={styles.choice}>
                <input type="radio" name="literature-tag-mode" value="combined" checked={form.tagMode === "combined"} onChange={() => update("tagMode", "combined")} />
                <span>Combined: added to the question&apos;s terms in one search</span>
              </label>
            </fieldset>
          </fieldset>

          <fieldset className={styles.group}>
            <legend>Publication dates</legend>
            {(
              [
                ["any", "Any time"],
                ["years", "Publication years"],
                ["dates", "Date range"],
              ] as const
            ).map(([value, text]) => (
              <label key={value} className={styles.choice}>
                <input
                  type="radio"
                  name="literature-date-filter"
                  value={value}
                  checked={form.dateFilter === value}
                  onChange={() => {
                    update("dateFilter", value);
                    clearError("yearFrom", "yearTo", "dateFrom", "dateTo");
                  }}
                />
                <span>{text}</span>
              </label>
            ))}
            {/* Years or dates, not both: the service lets explicit dates override the years side by side, so a mix says nothing a date range cannot. */}
            {form.dateFilter === "years" ? (
              <div className={styles.pair}>
                <div>
                  <label htmlFor={FIELD_IDS.yearFrom}>First year</label>
                  <input
                    id={FIELD_IDS.yearFrom}
                    type="number"
                    inputMode="numeric"
                    min={1800}
                    max={9999}
                    placeholder="2015"
                    value={form.yearFrom}
                    onChange={(e) => {
                      update("yearFrom", e.target.value);
                      clearError("yearFrom", "yearTo");
                    }}
                    {...errorProps("yearFrom")}
                  />
                  {fieldError("yearFrom")}
                </div>
                <div>
                  <label htmlFor={FIELD_IDS.yearTo}>Last year</label>
                  <input
                    id={FIELD_IDS.yearTo}
                    type="number"
                    inputMode="numeric"
                    min={1800}
                    max={9999}
                    placeholder="this year"
                    value={form.yearTo}
                    onChange={(e) => {
                      update("yearTo", e.target.value);
                      clearError("yearFrom", "yearTo");
                    }}
                    {...errorProps("yearTo")}
                  />
                  {fieldError("yearTo")}
                </div>
              </div>
            ) : null}
            {form.dateFilter === "dates" ? (
              <div className={styles.pair}>
                <div>
                  <label htmlFor={FIELD_IDS.dateFrom}>From</label>
                  <input
                    id={FIELD_IDS.dateFrom}
                    type="date"
                    value={form.dateFrom}
                    onChange={(e) => {
                      update("dateFrom", e.target.value);
                      clearError("dateFrom", "dateTo");
                    }}
                    {...errorProps("dateFrom")}
                  />
                  {fieldError("dateFrom")}
                </div>
                <div>
                  <label htmlFor={FIELD_IDS.dateTo}>To</label>
                  <input
                    id={FIELD_IDS.dateTo}
                    type="date"
                    value={form.dateTo}
                    onChange={(e) => {
                      update("dateTo", e.target.value);
                      clearError("dateFrom", "dateTo");
                    }}
                    {...errorProps("dateTo")}
                  />
                  {fieldError("dateTo")}
                </div>
              </div>
            ) : null}
            {form.dateFilter !== "any" ? <p className={styles.hint}>An undated record fails a date filter; one known only by its year is judged by the year.</p> : null}
          </fieldset>

          <fieldset className={styles.group}>
            <legend>Which references</legend>
            <label className={styles.choice}>
              <input type="radio" name="literature-filter" value="filtered" checked={form.filterReferences} onChange={() => update("filterReferences", true)} />
              <span>Filtered: only references that pass the relevance checks</span>
            </label>
            <label className={styles.choice}>
              <input type="radio" name="literature-filter" value="raw" checked={!form.filterReferences} onChange={() => update("filterReferences", false)} />
              <span>Raw: every candidate, accepted first, each with its score</span>
            </label>
            <label className={styles.choice}>
              <input type="checkbox" checked={form.includeRejected} onChange={(e) => update("includeRejected", e.target.checked)} />
              <span>Also list the rejected candidates, with the reason for each</span>
            </label>
          </fieldset>

          <fieldset className={styles.group}>
            <legend>Privacy</legend>
            <label className={styles.choice}>
              <input type="checkbox" checked={form.keepOutOfLogs} onChange={(e) => update("keepOutOfLogs", e.target.checked)} />
              <span>Keep my question out of the service&apos;s logs</span>
            </label>
            <p className={styles.hint}>
              {privateMode
                ? "Private mode is on: the question and the answer are sealed; only the search queries reach the literature sources."
                : "The search queries always reach the literature sources (PubMed, Europe PMC, …)."}
            </p>
          </fieldset>
        </div>

        <PriceNote operation="literature" buys="one search: ranked, checked references with an extractive cited answer" />
        <button type="submit" disabled={busy}>
          {busy ? "Searching…" : "Pay and search"}
        </button>
      </form>

      <div className="outcome" aria-live="polite">
        {phase.kind === "paying" ? <Progress stage="Waiting for the payment signature…" percent={null} /> : null}
        {phase.kind === "working" ? <Progress stage={phase.stage} percent={null} /> : null}
        {phase.kind === "failed" ? <ErrorNote error={phase.error} retry={phase.retry} /> : null}
        {phase.kind === "done" ? <LiteratureResults result={phase.result} /> : null}
      </div>
    </section>
  );
}

/* ---------- Results ---------- */

/** Reading fields the contract does not type (extra reference fields, rejected items). */
const text = (v: unknown): string | null => (typeof v === "string" && v.trim() ? v : null);
const num = (v: unknown): number | null => (typeof v === "number" && Number.isFinite(v) ? v : null);
const texts = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === "string" && x.trim() !== "") : []);
const record = (v: unknown): Record<string, unknown> => (v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : {});

const sourceName = sourceTitle;

const REASON_LABELS: Record<string, string> = {
  retracted: "retracted",
  out_of_date_range: "outside the dates",
  preprint_excluded: "preprint (excluded)",
  not_a_trial: "not a trial",
  off_topic: "off topic (relevance below 0.4)",
};
const FLAG_LABELS: Record<string, string> = {
  retracted: "retracted",
  preprint: "preprint",
  no_abstract: "no abstract",
  animal_only: "animal only",
  trial: "trial",
  derived_title: "title derived",
  off_topic: "off topic",
};
const words = (s: string) => s.replace(/_/g, " ");
const reasonLabel = (s: string) => REASON_LABELS[s] ?? words(s);
const flagLabel = (s: string) => FLAG_LABELS[s] ?? words(s);

/** The [N] of a reference, when its id is one (the answer's markers use it). */
function ordinalOf(id: unknown): number | null {
  const n = typeof id === "number" ? id : typeof id === "string" && /^\d+$/.test(id) ? Number(id) : NaN;
  return Number.isInteger(n) && n > 0 ? n : null;
}
const anchorOf = (ordinal: number) => `literature-ref-${ordinal}`;

/** Where to read a reference: PubMed by PMID, the DOI (and the journal version of a preprint), its own URL. */
function referenceLinks(ref: Record<string, unknown>): { href: string; text: string }[] {
  const out: { href: string; text: string }[] = [];
  const pmid = text(ref.pmid);
  if (pmid && /^\d+$/.test(pmid)) out.push({ href: `https://pubmed.ncbi.nlm.nih.gov/${pmid}/`, text: `PubMed ${pmid}` });
  const doiLink = (doi: string | null, label: string) => {
    if (!doi || !/^10\.\d+\/\S+$/.test(doi)) return;
    const href = safeHref(`https://doi.org/${doi.split("/").map(encodeURIComponent).join("/")}`);
    if (href) out.push({ href, text: label });
  };
  const doi = text(ref.doi);
  doiLink(doi, `DOI ${doi}`);
  const published = text(ref.publishedDoi);
  if (published !== doi) doiLink(published, "Published version");
  const own = safeHref(text(ref.url));
  if (own && !out.some((l) => l.href === own)) out.push({ href: own, text: ref.source === "clinicaltrials" ? "Trial record" : "Source record" });
  return out;
}

function LinkRow({ links }: { links: { href: string; text: string }[] }) {
  if (links.length === 0) return null;
  return (
    <div className={styles.links}>
      {links.map((l) => (
        <a key={l.href} href={l.href} target="_blank" rel="noopener noreferrer">
          {l.text}
        </a>
      ))}
    </div>
  );
}

/** One reference: title as text, date, where from, score, terms, flags, design, verification, links. */
function ReferenceItem({ reference, raw }: { reference: LiteratureReference; raw: boolean }) {
  const ref = reference as Record<string, unknown>;
  const ordinal = ordinalOf(reference.id);
  const relevance = reference.relevance;
  const accepted = relevance?.accepted ?? true;
  const when = reference.item_date ?? (reference.year != null ? String(reference.year) : null);
  const sources = texts(ref.sources);
  const from = [text(ref.journal), sources.length > 0 ? sources.map(sourceName).join(", ") : reference.source ? sourceName(reference.source) : null, text(ref.label)].filter(Boolean);
  const evidenceType = text(ref.evidenceType);
  const verification = text(ref.verification);
  const confidence = num(ref.confidence);
  const why = [text(ref.evidenceReason), text(ref.verificationReason), text(ref.confidenceReason)].filter(Boolean);
  return (
    <li
      className={accepted ? styles.item : `${styles.item} ${styles.below}`}
      id={ordinal ? anchorOf(ordinal) : undefined}
      value={ordinal ?? undefined}
      data-testid="literature-result"
    >
      <span className={styles.title}>{reference.title}</span>
      {when ? <span className="muted"> ({when})</span> : null}
      {from.length > 0 ? <div className={styles.detail}>{from.join(" · ")}</div> : null}
      <div className={styles.meta}>
        {raw || !accepted ? <span className={`chip ${accepted ? styles.accepted : styles.notAccepted}`}>{accepted ? "accepted" : "not accepted"}</span> : null}
        {relevance ? <span className="chip">relevance {relevance.score.toFixed(2)}</span> : null}
        {evidenceType ? <span className="chip">{evidenceTypeLabel(evidenceType)}</span> : null}
        {verification ? <span className={`chip verification-${verification}`}>{verification}</span> : null}
        {confidence !== null ? <span className="chip">confidence {Math.round(confidence * 100)}%</span> : null}
        {(relevance?.flags ?? []).map((f) => (
          <span key={f} className={`chip ${styles.flag}`}>
            {flagLabel(f)}
          </span>
        ))}
      </div>
      {relevance && relevance.matchedTerms.length > 0 ? <div className={styles.detail}>Matched terms: {relevance.matchedTerms.join(", ")}</div> : null}
      {relevance?.reason ? <div className={styles.detail}>Rejected: {reasonLabel(relevance.reason)}</div> : null}
      {why.length > 0 ? <div className={styles.detail}>{why.join("; ")}</div> : null}
      <LinkRow links={referenceLinks(ref)} />
    </li>
  );
}

/** The candidates the checks rejected (includeRejected), behind a toggle. */
function RejectedList({ items }: { items: Record<string, unknown>[] }) {
  const [open, setOpen] = useState(false);
  const id = useId();
  if (items.length === 0) return null;
  return (
    <div>
      <button type="button" className="link-button" aria-expanded={open} aria-controls={id} onClick={() => setOpen(!open)}>
        {open ? "Hide" : "Show"} {items.length} rejected candidate{items.length === 1 ? "" : "s"}
      </button>
      {open ? (
        <ul id={id} className={styles.list}>
          {items.map((item, i) => {
            const relevance = record(item.relevance);
            const reason = text(relevance.reason) ?? text(item.reason);
            const score = num(relevance.score) ?? num(item.score);
            const terms = texts(relevance.matchedTerms);
            const year = num(item.year);
            return (
              <li key={i} className={styles.item}>
                <span>{text(item.title) ?? "(untitled)"}</span>
                {year ? <span className="muted"> ({year})</span> : null}
                <div className={styles.detail}>
                  {[reason ? `Rejected: ${reasonLabel(reason)}` : null, score !== null ? `relevance ${score.toFixed(2)}` : null, terms.length > 0 ? `matched: ${terms.join(", ")}` : null]
                    .filter(Boolean)
                    .join(" · ")}
                </div>
                <LinkRow links={referenceLinks(item)} />
              </li>
            );
          })}
        </ul>
      ) : null}
    </div>
  );
}

/** Per-tag coverage of a fanout search: covered only by accepted, source-grounded evidence. */
function TagCoverage({ entries, ordinals }: { entries: LiteratureResultsByTagEntry[]; ordinals: Set<number> }) {
  return (
    <section data-testid="tag-coverage" aria-labelledby="literature-coverage-heading">
      <h4 id="literature-coverage-heading">Coverage by tag</h4>
      <ul className={styles.coverage}>
        {entries.map((entry) => (
          <li key={entry.tag}>
            <strong>{entry.tag}</strong>:{" "}
            {entry.covered ? <span className={styles.covered}>covered</span> : <span className={styles.uncovered}>not covered</span>}
            <div className={styles.detail}>
              {entry.acceptedCount} accepted, {entry.rejectedCount} rejected
              {entry.matchedTerms.length > 0 ? ` · matched: ${entry.matchedTerms.join(", ")}` : ""}
            </div>
            {entry.acceptedReferences.length > 0 ? (
              <ul className={styles.list}>
                {entry.acceptedReferences.map((item, i) => {
                  const ordinal = ordinalOf(item.id);
                  const title = text(item.title) ?? "(untitled)";
                  return (
                    <li key={i} className="small">
                      {ordinal && ordinals.has(ordinal) ? <a href={`#${anchorOf(ordinal)}`}>[{ordinal}] {title}</a> : title}
                    </li>
                  );
                })}
              </ul>
            ) : null}
          </li>
        ))}
      </ul>
    </section>
  );
}

function SourcesUsed({ result }: { result: LiteratureJobResult }) {
  const sources = result.effectiveSources ?? [];
  const reasoning = result.reasoning ?? [];
  // Typed by the service ({source, kind}); the search log stays for people, never parsed.
  const failures = result.failedSources ?? [];
  return (
    <section data-testid="sources-used" aria-labelledby="literature-sources-heading">
      <h4 id="literature-sources-heading">Sources used</h4>
      <p className={styles.summary}>
        {result.effectiveSources == null
          ? "The service did not report which sources it used."
          : sources.length > 0
            ? sources.map((s) => (
                <span key={s} className="chip">
                  {sourceName(s)}
                </span>
              ))
            : "No source returned results."}
        {result.retrievalBackend ? <span className="muted small"> ({result.retrievalBackend === "local-library" ? "local library only" : result.retrievalBackend})</span> : null}
      </p>
      {failures.length > 0 ? (
        <div className={styles.warn} data-testid="failed-sources">
          {describeSourceFailures({ failed: failures, used: sources })}
          <ul className={styles.list}>
            {failures.map((f) => (
              <li key={f.source} data-kind={f.kind}>
                {sourceName(f.source)}: {failureWords(f.kind)}
              </li>
            ))}
          </ul>
        </div>
      ) : result.fallbackUsed ? (
        <div className={styles.warn}>A source failed for part of the search, so some of its results may be missing; the others&apos; results stand.</div>
      ) : null}
      {reasoning.length > 0 ? (
        <details className={styles.log}>
          <summary>How the search ran</summary>
          <ol className={`${styles.list} small`}>
            {reasoning.map((line, i) => (
              <li key={i}>{line}</li>
            ))}
          </ol>
        </details>
      ) : null}
    </section>
  );
}

/** A completed search: warnings, the cited answer, per-tag coverage, references, sources. */
function LiteratureResults({ result }: { result: LiteratureJobResult }) {
  const references = result.references ?? [];
  const rejected = (result.rejectedReferences ?? []).map(record);
  const quality = result.quality;
  const raw = quality ? !quality.filtered : references.some((r) => r.relevance && !r.relevance.accepted);
  // Markers link only to accepted references present in the list (every [N] is one, by design).
  const ordinals = new Set(references.filter((r) => r.relevance?.accepted ?? true).flatMap((r) => ordinalOf(r.id) ?? []));
  const coverage = result.resultsByTag ? Object.values(result.resultsByTag) : [];
  const reasons = quality ? Object.entries(quality.rejectionReasons).filter(([, n]) => n > 0) : [];
  const warnings: string[] = [];
  if (quality?.lowConfidence) warnings.push("Low confidence: nothing was accepted, or the accepted references are weak (median confidence below 50%).");
  if (quality?.evidenceThin) warnings.push("Thin evidence: fewer than three accepted references, or none is primary evidence (a trial, an observational study or a systematic review).");
  const uncovered = coverage.filter((c) => !c.covered).map((c) => c.tag);
  if (uncovered.length > 0) warnings.push(`No accepted evidence for: ${uncovered.join(", ")}.`);

  return (
    <div className={styles.results} data-testid="literature-results">
      <Warnings warnings={warnings} />

      {quality ? (
        <p className={styles.summary}>
          {quality.acceptedCount} accepted of {quality.rawCount} candidate{quality.rawCount === 1 ? "" : "s"} (duplicates merged)
          {quality.rejectedCount > 0 ? `; ${quality.rejectedCount} rejected${reasons.length > 0 ? `: ${reasons.map(([r, n]) => `${reasonLabel(r)} ${n}`).join(", ")}` : ""}` : ""}
          {raw ? ". Raw list: every candidate, accepted first." : "."}
        </p>
      ) : null}

      {result.answer || result.formattedAnswer ? <h4>Answer</h4> : null}
      {result.answer ? <AnswerText answer={result.answer} scope="literature" ordinals={ordinals} /> : null}
      {result.formattedAnswer ? (
        <details className={styles.formatted} open={!result.answer}>
          <summary>The answer with its source list, as plain text</summary>
          <pre>{result.formattedAnswer}</pre>
        </details>
      ) : null}

      {coverage.length > 0 ? <TagCoverage entries={coverage} ordinals={ordinals} /> : null}
      {result.tagMode === "combined" ? <p className="muted small">The tags were searched together with the question (combined), so there is no coverage per tag.</p> : null}

      <h4>References</h4>
      {references.length > 0 ? (
        <ol className={styles.list}>
          {references.map((reference, i) => (
            <ReferenceItem key={`${String(reference.id)}-${i}`} reference={reference} raw={raw} />
          ))}
        </ol>
      ) : (
        <p className="muted">No reference passed the relevance checks.</p>
      )}
      <RejectedList items={rejected} />

      <SourcesUsed result={result} />
    </div>
  );
}
