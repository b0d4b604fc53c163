import { z } from "zod";
import { studySpeciesSchema } from "@/lib/shared/contracts/evidence";

/**
 * The world state of a deep-research conversation as a reader takes it. The contract leaves it an
 * open object (section 2.3); this schema reads the fields the agent writes (agent/deep-research/
 * world.ts) and gives each a neutral value when it is missing or malformed, so a conversation
 * stored by an earlier version, or a field this page does not know, never breaks the page.
 */
const texts = z.array(z.string()).catch([]).transform((items) => items.filter((s) => s.trim() !== ""));

const worldFindingReferenceSchema = z.object({
  ordinal: z.int().nullish().catch(null),
  title: z.string().min(1).catch("Untitled reference"),
  url: z.string().nullish().catch(null),
  pmid: z.string().nullish().catch(null),
  doi: z.string().nullish().catch(null),
});
export type WorldFindingReference = z.infer<typeof worldFindingReferenceSchema>;

const worldFindingSchema = z.object({
  statement: z.string().min(1),
  references: z.array(worldFindingReferenceSchema).catch([]),
  axis: z.string().nullish().catch(null),
  species: studySpeciesSchema.nullish().catch(null),
});
export type WorldFinding = z.infer<typeof worldFindingSchema>;

const worldAxisSchema = z.object({
  axis: z.string().min(1),
  label: z.string().nullish().catch(null),
  status: z.enum(["covered", "not_covered", "not_applicable"]).catch("covered"),
  queries: texts,
  findings: z.int().min(0).catch(0),
  summary: z.string().nullish().catch(null),
});
export type WorldAxis = z.infer<typeof worldAxisSchema>;

/** Drops the items of an array that do not read, keeping the others. */
const each = <T>(item: z.ZodType<T>) =>
  z
    .array(z.unknown())
    .catch([])
    .transform((items) => items.flatMap((raw) => {
      const parsed = item.safeParse(raw);
      return parsed.success ? [parsed.data] : [];
    }));

export const worldStateSchema = z.object({
  objectives: texts,
  findings: each(worldFindingSchema),
  hypotheses: texts,
  openQuestions: texts,
  sources: texts,
  axes: each(worldAxisSchema),
  contradictions: each(z.object({ statement: z.string().min(1) })),
});
export type WorldState = z.infer<typeof worldStateSchema>;
