import type { ChatReference, Verdict, VerdictConfidence } from "@/lib/shared/contracts";
import { SECTION_LABELS } from "../literature/answer";
import { splitSentences } from "../literature/sentences";
import { extractTerms, stemSet } from "../literature/terms";
import { readMarkers } from "./quality";
import { keysOf } from "@/lib/shared/narrow";

export type AuditedReference = ChatReference & { passage: string; isRetracted?: boolean };

export type AuditResult = {
  answer: string;
  /** The sentences taken out, each with why. */
  removed: { sentence: string; reason: string }[];
  /** True when nothing cited survived: the model's answer must not be used. */
  rejected: boolean;
  /** Whether a bottom line consistent with the verdict survived, and a limits paragraph. */
  hasBottomLine: boolean;
  /** The bottom-line paragraph that survived, as the answer opens with it (null without one). */
  bottomLine: string | null;
  hasLimits: boolean;
};

/** A cited sentence must share at least this many content terms with the text of what it cites. */
const MIN_SHARED_TERMS = 2;

const LABEL = new RegExp(`^\\s*(?:\\*\\*|#+\\s*)?(${SECTION_LABELS.map((l) => l.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|")})(?:\\*\\*)?\\s*:\\s*(?:\\*\\*)?\\s*`, "i");

/** The words that state each verdict; a bottom line must state its own and no other. */
const VERDICT_WORDS: Record<Verdict, RegExp> = {
  supports: /\bsupport(s|ed|ing)?\b/i,
  contradicts: /\b(contradict(s|ed|ing)?|does not support|do not support|against it)\b/i,
  mixed: /\b(mixed|conflicting|inconsistent)\b/i,
  insufficient: /\b(insufficient|not enough|too (thin|weak|little))\b/i,
};

/**
 * The citation audit of a model's answer, failing closed: a sentence stays only if every marker in
 * it resolves to a reference, none of those references is retracted or only a lead, and each cited
 * reference's own text shares enough content terms with the sentence to support it. Sentences that
 * cite nothing are kept only when they carry no claim of their own: a caveat about the evidence, or
 * (in the bottom line) the verdict itself, when it is the verdict computed from the evidence. The
 * answer's paragraphs and their labels ("Bottom line:", "Human trials:", "Limits:") are kept; a
 * paragraph whose sentences all went goes too. If no cited sentence remains, the whole answer is
 * rejected.
 */
export function auditModelAnswer({
  answer,
  references,
  verdict,
  confidence,
}: {
  answer: string;
  references: AuditedReference[];
  verdict?: Verdict;
  /** The verdict's confidence: a bottom line may not state another, and a low one must lean. */
  confidence?: VerdictConfidence;
}): AuditResult {
  const byOrdinal = new Map(references.map((r) => [r.ordinal, r]));
  const removed: AuditResult["removed"] = [];
  const paragraphs: string[] = [];
  let cited = 0;
  let hasBottomLine = false;
  let bottomLine: string | null = null;
  let hasLimits = false;
  for (const paragraph of paragraphsOf(answer)) {
    const match = LABEL.exec(paragraph);
    const label = match ? SECTION_LABELS.find((l) => l.toLowerCase() === match[1]!.toLowerCase())! : null;
    const body = match ? paragraph.slice(match[0].length) : paragraph;
    const kept: string[] = [];
    splitSentences(body).forEach((sentence, i) => {
      const markers = [...new Set(readMarkers(sentence))];
      if (markers.length === 0) {
        if (label === "Bottom line" && i === 0 && verdict) {
          const stated = keysOf(VERDICT_WORDS).filter((v) => VERDICT_WORDS[v].test(sentence));
          if (stated.length !== 1 || stated[0] !== verdict) removed.push({ sentence, reason: `the bottom line does not state the evidence's verdict (${verdict})` });
          else if (!statesConfidence(sentence, verdict, confidence)) removed.push({ sentence, reason: `the bottom line does not state the verdict's confidence (${confidence})` });
          else kept.push(sentence);
        } else if (isCaveat(sentence)) kept.push(sentence);
        else removed.push({ sentence, reason: "a claim without a citation" });
        return;
      }
      const problem = markers
        .map((n) => {
          const ref = byOrdinal.get(n);
          if (!ref) return `[${n}] does not resolve to a reference`;
          if (ref.isRetracted) return `[${n}] is retracted`;
          if (ref.evidenceRole === "lead_only") return `[${n}] is only a lead`;
          if (sharedTerms(sentence, ref.passage + " " + ref.title) < MIN_SHARED_TERMS) return `[${n}]'s text does not support the sentence`;
          return null;
        })
        .find((p) => p !== null);
      if (problem) {
        removed.push({ sentence, reason: problem });
        return;
      }
      kept.push(sentence);
      cited++;
    });
    if (kept.length === 0) continue;
    if (label === "Bottom line") {
      // A bottom line must open with the verdict; one whose verdict sentence went is not one.
      if (!verdict || paragraphs.length > 0 || !VERDICT_WORDS[verdict].test(kept[0]!)) {
        removed.push(...kept.map((sentence) => ({ sentence, reason: "a bottom line that is not the first paragraph or does not state the verdict" })));
        continue;
      }
      hasBottomLine = true;
    }
    if (label === "Limits") hasLimits = true;
    const written = label ? `${label}: ${kept.join(" ")}` : kept.join(" ");
    if (label === "Bottom line") bottomLine = written;
    paragraphs.push(written);
  }
  return { answer: paragraphs.join("\n\n"), removed, rejected: cited === 0, hasBottomLine, bottomLine, hasLimits };
}

/**
 * Whether a bottom line's verdict sentence carries the verdict's confidence: it names no other
 * level, and a low-confidence committed verdict says it is low or only leans. An insufficient
 * verdict needs no level.
 */
function statesConfidence(sentence: string, verdict: Verdict, confidence: VerdictConfidence | undefined): boolean {
  if (!confidence || verdict === "insufficient") return true;
  const named = [...sentence.matchAll(/\b(high|moderate|low)(?:-| )confidence\b/gi)].map((m) => m[1]!.toLowerCase());
  if (named.some((level) => level !== confidence)) return false;
  if (confidence === "low" && verdict !== "mixed") return named.includes("low") || /\blean(s|ing)?\b/i.test(sentence);
  return true;
}

/** Paragraphs: blank lines, or a new line that starts with a section label. */
function paragraphsOf(answer: string): string[] {
  return answer
    .split(/\n\s*\n/)
    .flatMap((block) => block.split(/\n(?=\s*(?:\*\*|#+\s*)?(?:[A-Z][a-z]+[a-z ]*):)/))
    .map((p) => p.replace(/\s*\n\s*/g, " ").trim())
    .filter(Boolean);
}

function sharedTerms(sentence: string, text: string): number {
  const stems = stemSet(text);
  return extractTerms(sentence.replace(/\[[\d,\s–-]+\]/g, " ")).filter((t) => t.weight === 1 && t.stems.some((s) => stems.has(s))).length;
}

/** A sentence about the evidence itself ("the evidence is limited", "no human trial was found"), not a finding. */
function isCaveat(sentence: string): boolean {
  return (
    /\b(evidence|studies|data|research)\b.*\b(limited|thin|sparse|mixed|preliminary|insufficient|lacking|inconclusive|needed)\b/i.test(sentence) ||
    /^(no|none of|not every|only)\b.*\b(trials?|stud(y|ies)|reviews?|evidence|references?|sources?)\b.*\b(found|addresses|address|searched|available|reached)\b/i.test(sentence)
  );
}
