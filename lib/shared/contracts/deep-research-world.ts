import { z } from "zod";
import { evidenceTypeSchema, outcomeDirectionSchema, stanceSchema, studySpeciesSchema } from "@/lib/shared/contracts/evidence";
import { responseRegistry } from "@/lib/shared/contracts/registry";

/**
 * The world state of a deep-research conversation as this service's agent writes it
 * (agent/deep-research/world.ts), for the OpenAPI document. The field stays an open object when
 * read (lib/shared/contracts/world-state.ts reads it field by field, whatever version wrote it); this is
 * what the document states it holds. Fields a newer version added are optional.
 */

const axisIdSchema = z.string().describe("the evidence axis: human_trials, observational, animal, mechanism, safety or dose_timing");

const worldFindingReferenceDocumentSchema = z
  .object({
    ordinal: z.int().min(1).describe("the reference's number in the turn's citations"),
    title: z.string(),
    url: z.string(),
    pmid: z.string().nullable().optional(),
    doi: z.string().nullable().optional(),
  })
  .register(responseRegistry, { id: "WorldFindingReference" });

const worldFindingDocumentSchema = z
  .object({
    statement: z.string(),
    references: z.array(worldFindingReferenceDocumentSchema),
    quote: z.string().optional().describe("the sentence as its source wrote it"),
    axis: axisIdSchema.optional(),
    species: studySpeciesSchema.nullable().optional().describe("who or what the study was done in"),
    direction: outcomeDirectionSchema.optional(),
    stance: stanceSchema.optional().describe("the study's stance toward the question, the one the verdict counts (findings on the question itself)"),
    design: evidenceTypeSchema.optional(),
  })
  .register(responseRegistry, { id: "WorldFinding" });

export const worldStateDocumentSchema = z
  .object({
    objectives: z.array(z.string()).describe("each iteration's objective"),
    findings: z.array(worldFindingDocumentSchema).describe("each finding once, grouped by axis"),
    hypotheses: z.array(z.string()),
    openQuestions: z.array(z.string()),
    sources: z.array(z.string()).describe("the literature sources searched"),
    axes: z
      .array(
        z.object({
          axis: axisIdSchema,
          label: z.string(),
          status: z.enum(["covered", "not_covered", "not_applicable"]).describe("covered: searched; not_covered: left out for the iteration budget; not_applicable: not a question for this axis"),
          queries: z.array(z.string()),
          referencesRead: z.int().min(0),
          referencesAccepted: z.int().min(0),
          findings: z.int().min(0),
          species: z.partialRecord(studySpeciesSchema, z.int().min(0)).optional().describe("animal findings per species"),
          summary: z.string().optional().describe("a model's audited summary of what the axis found, when a model is configured"),
        }),
      )
      .optional()
      .describe("what each evidence axis covered"),
    contradictions: z
      .array(z.object({ axis: axisIdSchema, species: studySpeciesSchema.nullable().optional(), statement: z.string(), references: z.array(worldFindingReferenceDocumentSchema) }))
      .optional()
      .describe("references on one axis whose findings go opposite ways"),
    runs: z
      .array(
        z.object({
          messageId: z.string(),
          iterations: z.int().min(0),
          axes: z.array(axisIdSchema),
          referencesScreened: z.int().min(0),
          referencesAccepted: z.int().min(0),
          referencesCited: z.int().min(0),
          findings: z.int().min(0),
          writer: z.string().describe("deep-research (deterministic) or deep-research-model (a model's report that passed the audit)"),
          model: z.record(z.string(), z.boolean()).optional().describe("which of the model's steps passed their checks, when a model is configured"),
        }),
      )
      .optional()
      .describe("how each turn researched"),
    messageIds: z.array(z.string()).optional().describe("the turns whose findings the world state holds"),
  })
  .register(responseRegistry, { id: "WorldState", description: "What a deep-research conversation knows: its objectives, findings by evidence axis, contradictions, hypotheses, open questions and the sources searched" });
