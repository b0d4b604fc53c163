import type { ChatMetadata, ChatResult, GradedReference } from "@/lib/shared/contracts";
import { composeChatResult, type ChatAnswer } from "../chat/compose";
import type { LlmSettings } from "../chat/llm";
import { computeQuality } from "../chat/quality";
import { formatSources } from "../literature/answer";
import { splitSentences } from "../literature/sentences";
import { AXES, type AxisId, type AxisPlan, type ResearchQuestion } from "./axes";
import { createCitations, nameCitations, resolveCitations } from "./citations";
import { hypothesesWithModel, reportWithModel, type EvidenceItem, type ModelStep } from "./model";
import { CITED_COUNT, writeReply, type TurnFacts } from "./report";
import { deriveHypotheses, deriveOpenQuestions, findContradictions } from "./synthesis";
import { groupByAxis, keysOf, newFindings, type StoredIteration, type StoredReference, type WorldState } from "./world";

/**
 * The reply of a turn over everything its iterations found. The references that address the
 * question itself are graded as a chat answer grades them, which gives the bottom line (the
 * verdict); those an intervention's searches found (its safety, mechanism, doses) join them as
 * context. The reply (report.ts) cites them by axis, every [N] one of its own references, and the
 * citation audit of chat (`quality`) is computed from its text. With a model, the model's
 * hypotheses and report replace the deterministic ones when they pass the audit.
 */

/** How a turn researched, as its reply's metadata says (deep research's own, never on the wire). */
type TurnSummary = {
  iterations: number;
  axes: { axis: AxisId; query: string; findings: number }[];
  notCovered: AxisPlan["notCovered"];
  referencesScreened: number;
  referencesAccepted: number;
  referencesCited: number;
  findings: number;
  contradictions: number;
  /** The model's steps, when a model is configured. */
  model?: { name: string; steps: Record<string, ModelStep> };
};

/**
 * A turn's reply: a chat answer in form (researchTurn reads its answer, references and quality),
 * its metadata the chat answer's with the deep-research writer and the turn's summary.
 */
export type TurnAnswer = Omit<ChatResult, "metadata"> & {
  metadata: Omit<ChatMetadata, "writer"> & { writer: "deep-research" | "deep-research-model"; deepResearch: TurnSummary };
};

