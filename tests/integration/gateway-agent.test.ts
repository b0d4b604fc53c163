import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as health } from "@/app/api/health/route";
import { chatJobStatusSchema, literatureJobResultSchema } from "@/lib/shared/contracts";
import { createPayingFetch } from "@/lib/client/payments/client";
import { startTestAgent, TEST_SERVICE_KEY } from "../support/agent";
import { createTestDatabase } from "../support/database";
import { configureGateway } from "../support/gateway";
import { chain, freshAddress, usdcBalance, wallet } from "../support/payments";
import { startReplayServer, type ReplayServer } from "../support/replay-server";
import { routeFetch } from "../support/routes";
import { ended, pollFor } from "../support/until";

const recorded = (file: string) => path.resolve(import.meta.dirname, "../../../shared/fixtures/literature-apis", file);
const synthetic = (file: string) => path.resolve(import.meta.dirname, "../fixtures/literature", file);
const PUBLIC_URL = "https://gateway.test";

describe("a paid literature search, from the official x402 client through the gateway to the agent", () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let replay: ReplayServer;
  let agent: Awaited<ReturnType<typeof startTestAgent>>;
  let restore: () => Promise<void>;
  const payTo = freshAddress();

  beforeAll(async () => {
    database = await createTestDatabase();
    replay = await startReplayServer([
      { path: "/pubmed/esearch.fcgi", file: synthetic("pubmed-esearch-synthetic-27797938.json") },
      { path: "/pubmed/efetch.fcgi", file: recorded("pubmed-eutils/biopython_pubmed4.xml") },
      { path: "/europepmc/search", file: synthetic("europepmc-search-core-synthetic.json") },
    ]);
    agent = await startTestAgent({
      POSTGRES_URL: database.url,
      PUBMED_BASE_URL: `${replay.url}/pubmed`,
      EUROPEPMC_BASE_URL: `${replay.url}/europepmc`,
      LITERATURE_SOURCES: "pubmed,europepmc,local",
    });
    restore = await configureGateway({
      POSTGRES_URL: database.url,
      UPSTREAM_API_URL: agent.url,
      AGENT_SERVICE_KEY: TEST_SERVICE_KEY,
      PUBLIC_URL,
      RPC_URL: chain().rpcUrl,
      PAY_TO_ADDRESS: payTo,
    });
  });
  afterAll(async () => {
    await restore?.();
    await agent?.stop();
    await replay?.close();
    await database?.drop();
  });

  /** Polls a free status route until its job ends; every poll answers 200. */
  const pollToEnd = <T extends { status?: string | null }>(url: string, schema: { parse: (body: unknown) => T }) =>
    pollFor(
      async () => {
        const response = await routeFetch(url);
        expect(response.status).toBe(200);
        return schema.parse(await response.json());
      },
      ended,
      { what: `${url} to end` },
    );

  it("pays $0.03, gets a job, and polls it for free to a completed, cited result", async () => {
    const before = await usdcBalance(payTo);
    const { fetch: pay } = createPayingFetch({ privateKey: wallet(24).privateKey, network: chain().network, asset: chain().asset, fetchImpl: routeFetch });
    const accepted = await pay(`${PUBLIC_URL}/api/literature`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ question: "leucocyte telomere length and mortality", includeRejected: true }),
    });
    expect(accepted.status).toBe(202);
    expect(accepted.headers.get("payment-response")).toBeTruthy();
    const { jobId } = (await accepted.json()) as { jobId: string };
    expect((await usdcBalance(payTo)) - before).toBe(30_000n);

    const result = await pollToEnd(`${PUBLIC_URL}/api/literature/jobs/${jobId}`, literatureJobResultSchema);
    expect(result.status).toBe("completed");
    expect(result.references!.length).toBeGreaterThan(0);
    expect(result.answer).toMatch(/\[1\]/);
    // Beside the contract's fields, through the gateway's schema: the verdict and each reference's snapshot.
    expect(result.verdict).toMatch(/^(supports|contradicts|mixed|insufficient)$/);
    expect(result.answer).toMatch(/^Bottom line: /);
    expect(result.references![0]!.snapshot).toMatchObject({ design: expect.any(String), direction: expect.any(String) });
    expect(result.rejectedReferences).toBeDefined();
    expect((await usdcBalance(payTo)) - before).toBe(30_000n); // polling is free
  });

  it("pays $0.02 for chat and polls it to a completed, contract-valid answer", async () => {
    const before = await usdcBalance(payTo);
    const { fetch: pay } = createPayingFetch({ privateKey: wallet(25).privateKey, network: chain().network, asset: chain().asset, fetchImpl: routeFetch });
    const accepted = await pay(`${PUBLIC_URL}/api/chat`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ message: "Is leucocyte telomere length associated with pancreatic cancer risk?" }),
    });
    expect(accepted.status).toBe(202);
    const { requestId } = (await accepted.json()) as { requestId: string };
    expect((await usdcBalance(payTo)) - before).toBe(20_000n);
    const status = await pollToEnd(`${PUBLIC_URL}/api/chat/status/${requestId}`, chatJobStatusSchema);
    expect(status.status).toBe("completed");
    expect(status.result!.quality.contractValid).toBe(true);
    expect(status.result!.references.length).toBeGreaterThan(0);
    expect(status.result!.answer).toMatch(/\[1\]/);
    // The graded answer reaches the payer intact: its verdict and basis, and each reference's grading.
    expect(status.result!.verdict).toBe("supports");
    expect(status.result!.verdictBasis).toMatchObject({ supporting: expect.any(Number), reason: expect.any(String), confidence: "low", confidenceReason: "one observational study" });
    expect(status.result!.answer).toMatch(/^Bottom line: the evidence leans toward supporting it, with low confidence\./);
    const telomere = status.result!.references.find((r) => r.pmid === "27797938");
    expect(telomere).toMatchObject({ stance: "supports", snapshot: { design: "observational", species: "human" } });
  });

  it("reports the agent healthy in the gateway's health", async () => {
    const response = await health(new Request(`${PUBLIC_URL}/api/health`));
    const body = (await response.json()) as { components: { upstreamApi: { status: string } } };
    expect(body.components.upstreamApi.status).toBe("healthy");
  });
});
