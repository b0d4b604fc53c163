import type { ChatReference } from "@/lib/shared/contracts";
import { isRecord } from "@/lib/shared/narrow";
import { auditModelAnswer, type AuditedReference } from "../chat/audit";
import { completeChat, type LlmSettings } from "../chat/llm";
import { computeQuality } from "../chat/quality";
import { stemSet, tokenize } from "../literature/terms";
import { AXES, isAxisId, type AxisId, type PlannedAxis, type ResearchQuestion } from "./axes";

/**
 * The model's part in a deep-research run, when one is configured: it plans the objectives,
 * summarizes each iteration, proposes hypotheses and writes the final report. Each step is checked
 * before it is used, and fails closed to the deterministic step: a plan must search known axes
 * with queries built from the question's concepts; a summary, a hypothesis or a report must pass
 * the chat's citation audit (every marker resolving to a reference that supports its sentence).
 * Each step says whether the model's work was used, and why not.
 */

export type ModelStep = { used: boolean; reason?: string; removed?: { sentence?: string; item?: unknown; reason: string }[] };

/** The first line of each step's system prompt names its task, so each request says what it is for. */
const TASK = { plan: "Task: plan.", summary: "Task: summarize.", hypotheses: "Task: hypotheses.", report: "Task: report." } as const;

// ---------------------------------------------------------------------------------------------
// The plan

const PLAN_PROMPT = [
  TASK.plan,
  "You plan a literature review on a question about aging, longevity or biomedicine, one search per evidence axis.",
  `The axes: ${Object.entries(AXES)
    .map(([id, a]) => `${id} (${a.label.toLowerCase()})`)
    .join(", ")}.`,
  "Put the axes that matter most for the question first. Each query is 2 to 10 words for a literature search engine:",
  "the question's own concepts (its intervention or exposure, and its outcome) plus the axis' vocabulary,",
  'for example "rapamycin lifespan randomized controlled trial", "rapamycin lifespan mice", "rapamycin mTOR mechanism aging", "rapamycin adverse effects".',
  'Answer with JSON only: {"objectives":[{"axis":"...","query":"..."}]}.',
].join(" ");

/**
 * The model's plan, checked: each objective names an axis the question admits (`allowed`), once,
 * with a query of 2 to 10 plain words that names the question's intervention (or, failing one, a
 * concept of it). Valid objectives are kept in the model's order; null when none is valid.
 */
