/**
 * What each paid action buys, in words: said beside its price under each form, and again when an
 * action that costs more than a chat asks first (lib/web/spend-check.ts).
 */
export const WHAT_IT_BUYS = {
  chat: "one answer whose every [N] cites a checked reference",
  literature: "one search: ranked, checked references with an extractive cited answer",
  deepResearch:
    "a multi-round research run with a cited reply and its findings; your signature authorizes the payment now, and it is settled only when the result is delivered (nothing is charged if the run fails or its authorization expires)",
} as const;
