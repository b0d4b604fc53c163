import { encryptedLiteraturePlaintextSchema, literatureQueryRequestSchema } from "@/lib/shared/contracts";
import { JobFailure, type JobHandler } from "../jobs/worker";
import { runLiteratureSearch, type EngineDeps } from "../literature/engine";
import { toLiteratureJobResult } from "../literature/result";
import type { EnclaveKey } from "./enclave-key";
import { openEnvelopeInJob, sealTo } from "./envelope";

/**
 * Private literature search, inside the enclave: the job row holds the client's envelope; the
 * worker opens it and runs the ordinary engine, so what leaves the enclave is what any literature
 * search sends its sources (search queries built from the question, and identifier lookups to
 * verify references), never the sealed request itself, never to a model. The result is stored
 * sealed to the request's ephemeral key (the retention sweep deletes it after an hour). The
 * optional `recoveryKey` of the contract's plaintext is accepted and not used: a literature
 * result is not part of a conversation, and nothing is kept beyond the retention.
 */
export function createPrivateLiteratureHandler({ enclaveKey, engine }: { enclaveKey: () => Promise<EnclaveKey>; engine: Omit<EngineDeps, "progress" | "signal"> }): JobHandler<"private_literature"> {
  return async (job, { progress, signal }) => {
    const { envelope } = job.input;
    const { plaintext, replyTo } = await openEnvelopeInJob(enclaveKey, envelope, encryptedLiteraturePlaintextSchema, "literature request");
    const { recoveryKey: _recoveryKey, ...body } = plaintext;
    try {
      const request = literatureQueryRequestSchema.parse(body);
      const result = await runLiteratureSearch(request, { ...engine, progress, signal });
      return sealTo(replyTo, { ...toLiteratureJobResult(result), jobId: job.id, status: "completed" });
    } catch (err) {
      if (signal.aborted) throw err;
      throw new JobFailure("The private literature search failed");
    }
  };
}
