import type { Stance } from "@/lib/shared/contracts";
import type { ClaimReading } from "./claim";

/** The readings the stance reader (index.ts) hands to the fitted model's features (features.ts). */

type Side = "supports" | "contradicts";

/** One clause read toward the claim, and whether it counted (for the benchmark's error listing). */
export type ReadClause = {
  text: string;
  stance: Side;
  counted: boolean;
  relevance: number;
  certainty: number;
  /** How it was read: an effect found, none, or a restatement of the claim without a finding word. */
  effect: "found" | "none" | "restated";
  /** For `none`: things found alike (what an equivalence asks), not another negation. */
  alike: boolean;
  /** The way it moves the claim's quantity: +1 as the claim says, -1 the other way, 0 not said. */
  moved: number;
  /** It reports a significant p-value. */
  significant: boolean;
};
export type StanceReading = {
  stance: Stance;
  /** How plainly the deciding findings were stated: 1 plain, less when hedged ("may", "suggests"); 0 when nothing was. */
  certainty: number;
  /** The fitted model's probability for the stance it gave (absent when the rules alone decided). */
  probability?: number;
  clauses?: ReadClause[];
};
/** A reading of some sections, with the weights behind it (for the fitted model's features). */
export type SectionReading = StanceReading & { forWeight: number; againstWeight: number; relevance: number };

/** What the rules read: the claim, the conclusion section (null when there is none) and the other findings, each already turned for a negated claim. */
export type PartsReading = { claim: ClaimReading; conclusion: SectionReading | null; findings: SectionReading; deciding: string };
