import type { StudySnapshot, Verdict, VerdictBasis } from "@/lib/shared/contracts";
import { log } from "@/lib/shared/log";
import { isRecord } from "@/lib/shared/narrow";
import type { AuditedReference } from "./audit";

/**
 * A language model behind any OpenAI-compatible `/chat/completions` endpoint (OpenAI, vLLM,
 * llama.cpp, Tinfoil, ...). It is given the numbered evidence and asked to cite it; what it writes
 * always goes through the citation audit before anyone sees it.
 */
export type LlmSettings = { baseUrl: string; apiKey?: string; model: string; timeoutMs: number };

/** The answer's structure, the same as the extractive writer's (agent/literature/answer.ts). */
const SYSTEM_PROMPT = [
  "You answer questions about aging, longevity and biomedicine for scientists.",
  "Use only the numbered evidence given. After every sentence that states a finding, cite the evidence it rests on as [N].",
  "Never cite a number that is not in the list, and never state anything the cited evidence does not say.",
  "Write plain-text paragraphs separated by a blank line, in this order:",
  "1. One paragraph starting 'Bottom line:' whose first sentence states the verdict you are given, in its own word (supports, contradicts, mixed or insufficient), and its confidence as given ('with high confidence', 'with moderate confidence'; a low-confidence one only leans: 'the evidence leans toward supporting it, with low confidence'), without a citation.",
  "2. The evidence grouped by strength, one paragraph per group that has evidence, each starting with its label: 'Systematic reviews and meta-analyses:', 'Human trials:', 'Observational studies:', 'Animal and cell studies:', 'Other studies:'.",
  "Each sentence names its subject (the study's intervention and population or species, e.g. 'In 1,200 older adults, metformin ...') and ends with its [N].",
  "3. One paragraph starting 'Limits:' saying what kinds of evidence are missing (for example no randomized trial in humans), whether the evidence is thin, only from animals or cells, or mixed.",
  "Never repeat a sentence. At most eight sentences in all, without a reference list.",
].join(" ");

/** Asks the model; returns its answer text, or null when it failed or timed out (logged, never thrown). */
export async function writeWithModel({
  settings,
  question,
  references,
  verdict = null,
  signal,
}: {
  settings: LlmSettings;
  question: string;
  references: (AuditedReference & { snapshot?: StudySnapshot })[];
  /** The verdict computed from the graded evidence, which the bottom line must state. */
  verdict?: { verdict: Verdict; basis?: VerdictBasis | null } | null;
  signal?: AbortSignal;
}): Promise<string | null> {
  const evidence = references.map((r) => `[${r.ordinal}] ${r.title} (${describe(r)}): ${r.passage}`).join("\n");
  const confidence = verdict?.basis?.confidence ? `; confidence ${verdict.basis.confidence}${verdict.basis.confidenceReason ? ` (${verdict.basis.confidenceReason})` : ""}` : "";
  const bottomLine = verdict ? `\n\nVerdict computed from the graded evidence: ${verdict.verdict}${verdict.basis ? ` (${verdict.basis.reason})` : ""}${confidence}.` : "";
  return completeChat({ settings, system: SYSTEM_PROMPT, user: `Question: ${question}\n\nEvidence:\n${evidence}${bottomLine}`, signal });
}

/**
 * One OpenAI-compatible chat completion at temperature 0 (`/chat/completions` of the configured
 * base URL), the answer's text or null when the model fails, errs or says nothing: callers fall
 * back to their deterministic path. The caller's own abort (a cancelled job) is thrown, not hidden.
 */
export async function completeChat({ settings, system, user, signal }: { settings: LlmSettings; system: string; user: string; signal?: AbortSignal }): Promise<string | null> {
  const timeout = AbortSignal.timeout(settings.timeoutMs);
  try {
    const response = await fetch(`${settings.baseUrl.replace(/\/+$/, "")}/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json", ...(settings.apiKey ? { authorization: `Bearer ${settings.apiKey}` } : {}) },
      body: JSON.stringify({
        model: settings.model,
        temperature: 0,
        messages: [
          { role: "system", content: system },
          { role: "user", content: user },
        ],
      }),
      signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
    });
    if (!response.ok) {
      log.warn("model answered an error", { status: response.status });
      return null;
    }
    const body: unknown = await response.json();
    const first: unknown = isRecord(body) && Array.isArray(body.choices) ? body.choices[0] : undefined;
    const text = isRecord(first) && isRecord(first.message) ? first.message.content : undefined;
    return typeof text === "string" && text.trim() ? text.trim() : null;
  } catch (err) {
    if (signal?.aborted) throw err;
    log.warn("model call failed", { error: err });
    return null;
  }
}

/** A reference's grading in a few words: "randomized controlled trial, 2022; 1,200 older adults; metformin; finding null; contradicts the question". */
function describe(r: AuditedReference & { snapshot?: StudySnapshot; stance?: string }): string {
  const s = r.snapshot;
  const who = s?.population ? `${s.sampleSize ? `${s.sampleSize.toLocaleString("en-US")} ` : ""}${s.population}` : (s?.species ?? null);
  return [
    `${r.evidenceType.replace(/_/g, " ")}${r.year ? `, ${r.year}` : ""}`,
    who,
    s?.intervention ?? null,
    s ? `finding ${s.direction}` : null,
    r.stance ? `${r.stance} the question` : null,
    r.evidenceRole === "supporting" ? null : r.evidenceRole.replace(/_/g, " "),
  ]
    .filter(Boolean)
    .join("; ");
}
