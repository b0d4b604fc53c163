import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chatJobStatusSchema, chatMetadataSchema } from "@/lib/shared/contracts";
import { agentRequest, startTestAgent, TEST_SERVICE_KEY } from "../support/agent";
import { createTestDatabase } from "../support/database";
import { startHttpDouble, type HttpDouble } from "../support/http-double";
import { startReplayServer, type ReplayServer } from "../support/replay-server";
import { ended, pollFor } from "../support/until";

const recorded = (file: string) => path.resolve(import.meta.dirname, "../../../shared/fixtures/literature-apis", file);
const synthetic = (file: string) => path.resolve(import.meta.dirname, "../fixtures/literature", file);

/**
 * A deterministic stand-in for an OpenAI-compatible model: it answers whatever the test sets,
 * and records the prompts it was given (the real client code talks to it over HTTP).
 */
describe("chat written by a model, under the citation audit", () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let replay: ReplayServer;
  let model: HttpDouble;
  let reply = "";
  let agent: Awaited<ReturnType<typeof startTestAgent>>;

  beforeAll(async () => {
    database = await createTestDatabase();
    replay = await startReplayServer([
      { path: "/pubmed/esearch.fcgi", file: synthetic("pubmed-esearch-synthetic-27797938.json") },
      { path: "/pubmed/efetch.fcgi", file: recorded("pubmed-eutils/biopython_pubmed4.xml") },
    ]);
    model = await startHttpDouble(() => ({ status: 200, body: { choices: [{ message: { role: "assistant", content: reply } }] } }));
    agent = await startTestAgent({
      POSTGRES_URL: database.url,
      PUBMED_BASE_URL: `${replay.url}/pubmed`,
      LITERATURE_SOURCES: "pubmed,local",
      LLM_BASE_URL: `${model.url}/v1`,
      LLM_API_KEY: "model-key",
      LLM_MODEL: "test-model",
    });
  });
  afterAll(async () => {
    await agent?.stop();
    await model?.close();
    await replay?.close();
    await database?.drop();
  });

  async function ask(message: string) {
    const { requestId } = (await (await agentRequest(agent.app, "/api/chat", { body: { message }, key: TEST_SERVICE_KEY })).json()) as { requestId: string };
    const status = await pollFor(
      async () => chatJobStatusSchema.parse(await (await agentRequest(agent.app, `/api/chat/status/${requestId}`)).json()),
      ended,
      { what: "the answer" },
    );
    if (status.status !== "completed") throw new Error(`no answer: ${JSON.stringify(status)}`);
    return status.result!;
  }

  // The recorded article (PMID 27797938) is a case-control study of leucocyte telomere length and
  // the risk of pancreatic cancer: it tests that question, and no question about mortality.
  const TESTED = "Is leucocyte telomere length associated with pancreatic cancer risk?";
  const FINDING = "Observational studies: Shorter leucocyte telomere length was associated with a higher risk of pancreatic cancer in this case-control study [1].";

  it("uses the model's answer when every sentence is cited and supported, and keeps its structure", async () => {
    reply = ["Bottom line: the evidence leans toward supporting it, with low confidence.", FINDING, "Limits: The evidence is limited to one case-control study."].join("\n\n");
    const result = await ask(TESTED);
    expect(result.verdict).toBe("supports");
    expect(result.verdictBasis?.confidence).toBe("low");
    expect(result.metadata).toMatchObject({ writer: "model", model: "test-model", modelWriter: { used: true, bottomLine: "model", limits: "model" } });
    expect(result.answer).toBe(reply);
    // The bottom line the answer opens with is the model's: the page shows it once, in its card.
    expect((result.metadata as { bottomLine: string }).bottomLine).toBe("Bottom line: the evidence leans toward supporting it, with low confidence.");
    expect(result.quality.contractValid).toBe(true);
    const prompt = JSON.parse(model.requests.at(-1)!.body) as { model: string; messages: { content: string }[] };
    expect(prompt.model).toBe("test-model");
    // Asked for the extractive writer's structure, given the verdict with its confidence and each reference's snapshot.
    expect(prompt.messages[0]!.content).toMatch(/'Bottom line:'.*'Human trials:'.*'Limits:'/);
    expect(prompt.messages[1]!.content).toContain("[1] ");
    expect(prompt.messages[1]!.content).toMatch(/Verdict computed from the graded evidence: supports \(.*\); confidence low \(one observational study\)/);
    expect(prompt.messages[1]!.content).toMatch(/observational.*finding positive; supports the question/);
    expect(model.requests.at(-1)!.headers.authorization).toBe("Bearer model-key");
  });

  it("opens with the evidence's own bottom line when the model's states another verdict, another confidence or none", async () => {
    reply = `Bottom line: the evidence is insufficient.\n\n${FINDING}`;
    const result = await ask(TESTED);
    expect(result.metadata).toMatchObject({ writer: "model", modelWriter: { used: true, bottomLine: "extractive" } });
    const paragraphs = result.answer.split("\n\n");
    expect(paragraphs[0]).toMatch(/^Bottom line: the evidence leans toward supporting it, with low confidence\./);
    expect(paragraphs[1]).toBe(FINDING);
    expect(paragraphs.at(-1)).toMatch(/^Limits: /);
    expect(result.answer).not.toContain("insufficient");
    expect((result.metadata as { modelWriter: { removed: { reason: string }[] } }).modelWriter.removed[0]!.reason).toMatch(/verdict \(supports\)/);
    expect(result.quality.contractValid).toBe(true);
    // A low-confidence verdict stated as a plain, confident one is not the evidence's bottom line either.
    reply = `Bottom line: the evidence supports it.\n\n${FINDING}`;
    const confident = await ask(TESTED);
    expect(confident.answer.split("\n\n")[0]).toMatch(/^Bottom line: the evidence leans toward supporting it, with low confidence\./);
    expect((confident.metadata as { modelWriter: { removed: { reason: string }[] } }).modelWriter.removed[0]!.reason).toMatch(/confidence \(low\)/);
  });

  it("keeps a model from calling a question answered that no study tests: the bottom line says what was closest", async () => {
    // Nothing found names mortality: the closest study is context, and the verdict insufficient.
    reply = ["Bottom line: the evidence supports it.", FINDING].join("\n\n");
    const result = await ask("Is leucocyte telomere length associated with mortality?");
    expect(result.verdict).toBe("insufficient");
    expect(result.references.find((r) => r.pmid === "27797938")).toMatchObject({ evidenceRole: "context", roleReason: expect.stringMatching(/^does not study mortality/) });
    const bottomLine = result.answer.split("\n\n")[0]!;
    expect(bottomLine).toBe(
      "Bottom line: the evidence is insufficient to answer it: no study found tests both leucocyte telomere length and mortality. The closest study found does not study mortality.",
    );
    expect((result.metadata as { bottomLine: string }).bottomLine).toBe(bottomLine);
  });

  it("records how the answer was written in the metadata the document states (ChatMetadata), whichever writer stands", async () => {
    for (const written of [["Bottom line: the evidence supports it.", FINDING].join("\n\n"), "Telomere length predicts mortality [7]."]) {
      reply = written;
      const result = await ask(TESTED);
      expect(chatMetadataSchema.strict().parse(result.metadata)).toEqual(result.metadata);
    }
  });

  it("falls back to the extractive answer when the model cites a reference that does not exist", async () => {
    reply = "Telomere length predicts mortality [7].";
    const result = await ask("Is leucocyte telomere length associated with mortality?");
    expect(result.metadata).toMatchObject({ writer: "extractive", modelWriter: { used: false, reason: "no cited sentence survived the audit" } });
    expect(result.answer).not.toContain("[7]");
    expect(result.quality.contractValid).toBe(true);
  });
});