export async function planWithModel({
  settings,
  read,
  allowed,
  iterations,
  signal,
}: {
  settings: LlmSettings;
  read: ResearchQuestion;
  allowed: AxisId[];
  iterations: number;
  signal?: AbortSignal;
}): Promise<{ planned: PlannedAxis[] | null; step: ModelStep }> {
  const user = `Question: ${read.question}\nConcepts: ${read.concepts.join(", ")}\nAxes that apply: ${allowed.join(", ")}\nSearches allowed: ${iterations}`;
  const text = await completeChat({ settings, system: PLAN_PROMPT, user, ...(signal ? { signal } : {}) });
  if (!text) return { planned: null, step: { used: false, reason: "the model did not answer" } };
  const items = parseObjectives(text);
  if (!items) return { planned: null, step: { used: false, reason: "the plan is not the JSON asked for" } };
  const anchor = stemsOf(read.intervention ?? read.concepts.join(" "));
  const planned: PlannedAxis[] = [];
  const removed: NonNullable<ModelStep["removed"]> = [];
  for (const item of items) {
    const axis = isRecord(item) ? item.axis : undefined;
    const query = isRecord(item) ? item.query : undefined;
    const problem = !isAxisId(axis)
      ? "not an axis"
      : !allowed.includes(axis)
        ? "an axis that does not apply to this question"
        : planned.some((p) => p.axis === axis)
          ? "an axis already planned"
          : typeof query !== "string" || !/^[\p{L}\p{N}+'’\- ]+$/u.test(query.trim())
            ? "a query that is not plain words"
            : tokenize(query).length < 2 || tokenize(query).length > 10
              ? "a query of fewer than 2 or more than 10 words"
              : anchor.size > 0 && ![...stemsOf(query)].some((s) => anchor.has(s))
                ? "a query without the question's concepts"
                : null;
    if (problem) removed.push({ item, reason: problem });
    // No problem means both checks above passed; narrowing again lets the compiler see it.
    else if (isAxisId(axis) && typeof query === "string") planned.push({ axis, query: query.trim().replace(/\s+/g, " ") });
  }
  if (planned.length === 0) return { planned: null, step: { used: false, reason: "no objective of the plan passed the check", removed } };
  return { planned: planned.slice(0, iterations), step: { used: true, ...(removed.length ? { removed } : {}) } };
}

function parseObjectives(text: string): unknown[] | null {
  const json = /\{[\s\S]*\}/.exec(text.replace(/```(json)?/g, ""))?.[0];
  if (!json) return null;
  try {
    const value: unknown = JSON.parse(json);
    return isRecord(value) && Array.isArray(value.objectives) ? value.objectives : null;
  } catch {
    return null;
  }
}

function stemsOf(text: string): Set<string> {
  return stemSet(text);
}

// ---------------------------------------------------------------------------------------------
// Summaries, hypotheses, the report: every one under the citation audit

export type EvidenceItem = { ordinal: number; title: string; passage: string; evidenceType?: string; evidenceRole?: ChatReference["evidenceRole"] };

function numbered(evidence: EvidenceItem[]): string {
  return evidence.map((e) => `[${e.ordinal}] ${e.title}${e.evidenceType ? ` (${e.evidenceType.replace(/_/g, " ")})` : ""}: ${e.passage}`).join("\n");
}

function audited(evidence: EvidenceItem[]): AuditedReference[] {
  return evidence.map((e) => ({
    ordinal: e.ordinal,
    id: String(e.ordinal),
    title: e.title,
    url: "https://example.invalid/",
    source: "deep-research",
    evidenceRole: e.evidenceRole ?? "supporting",
    evidenceType: "unknown",
    verification: "unknown",
    confidence: 0,
    roleReason: "",
    passage: e.passage,
  }));
}

/** Audits a model's text over `evidence`: the audited text, or null with why. */
function auditText(text: string | null, evidence: EvidenceItem[]): { text: string | null; step: ModelStep } {
  if (!text) return { text: null, step: { used: false, reason: "the model did not answer" } };
  const references = audited(evidence);
  const audit = auditModelAnswer({ answer: text, references });
  if (audit.rejected) return { text: null, step: { used: false, reason: "no cited sentence survived the audit", removed: audit.removed } };
  if (!computeQuality(audit.answer, references).contractValid) return { text: null, step: { used: false, reason: "the audited text breaks the citation contract", removed: audit.removed } };
  return { text: audit.answer, step: { used: true, ...(audit.removed.length ? { removed: audit.removed } : {}) } };
}

const SUMMARY_PROMPT = [
  TASK.summary,
  "You summarize what one search of a literature review found on one evidence axis, for scientists.",
  "Use only the numbered evidence. In at most three sentences, say what it shows on the axis; end every sentence with the [N] it rests on.",
  "Never cite a number not in the list and never state what the evidence does not say.",
].join(" ");

/** The model's summary of one iteration, audited over that iteration's own references (numbered from 1). */
export async function summarizeWithModel({
  settings,
  read,
  axis,
  query,
  evidence,
  signal,
}: {
  settings: LlmSettings;
  read: ResearchQuestion;
  axis: AxisId;
  query: string;
  evidence: EvidenceItem[];
  signal?: AbortSignal;
}): Promise<{ text: string | null; step: ModelStep }> {
  if (evidence.length === 0) return { text: null, step: { used: false, reason: "nothing to summarize" } };
  const user = `Question: ${read.question}\nAxis: ${AXES[axis].label}\nSearch: ${query}\n\nEvidence:\n${numbered(evidence)}`;
  return auditText(await completeChat({ settings, system: SUMMARY_PROMPT, user, ...(signal ? { signal } : {}) }), evidence);
}

const HYPOTHESES_PROMPT = [
  TASK.hypotheses,
  "You propose hypotheses from a literature review: what the evidence found on each axis, and what it did not.",
  "Propose at most four testable hypotheses, one per line, each a single sentence ending with the [N] of the evidence it rests on.",
  "Never cite a number not in the list.",
].join(" ");

/** The model's hypotheses, each audited on its own; null when none survives. */
export async function hypothesesWithModel({
  settings,
  read,
  digest,
  evidence,
  signal,
}: {
  settings: LlmSettings;
  read: ResearchQuestion;
  digest: string;
  evidence: EvidenceItem[];
  signal?: AbortSignal;
}): Promise<{ hypotheses: string[] | null; step: ModelStep }> {
  const user = `Question: ${read.question}\n\nWhat each axis found and did not find:\n${digest}\n\nEvidence:\n${numbered(evidence)}`;
  const text = await completeChat({ settings, system: HYPOTHESES_PROMPT, user, ...(signal ? { signal } : {}) });
  if (!text) return { hypotheses: null, step: { used: false, reason: "the model did not answer" } };
  const kept: string[] = [];
  const removed: NonNullable<ModelStep["removed"]> = [];
  for (const line of text.split(/\n+/).map((l) => l.replace(/^\s*(\d+[.)]|[-*•])\s*/, "").trim()).filter(Boolean).slice(0, 4)) {
    const result = auditText(line, evidence);
    if (result.text) kept.push(result.text);
    else removed.push({ sentence: line, reason: result.step.reason ?? "removed by the audit" });
  }
  if (kept.length === 0) return { hypotheses: null, step: { used: false, reason: "no hypothesis survived the audit", removed } };
  return { hypotheses: kept, step: { used: true, ...(removed.length ? { removed } : {}) } };
}

const REPORT_PROMPT = [
  TASK.report,
  "You write the body of a deep-research report for scientists, after its bottom line, which is given and must not be repeated.",
  "Write one paragraph per evidence axis that has evidence, each starting with the axis' label and a colon (as in the digest),",
  "then one paragraph starting 'Hypotheses:'. End every sentence that states a finding with the [N] it rests on;",
  "use only the numbered evidence, never cite a number not in the list, never repeat a sentence, at most fourteen sentences.",
].join(" ");

/** The model's report body, audited over the reply's references; null when nothing cited survives. */
export async function reportWithModel({
  settings,
  read,
  bottomLine,
  digest,
  evidence,
  signal,
}: {
  settings: LlmSettings;
  read: ResearchQuestion;
  bottomLine: string;
  digest: string;
  evidence: EvidenceItem[];
  signal?: AbortSignal;
}): Promise<{ text: string | null; step: ModelStep }> {
  const user = `Question: ${read.question}\n${bottomLine}\n\nDigest by axis:\n${digest}\n\nEvidence:\n${numbered(evidence)}`;
  return auditText(await completeChat({ settings, system: REPORT_PROMPT, user, ...(signal ? { signal } : {}) }), evidence);
}