export async function composeTurn({
  read,
  ids,
  iterations,
  plan,
  budget,
  outOfTime,
  world,
  llm,
  inTime,
  signal,
}: {
  read: ResearchQuestion;
  ids: { conversationId: string; messageId: string };
  /** This turn's iterations, resumed ones included. */
  iterations: StoredIteration[];
  plan: AxisPlan;
  budget: number;
  outOfTime: boolean;
  /** The conversation's world state with this turn's iterations in it. */
  world: WorldState;
  llm: LlmSettings | null;
  inTime: () => boolean;
  signal: AbortSignal;
}): Promise<{ result: TurnAnswer; hypotheses: string[]; openQuestions: string[]; steps: Record<string, ModelStep> }> {
  const findings = groupByAxis(newFindings([], iterations.flatMap((it) => it.findings)));
  const { onQuestion, onAxis } = splitReferences(iterations, read);

  const chat = composeChatResult({ question: read.question, literature: { references: onQuestion.map((r, i) => ({ ...r, id: i + 1 })) }, ...ids });
  const context = onAxis.length
    ? composeChatResult({ question: read.question, literature: { references: onAxis.map(({ ref }, i) => ({ ...ref, id: i + 1 })) }, ...ids }).references.map((r, i) => {
        const { stance: _stance, ...rest } = r;
        const { axis, query } = onAxis[i]!;
        return {
          ...rest,
          evidenceRole: r.evidenceRole === "lead_only" ? ("lead_only" as const) : ("context" as const),
          roleReason: `found by the ${AXES[axis].label.toLowerCase()} search (“${query}”): evidence on ${read.intervention ?? "the intervention"}, not on the question itself`,
        };
      })
    : [];
  const graded: GradedReference[] = [...chat.references, ...context];
  // The references that test the question, by the one rule of roles.ts: hypotheses rest on these only.
  const supportingKeys = new Set(chat.references.filter((r) => r.evidenceRole === "supporting").flatMap((r) => keysOf(r)));

  const { cite, cited } = createCitations();
  const contradictions = findContradictions(findings, read, cite);
  const facts: TurnFacts = {
    read,
    plan,
    budget,
    outOfTime,
    screened: new Set(iterations.flatMap((it) => it.screened ?? [])).size || graded.length,
    accepted: graded.length,
    findings,
    contradictions,
    hypotheses: deriveHypotheses({ findings, read, cite, supporting: (f) => f.references.some((r) => keysOf(r).some((k) => supportingKeys.has(k))) }),
    openQuestions: deriveOpenQuestions({ findings: world.findings, read, plan, contradictions }),
    bottomLine: withoutMarkers(bottomLineOf(chat)),
    limits: chat.metadata.limits?.trim() ? withoutMarkers(chat.metadata.limits) : null,
  };
  const resolved = resolveCitations({ texts: writeReply(facts, cite), cited, references: graded });
  const references = resolved.references;
  let texts = resolved.texts;
  let hypotheses = facts.hypotheses.map((h) => nameCitations(h, cited));
  const steps: Record<string, ModelStep> = {};

  if (llm && inTime() && references.length > 0) {
    const evidence = evidenceOf(references, findings);
    const digest = texts.slice(2).join("\n");
    // A model's hypotheses, like the deterministic ones, rest only on the references that test the question.
    const modelHypotheses = await hypothesesWithModel({ settings: llm, read, digest, evidence: evidence.filter((e) => e.evidenceRole === "supporting"), signal });
    steps.hypotheses = modelHypotheses.step;
    if (modelHypotheses.hypotheses) {
      texts = resolveCitations({ texts: writeReply(facts, cite, { hypotheses: modelHypotheses.hypotheses }), cited, references, fixed: true }).texts;
      hypotheses = modelHypotheses.hypotheses.map((h) => nameMarkers(h, references));
    }
    if (inTime()) {
      const report = await reportWithModel({ settings: llm, read, bottomLine: facts.bottomLine, digest: texts.slice(2).join("\n"), evidence, signal });
      steps.report = report.step;
      if (report.text) {
        const tail = texts.filter((t) => t.startsWith("Open questions:") || t === facts.limits);
        const candidate = [texts[0]!, texts[1]!, hypothesesOnSupporting(report.text, references), ...tail].filter(Boolean);
        if (computeQuality(candidate.join("\n\n"), references).contractValid) texts = candidate;
        else steps.report = { used: false, reason: "the report breaks the citation contract" };
      }
    }
  }

  const citedCount = new Set([...texts.join(" ").matchAll(/\[(\d+)\]/g)].map((m) => m[1])).size;
  const answer = texts.filter(Boolean).join("\n\n").replace(CITED_COUNT, String(citedCount));
  const quality = computeQuality(answer, references);
  const sources = formatSources(references.map((r) => ({ ordinal: r.ordinal, title: r.title, url: r.url, abstract: null, year: r.year ?? null, journal: null, label: labelOf(r) })));
  const passages = evidenceOf(references, findings);
  const result: TurnAnswer = {
    ...chat,
    reply: answer,
    answer,
    text: sources ? `${answer}\n\n${sources}` : answer,
    references,
    rejectedReferences: [],
    quality,
    metadata: {
      ...chat.metadata,
      writer: steps.report?.used ? "deep-research-model" : "deep-research",
      contextPassages: passages.map((p) => ({ ordinal: p.ordinal, text: p.passage })),
      deepResearch: {
        iterations: iterations.length,
        axes: plan.planned.map((p) => ({ axis: p.axis, query: p.query, findings: findings.filter((f) => f.axis === p.axis).length })),
        notCovered: plan.notCovered,
        referencesScreened: facts.screened,
        referencesAccepted: facts.accepted,
        referencesCited: citedCount,
        findings: findings.length,
        contradictions: contradictions.length,
        ...(llm ? { model: { name: llm.model, steps } } : {}),
      },
    },
  };
  return { result, hypotheses, openQuestions: facts.openQuestions.map((q) => nameCitations(q, cited)), steps };
}

