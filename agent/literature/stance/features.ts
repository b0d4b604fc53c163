import type { Stance } from "@/lib/shared/contracts";
import { scopeCues } from "./scope";
import { NOT_FINDINGS, sectionsOf } from "./sections";
import type { PartsReading, SectionReading } from "./types";

/**
 * The features the fitted stance model weighs (model.ts): the rules' own readings of the
 * conclusion and of the other findings, what the claim is (negated, an equivalence, a question
 * of necessity), and cue words of the deciding text (hedges, open questions, contrasts,
 * negations, p-values). Every feature is computed from the claim and the text alone.
 */

const HEDGE_STRONG = /\b(may|might|could|possibly|potentially|perhaps|plausibl\w*|speculat\w*)\b/gi;
const HEDGE_MILD = /\b(suggests?|suggested|suggesting|appears?|seems?|likely|tend(s|ed)? to|trend\w*|indicat\w*)\b/gi;
const OPEN = /\b(inconclusive|uncertain|unclear|unknown|controversial|conflicting|remains? to be|warrant\w*|further (studies|research|investigation|trials|work)|more (studies|research|data)|(is|are) (needed|required|necessary) to|needs? to be (confirmed|determined|clarified|established|elucidated)|may or may not|not necessarily|depend(s|ing)? on|cannot be (excluded|ruled out))\b/gi;
const CONTRAST = /\b(however|but|whereas|although|though|while|only|except|despite|nevertheless|yet)\b/gi;
const PARTIAL = /\b(partly|partially|some|modest(ly)?|limited|selected|subgroups?|certain|slight(ly)?|marginal(ly)?|weak(ly)?|small|minor)\b/gi;
const NEGATION = /\b(not|no|none|neither|nor|never|lack\w*|absence|fail\w*|unable|without)\b|n't\b/gi;
const RECOMMEND = /\b(should|recommend\w*|advis\w*|consider\w*|must|need to|needs to)\b/gi;
const SIGNIFICANT_P = /\bp\s*(<|≤|=)\s*0?\.0([0-4]\d*|0\d*)\b/gi;
const NONSIGNIFICANT = /\bp\s*(>|=|≥)\s*0?\.(0[5-9]|[1-9])|\b(no|not) (statistically )?significant|\bnon-?significant/gi;
const NECESSITY = /\b(necessary|need|needed|required|mandatory|always|routine(ly)?|justified|worth\w*|indicated|essential|obligatory|warranted)\b/i;
const NUMBER = /\d+(?:[.,]\d+)?/g;
/** A claim of strength ("highly effective", "consistently", "most") met by a finding of modest size. */
const STRONG = /\b(highly|very|strongly|substantially|markedly|greatly|consistently|always|most|major|dramatically|significantly)\b/i;
const MODEST = /\b(modest(ly)?|slight(ly)?|small|limited|marginal(ly)?|minor|weak(ly)?|mild(ly)?|partial(ly)?|some)\b/i;

const count = (re: RegExp, text: string) => Math.log1p((text.match(re) ?? []).length);

function sectionFeatures(prefix: string, read: SectionReading | null, out: Record<string, number>): void {
  const stance: Stance = read?.stance ?? "unclear";
  for (const s of ["supports", "contradicts", "mixed", "unclear"] as const) out[`${prefix}_${s}`] = stance === s ? 1 : 0;
  const total = (read?.forWeight ?? 0) + (read?.againstWeight ?? 0);
  out[`${prefix}_lean`] = total > 0 ? (read!.forWeight - read!.againstWeight) / total : 0;
  out[`${prefix}_weight`] = Math.log1p(total);
  out[`${prefix}_certainty`] = read?.certainty ?? 0;
  out[`${prefix}_relevance`] = read?.relevance ?? 0;
  // What the clauses closest to the claim say, one by one: how many each way, and of what kind.
  const counted = (read?.clauses ?? []).filter((c) => c.counted);
  const n = (test: (c: (typeof counted)[number]) => boolean) => Math.log1p(counted.filter(test).length);
  out[`${prefix}_n_for`] = n((c) => c.stance === "supports");
  out[`${prefix}_n_against`] = n((c) => c.stance === "contradicts");
  out[`${prefix}_n_none`] = n((c) => c.effect === "none");
  out[`${prefix}_n_alike`] = n((c) => c.alike);
  out[`${prefix}_n_restated`] = n((c) => c.effect === "restated");
  out[`${prefix}_n_moved_with`] = n((c) => c.moved > 0);
  out[`${prefix}_n_moved_against`] = n((c) => c.moved < 0);
  out[`${prefix}_n_significant`] = n((c) => c.significant);
  out[`${prefix}_n_hedged`] = n((c) => c.certainty < 1);
  // The last clause read: in an abstract without its conclusion, results end on the main one.
  const last = (read?.clauses ?? []).at(-1);
  out[`${prefix}_last_for`] = last?.stance === "supports" ? 1 : 0;
  out[`${prefix}_last_against`] = last?.stance === "contradicts" ? 1 : 0;
}

