/**
 * The fixed split of every labelled evaluation set into a tuning half and a held-out half
 * (issue 25): rules and models are written and fitted while reading the tuning half only, and the
 * held-out half is reported, never read. An item's half is a pure function of a fixed seed and its
 * id, so every script, every branch and every session puts each item in the same half.
 */
import { createHash } from "node:crypto";

/** Changing the seed would reshuffle items someone has already read into the held-out half: never. */
const SPLIT_SEED = "longevity-eval-split-v1";

export type Half = "tune" | "holdout";

/** The half an item belongs to, by its set's name and its id within the set (PMID, row index, …). */
export function halfOf({ set, id }: { set: string; id: string }): Half {
  const digest = createHash("sha256").update(`${SPLIT_SEED}:${set}:${id}`).digest();
  return (digest[0]! & 1) === 0 ? "tune" : "holdout";
}
