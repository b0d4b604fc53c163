import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { errorBodySchema, literatureJobResultSchema, literatureReachSchema, type LiteratureJobResult, type LiteratureReach } from "@/lib/shared/contracts";
import { enqueueJob } from "@/agent/jobs/queue";
import { agentRequest, startTestAgent } from "../support/agent";
import { createTestDatabase } from "../support/database";
import { startReplayServer, type ReplayServer } from "../support/replay-server";

const recorded = (file: string) => path.resolve(import.meta.dirname, "../../../shared/fixtures/literature-apis", file);
const synthetic = (file: string) => path.resolve(import.meta.dirname, "../fixtures/literature", file);

describe("the agent's literature API, end to end against replayed sources", () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let replay: ReplayServer;
  let agent: Awaited<ReturnType<typeof startTestAgent>>;

  beforeAll(async () => {
    database = await createTestDatabase();
    replay = await startReplayServer([
      { path: "/pubmed/esearch.fcgi", file: synthetic("pubmed-esearch-synthetic-27797938.json") },
      { path: "/pubmed/efetch.fcgi", file: recorded("pubmed-eutils/biopython_pubmed4.xml") },
      // Europe PMC hangs far past the source timeout: its results must be missing, the rest standing.
      { path: "/europepmc/search", file: recorded("europepmc/biomcp_search_pmid_20516115.json"), delayMs: 120_000 },
      { path: /^\/crossref\/works/, status: 404, body: { status: "error", message: "Resource not found." } },
    ]);
    agent = await startTestAgent({
      POSTGRES_URL: database.url,
      PUBMED_BASE_URL: `${replay.url}/pubmed`,
      EUROPEPMC_BASE_URL: `${replay.url}/europepmc`,
      CROSSREF_BASE_URL: `${replay.url}/crossref`,
      LITERATURE_SOURCES: "pubmed,europepmc,crossref,local",
      // Room for the sources that answer, on a busy machine; the hung one is cut off at this.
      SOURCE_TIMEOUT_MS: "3000",
      SOURCE_MAX_RETRIES: "0",
    });
  });
  afterAll(async () => {
    await agent?.stop();
    await replay?.close();
    await database?.drop();
  });

  async function poll(jobId: string): Promise<LiteratureJobResult> {
    for (let i = 0; i < 600; i++) {
      const response = await agentRequest(agent.app, `/api/literature/jobs/${jobId}`);
      expect(response.status).toBe(200);
      const body = literatureJobResultSchema.parse(await response.json());
      if (body.status === "completed" || body.status === "failed") return body;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error("the job did not finish");
  }

  it.each([
    ["no key", null],
    ["a wrong key", "not-the-service-key-at-all"],
  ])("answers 401 with {error} to a caller with %s", async (_name, key) => {
    for (const [route, body] of [["/api/literature", { question: "q" }], ["/api/literature/jobs/00000000-0000-4000-8000-000000000000", undefined]] as const) {
      const response = await agentRequest(agent.app, route, { body, key });
      expect(response.status).toBe(401);
      expect(errorBodySchema.parse(await response.json()).error).toBeTruthy();
    }
  });

  it.each([
    ["no question", {}],
    ["a question of 8193 characters", { question: "q".repeat(8193) }],
    ["an unknown mode", { question: "q", mode: "thorough" }],
    ["a bad date", { question: "q", date_from: "2024/01/01" }],
    ["malformed JSON", "{"],
  ])("answers 400 with the contract's error body for %s", async (_name, body) => {
    const response = await agentRequest(agent.app, "/api/literature", { body });
    expect(response.status).toBe(400);
    expect(errorBodySchema.parse(await response.json()).error).toMatch(/question|mode|date_from|JSON/);
  });

  it("queues a search and completes it with every field of section 2.11, despite a hung source", async () => {
    const accepted = await agentRequest(agent.app, "/api/literature", { body: { question: "Is leucocyte telomere length associated with mortality?" } });
    expect(accepted.status).toBe(202);
    const { jobId, status } = (await accepted.json()) as { jobId: string; status: string };
    expect(status).toBe("queued");
    expect(jobId).toMatch(/^[0-9a-f-]{36}$/);

    const result = await poll(jobId);
    expect(result.status).toBe("completed");
    const reference = result.references!.find((r) => (r as { pmid?: string }).pmid === "27797938") as Record<string, unknown> | undefined;
    expect(reference).toMatchObject({ evidenceType: "observational", verification: "verified", item_date: "2016-10-21", source: "pubmed" });
    expect((reference!.relevance as { accepted: boolean }).accepted).toBe(true);
    for (const m of result.answer!.matchAll(/\[(\d+)\]/g)) expect(result.references!.some((r) => r.id === Number(m[1]))).toBe(true);
    expect(result.answer).toMatch(/\[1\]/);
    expect(result.formattedAnswer).toContain("PMID 27797938");
    expect(result.contextPassages!.length).toBeGreaterThan(0);
    expect(result.reasoning!.length).toBeGreaterThan(2);
    expect(result.retrievalBackend).toBe("federated");
    expect(result.fallbackUsed).toBe(true);
    expect(result.effectiveSources).toContain("pubmed");
    expect(result.effectiveSources).not.toContain("europepmc");
    expect(result.reasoning!.join(" ")).toContain("europepmc failed (timeout)");
    // The failure typed, and said in the answer in words.
    expect(result.failedSources).toEqual([{ source: "europepmc", kind: "timeout" }]);
    expect(result.answer).toContain("Europe PMC did not answer in time; these results come from PubMed and the local library.");
    expect(result.quality).toMatchObject({ filtered: true, acceptedCount: 1 });
    expect(result.sourceProfile).toBe("fast-default");
  });

  it("answers 404 for an unknown job, and cancels a queued one", async () => {
    const unknown = await agentRequest(agent.app, "/api/literature/jobs/00000000-0000-4000-8000-000000000000");
    expect(unknown.status).toBe(404);
    // A job no worker may take (no attempt allowed), so it is still queued when it is cancelled,
    // however fast or slow the workers are: a paid start answers only once its search is running.
    const accepted = await enqueueJob({ db: agent.pool, kind: "literature", input: { question: "telomere length", mode: "fast" }, lane: "paid", caller: "service", maxAttempts: 0 });
    const cancel = await agentRequest(agent.app, `/api/literature/jobs/${accepted.id}/cancel`, { method: "POST" });
    expect(cancel.status).toBe(204);
    const after = await poll(accepted.id);
    expect(after).toMatchObject({ status: "failed", error: "The job was cancelled" });
  });

  it("serves a local-library record behind the service key, and 404 for an unknown one", async () => {
    const { rows } = await agent.pool.query(
      `INSERT INTO agent.library_records (id, content_hash, title, abstract) VALUES ('5d0c4a43-3f7b-4f0e-9a7c-2d3e4f5a6b7c', 'h-test', 'A record without ids', 'Some abstract text about telomeres.') RETURNING id`,
    );
    const id = rows[0].id as string;
    expect((await agentRequest(agent.app, `/api/library/records/${id}`, { key: null })).status).toBe(401);
    const response = await agentRequest(agent.app, `/api/library/records/${id}`);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ title: "A record without ids", source: "local" });
    expect((await agentRequest(agent.app, "/api/library/records/00000000-0000-4000-8000-000000000000")).status).toBe(404);
  });

  it("serves an open health report with the job counts and each source's health", async () => {
    const response = await agentRequest(agent.app, "/api/health", { key: null });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { status: string; literature: LiteratureReach };
    expect(body.status).toBe("healthy");
    const literature = literatureReachSchema.parse(body.literature);
    expect(literature.available).toBe(true);
    expect(literature.sources.map((s) => s.source).sort()).toEqual(["crossref", "europepmc", "local", "pubmed"]);
    expect(literature.sources.every((s) => s.circuit === "closed")).toBe(true);
  });
});