/** The named features of one claim and text, from the rules' reading of them. */
export function stanceFeatures({ parts, claimText, text }: { parts: PartsReading; claimText: string; text: string }): Record<string, number> {
  const out: Record<string, number> = { bias: 1 };
  out.claim_negated = parts.claim.negated ? 1 : 0;
  out.claim_equivalence = parts.claim.equivalence ? 1 : 0;
  out.claim_comparative = parts.claim.comparative ? 1 : 0;
  out.claim_ability = parts.claim.ability ? 1 : 0;
  out.claim_needed = parts.claim.needed ? 1 : 0;
  out.claim_question = /\?\s*$/.test(claimText.trim()) ? 1 : 0;
  out.claim_benefit = parts.claim.valence === "benefit" ? 1 : 0;
  out.claim_harm = parts.claim.valence === "harm" ? 1 : 0;
  out.claim_directed = parts.claim.directions.length > 0 ? 1 : 0;
  out.claim_necessity = NECESSITY.test(claimText) ? 1 : 0;
  const claimNumbers = (claimText.match(NUMBER) ?? []).filter((n) => n.length > 1 || claimText.includes(`${n}%`));
  out.claim_numbers_missing = claimNumbers.length > 0 ? claimNumbers.filter((n) => !text.includes(n)).length / claimNumbers.length : 0;

  out.strong_claim_modest_finding = STRONG.test(claimText) && MODEST.test(parts.deciding) ? 1 : 0;
  out.has_conclusion = parts.conclusion ? 1 : 0;
  out.claim_statement_negated = out.claim_negated * (1 - out.claim_question);
  sectionFeatures("conclusion", parts.conclusion, out);
  sectionFeatures("findings", parts.findings, out);
  const concluded = parts.conclusion !== null && parts.conclusion.stance !== "unclear";
  // Which thresholds the model's decision takes (model.ts `kindOf`).
  out.concluded = concluded ? 1 : 0;
  const decided = concluded ? parts.conclusion! : parts.findings;
  sectionFeatures("rules", decided, out);

  const deciding = parts.deciding;
  out.hedge_strong = count(HEDGE_STRONG, deciding);
  out.hedge_mild = count(HEDGE_MILD, deciding);
  out.open = count(OPEN, deciding);
  out.contrast = count(CONTRAST, deciding);
  out.partial = count(PARTIAL, deciding);
  out.negation = count(NEGATION, deciding);
  out.recommend = count(RECOMMEND, deciding);
  out.p_significant = count(SIGNIFICANT_P, text);
  out.p_nonsignificant = count(NONSIGNIFICANT, text);
  genericFeatures({ parts, text }, out);
  return out;
}

/**
 * The general cue mechanisms of scope.ts over the authors' conclusion (the other findings when the
 * abstract has none), read apart from the rules: negation scoped onto the claim, speculation,
 * comparisons found alike, shortfall words; each also turned for a negated claim.
 */
function genericFeatures({ parts, text }: { parts: PartsReading; text: string }, out: Record<string, number>): void {
  const sections = sectionsOf(text);
  const concluded = sections.filter((s) => s.role === "conclusion");
  const deciding = (concluded.length > 0 ? concluded : sections.filter((s) => !NOT_FINDINGS.has(s.role))).map((s) => s.text).join(" ");
  const claimStems = new Set(parts.claim.parts.filter((p) => p.weight >= 0.5).flatMap((p) => p.stems));
  const cues = scopeCues({ text: deciding, claimStems });
  const turn = parts.claim.negated ? -1 : 1;
  out.g_negated_on_claim = turn * cues.negatedOnClaim;
  out.g_first_negated = turn * cues.firstNegated;
  out.g_negated_any = turn * cues.negatedAny;
  out.g_speculation = cues.speculation;
  out.g_open = cues.open;
  out.g_alike = turn * cues.alike;
  out.g_alike_equivalence = parts.claim.equivalence ? cues.alike : 0;
  out.g_shortfall = turn * cues.shortfall;

}
