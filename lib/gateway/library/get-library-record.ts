import "server-only";
import { z } from "zod";
import { isUuid } from "@/lib/shared/db/uuid";
import { getAgentApi } from "@/lib/gateway/upstream";

/**
 * A record of the service's local library as its public page shows it: what the agent's record
 * route answers (the gateway reads it with its service key; the agent's address is never handed
 * out), without the agent's own URL.
 */
const libraryRecordSchema = z.object({
  ids: z.object({ local: z.string(), pmid: z.string().optional(), doi: z.string().optional(), nct: z.string().optional() }),
  title: z.string(),
  abstract: z.string().nullable(),
  journal: z.string().nullable(),
  year: z.number().nullable(),
  authors: z.array(z.string()),
  publicationTypes: z.array(z.string()),
  mesh: z.array(z.string()),
  isRetracted: z.boolean(),
});
export type LibraryRecord = z.infer<typeof libraryRecordSchema>;

/**
 * The library record `id`, or null when there is none (a malformed id is simply not one). Throws
 * UpstreamUnavailableError when the agent cannot be reached (see isAgentUnreachable), and the
 * agent's other errors.
 */
export async function getLibraryRecord({ id }: { id: string }): Promise<LibraryRecord | null> {
  if (!isUuid(id)) return null;
  try {
    const { data } = await getAgentApi().client.json(`/api/library/records/${encodeURIComponent(id)}`, libraryRecordSchema);
    return data;
  } catch (err) {
    // By name, not instanceof: the agent client is shared on globalThis by every bundle of the
    // server, each with its own copy of the error classes.
    if (err instanceof Error && err.name === "UpstreamHttpError" && "upstreamStatus" in err && err.upstreamStatus === 404) return null;
    throw err;
  }
}

/** Whether `err` says the agent could not be reached or timed out (a passing condition). */
export function isAgentUnreachable(err: unknown): boolean {
  return err instanceof Error && err.name === "UpstreamUnavailableError";
}
