import type { Verdict, VerdictConfidence } from "@/lib/shared/contracts/evidence";

/**
 * How an answer's bottom-line paragraph opens (the engine's, and a model writer's that passed the
 * audit): the page shows that paragraph once, in the answer's bottom-line card, without these
 * words, which the card's own heading says. Zod-free (as lib/shared/contracts/limits.ts).
 */
export const BOTTOM_LINE_LEAD = "Bottom line: ";


/**
 * The verdict sentence the engine's bottom line opens with after its lead, by verdict and
 * confidence (a low-confidence verdict only leans). The audit (agent/chat/audit.ts) reads the
 * verdict's own word in it; the page's card, whose heading already says the verdict, shows the
 * paragraph without it (`bottomLineAfterVerdict`).
 */
export const VERDICT_SENTENCE: Record<Exclude<Verdict, "insufficient">, Record<VerdictConfidence, string>> = {
  supports: {
    high: "the evidence supports it, with high confidence",
    moderate: "the evidence supports it, with moderate confidence",
    low: "the evidence leans toward supporting it, with low confidence",
  },
  contradicts: {
    high: "the evidence contradicts it, with high confidence",
    moderate: "the evidence contradicts it, with moderate confidence",
    low: "the evidence leans against it, with low confidence",
  },
  mixed: {
    high: "the evidence is mixed",
    moderate: "the evidence is mixed, with moderate confidence in that",
    low: "the evidence is mixed, and thin",
  },
};

/** How an insufficient verdict's bottom line opens after its lead; its reason follows. */
export const INSUFFICIENT_OPENER = "the evidence is insufficient to answer it: ";

/**
 * The engine's bottom-line paragraph without its lead and the verdict sentence it opens with,
 * capitalised: what the paragraph adds to a heading that names the verdict. A paragraph that opens
 * otherwise (a model writer's own words) is returned whole, without its lead.
 */
export function bottomLineAfterVerdict({ statement, verdict, confidence }: { statement: string; verdict: Verdict; confidence: VerdictConfidence | undefined }): string {
  const body = statement.startsWith(BOTTOM_LINE_LEAD) ? statement.slice(BOTTOM_LINE_LEAD.length) : statement;
  const opener = verdict === "insufficient" ? INSUFFICIENT_OPENER : confidence ? `${VERDICT_SENTENCE[verdict][confidence]}. ` : null;
  const rest = opener && body.startsWith(opener) && body.length > opener.length ? body.slice(opener.length) : body;
  return rest.charAt(0).toUpperCase() + rest.slice(1);
}
