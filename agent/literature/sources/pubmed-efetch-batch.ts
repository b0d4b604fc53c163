import type { RateLimiter } from "../http";
import type { LiteratureRecord } from "../record";
import { SourceError } from "./types";

/**
 * Coalesces PubMed efetches: searches running at once each want their own PMIDs, and NCBI counts
 * requests (10 a second with a key), not ids (up to 200 a request). A fetch joins the queue; the
 * queue waits for a rate-limit slot, and whatever gathered while it waited goes out as one efetch
 * (at most `maxIds` ids), its records handed back to each caller by PMID. Alone, a fetch is sent as
 * soon as its slot comes, exactly as before; in a burst of twenty chats, twenty efetches become a
 * few. A caller that aborts stops waiting; the request goes on for the others.
 */
export type EfetchBatcher = {
  /** The records of these PMIDs (at most `maxIds`), as the efetch returned them. Throws SourceError. */
  fetch(pmids: readonly string[], signal?: AbortSignal): Promise<LiteratureRecord[]>;
};

type Waiting = { pmids: string[]; resolve: (records: LiteratureRecord[]) => void; reject: (err: unknown) => void; signal: AbortSignal | undefined };

export function createEfetchBatcher({
  limiter,
  maxIds,
  send,
}: {
  limiter: RateLimiter;
  maxIds: number;
  /** One efetch of `pmids` whose rate-limit slot is already held. */
  send: (pmids: string[]) => Promise<LiteratureRecord[]>;
}): EfetchBatcher {
  const queue: Waiting[] = [];
  let pumping = false;

  const takeBatch = (): Waiting[] => {
    const batch: Waiting[] = [];
    let ids = 0;
    while (queue.length > 0) {
      const next = queue[0]!;
      if (next.signal?.aborted) {
        queue.shift();
        continue;
      }
      if (batch.length > 0 && ids + next.pmids.length > maxIds) break;
      batch.push(queue.shift()!);
      ids += next.pmids.length;
    }
    return batch;
  };

  const dispatch = (batch: Waiting[]) => {
    const ids = [...new Set(batch.flatMap((w) => w.pmids))];
    send(ids).then(
      (records) => {
        // Alone, a caller gets the whole answer, as an efetch of its own would give it; shared, each
        // gets the records of the PMIDs it asked for.
        if (batch.length === 1) return batch[0]!.resolve(records);
        const byPmid = new Map(records.map((r) => [r.ids.pmid ?? "", r]));
        for (const w of batch) w.resolve(w.pmids.flatMap((id) => byPmid.get(id) ?? []));
      },
      (err: unknown) => batch.forEach((w) => w.reject(err)),
    );
  };

  const pump = async () => {
    pumping = true;
    try {
      while (queue.some((w) => !w.signal?.aborted)) {
        await limiter.acquire("pubmed");
        const batch = takeBatch();
        if (batch.length > 0) dispatch(batch);
      }
    } finally {
      pumping = false;
    }
  };

  return {
    fetch(pmids, signal) {
      return new Promise<LiteratureRecord[]>((resolve, reject) => {
        if (signal?.aborted) return reject(new SourceError("pubmed", "timeout", "efetch aborted by the caller"));
        const waiting: Waiting = { pmids: [...pmids], resolve, reject, signal };
        signal?.addEventListener("abort", () => reject(new SourceError("pubmed", "timeout", "efetch aborted by the caller")), { once: true });
        queue.push(waiting);
        if (!pumping) void pump();
      });
    },
  };
}