/**
 * Each work once: those found by the question's searches (graded against the question), then
 * those only an intervention's searches found, with the axis and query that found them. An axis
 * the question itself asks about ("is it safe?") is on the question.
 */
function splitReferences(iterations: StoredIteration[], read: ResearchQuestion) {
  const seen = new Set<string>();
  const onQuestion: StoredReference[] = [];
  const onAxis: { ref: StoredReference; axis: AxisId; query: string }[] = [];
  const anchored = (it: StoredIteration) => !it.axis || AXES[it.axis].anchor === "question" || read.asked.includes(it.axis);
  for (const pass of [true, false]) {
    for (const it of iterations.filter((i) => anchored(i) === pass)) {
      for (const ref of it.references) {
        const keys = keysOf(ref);
        if (keys.some((k) => seen.has(k))) continue;
        for (const k of keys) seen.add(k);
        if (pass) onQuestion.push(ref);
        else onAxis.push({ ref, axis: it.axis!, query: it.objective });
      }
    }
  }
  return { onQuestion, onAxis };
}

/** What the reply's references said in this turn: their findings' sentences, else their title. */
function evidenceOf(references: GradedReference[], findings: WorldState["findings"]): EvidenceItem[] {
  return references.map((r) => {
    const keys = keysOf(r);
    const said = findings.filter((f) => f.references.some((ref) => keysOf(ref).some((k) => keys.includes(k)))).map((f) => f.statement);
    return { ordinal: r.ordinal, title: r.title, passage: said.length ? said.join(" ") : r.title, evidenceType: r.evidenceType, evidenceRole: r.evidenceRole };
  });
}

/**
 * A model's report with its hypotheses resting on supporting references only: a hypothesis
 * sentence citing a reference that does not test the question goes, and the paragraph with it
 * when none is left.
 */
export function hypothesesOnSupporting(report: string, references: Pick<GradedReference, "ordinal" | "evidenceRole">[]): string {
  const supporting = new Set(references.filter((r) => r.evidenceRole === "supporting").map((r) => r.ordinal));
  return report
    .split(/\n\n+/)
    .map((paragraph) => {
      if (!paragraph.startsWith("Hypotheses:")) return paragraph;
      const kept = splitSentences(paragraph.slice("Hypotheses:".length).trim()).filter((sentence) => {
        const markers = [...sentence.matchAll(/\[(\d+)\]/g)].map((m) => Number(m[1]));
        return markers.length > 0 && markers.every((n) => supporting.has(n));
      });
      return kept.length > 0 ? `Hypotheses: ${kept.join(" ")}` : null;
    })
    .filter((p): p is string => p !== null)
    .join("\n\n");
}

/** The chat answer's bottom line: its metadata's, else its paragraph that opens with it. */
function bottomLineOf(chat: ChatAnswer): string {
  const given = chat.metadata.bottomLine;
  if (given.trim()) return given.trim();
  const paragraph = chat.answer.split(/\n\n+/).find((p) => p.startsWith("Bottom line"));
  if (paragraph) return paragraph;
  return chat.references.length === 0
    ? "Bottom line: the evidence is insufficient: nothing that addresses the question itself was found in the sources searched."
    : "Bottom line: see the evidence by axis below.";
}

/** The chat answer's markers number its own list, not the reply's: its sentences are used without them. */
function withoutMarkers(text: string): string {
  return text.replace(/\s*\[\d+(?:\s*[-–,]\s*\d+)*\]/g, "").trim();
}

/** [N] markers of a text over `references`, as the references' names (for the world state). */
function nameMarkers(text: string, references: GradedReference[]): string {
  return text.replace(/\s*\[(\d+(?:\s*[-–,]\s*\d+)*)\]/g, (_, list: string) => {
    const names = list
      .split(/\s*,\s*/)
      .map((n) => references.find((r) => r.ordinal === Number(n.split(/[-–]/)[0])))
      .filter((r): r is GradedReference => r !== undefined)
      .map(labelOf);
    return names.length ? ` (${names.join("; ")})` : "";
  });
}

function labelOf(r: { pmid?: string | null; doi?: string | null; id: string }): string {
  return r.pmid ? `PMID ${r.pmid}` : r.doi ? `doi:${r.doi}` : r.id;
}
