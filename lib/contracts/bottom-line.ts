/**
 * How an answer's bottom-line paragraph opens (the engine's, and a model writer's that passed the
 * audit): the page shows that paragraph once, in the answer's bottom-line card, without these
 * words, which the card's own heading says. Zod-free (as lib/contracts/limits.ts).
 */
export const BOTTOM_LINE_LEAD = "Bottom line: ";
