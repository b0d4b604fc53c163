import { z } from "zod";

/**
 * Ours, what a reference manager needs to cite a reference, as its source gives it: shared by
 * GradedReference and LiteratureReference. Optional, so answers stored before them still read.
 */
export const citationFields = {
  journal: z.string().nullish(),
  authors: z.array(z.string()).optional().describe('in the order the paper lists them, as the source writes them ("Bao Y", "Ying Bao")'),
  volume: z.string().nullish(),
  issue: z.string().nullish(),
  pages: z.string().nullish().describe('a page range ("1116-1122") or an article number ("e1000218")'),
  titleDerived: z.boolean().optional().describe("true when the record had no title and `title` was derived from its abstract: not the paper's title"),
};
