import { Validator } from "@seriousme/openapi-schema-validator";
import { describe, expect, it } from "vitest";
import { GET } from "@/app/api/openapi.json/route";
import { CONTRACT_VERSION } from "@/lib/contracts";
import { buildOpenApiDocument } from "@/lib/openapi/document";
import { PAID_OPERATIONS } from "@/lib/payments/prices";

type Doc = {
  openapi: string;
  info: { version: string };
  servers: { url: string }[];
  paths: Record<string, Record<string, Record<string, unknown>>>;
  components: { schemas: Record<string, unknown> };
};

const doc = buildOpenApiDocument({ publicUrl: "https://research.example", maxBodyBytes: 256 * 1024 }) as unknown as Doc;

describe("OpenAPI document", () => {
  it("is a valid OpenAPI 3.1 document", async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(doc));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe("3.1");
  });

  it("has the contract's description version and the public origin", () => {
    expect(doc.info.version).toBe(CONTRACT_VERSION);
    expect(doc.servers).toEqual([{ url: "https://research.example" }]);
  });

  it("covers every route of sections 4.1 to 4.5", () => {
    const operations = Object.entries(doc.paths).flatMap(([path, item]) => Object.keys(item).map((m) => `${m.toUpperCase()} ${path}`));
    expect(operations).toEqual(
      expect.arrayContaining([
        "POST /api/deep-research/start",
        "GET /api/deep-research/{conversationId}",
        "POST /api/deep-research/encrypted",
        "POST /api/deep-research/encrypted/status/{messageId}",
        "POST /api/chat",
        "GET /api/chat/status/{requestId}",
        "GET /api/enclave-key",
        "POST /api/chat/encrypted",
        "GET /api/chat/encrypted/status/{requestId}",
        "POST /api/literature",
        "GET /api/literature/jobs/{jobId}",
        "POST /api/literature/encrypted",
        "GET /api/literature/encrypted/status/{requestId}",
        "GET /api/health",
        "GET /api/cron",
      ]),
    );
  });

  it("gives every paid operation its price, the x402 headers and a 402", () => {
    for (const op of PAID_OPERATIONS) {
      const operation = doc.paths[op.path]?.post as Record<string, any>;
      expect(operation, op.path).toBeDefined();
      expect(operation["x-payment-info"]).toMatchObject({ protocols: ["x402"], pricingMode: "fixed", price: op.price });
      expect(operation.parameters).toEqual(expect.arrayContaining([expect.objectContaining({ name: "PAYMENT-SIGNATURE", in: "header" })]));
      expect(operation.responses["402"].headers["PAYMENT-REQUIRED"]).toBeDefined();
      expect(operation.responses["400"]).toBeDefined();
    }
    expect(doc.paths["/api/chat"]?.post?.["x-payment-info"]).toMatchObject({ price: "$0.02" });
    expect(doc.paths["/api/deep-research/start"]?.post?.["x-payment-info"]).toMatchObject({ price: "$1.00" });
    expect(doc.paths["/api/literature"]?.post?.["x-payment-info"]).toMatchObject({ price: "$0.03" });
  });

  it("generates the schemas from the contract, with the literature limits", () => {
    const literature = doc.components.schemas.LiteratureQueryRequest as Record<string, any>;
    expect(literature.required).toEqual(["question"]);
    expect(literature.properties.question).toMatchObject({ minLength: 1, maxLength: 8192 });
    expect(literature.properties.mode.default).toBe("fast");
    const reference = doc.components.schemas.ChatReference as Record<string, any>;
    expect(reference.properties.ordinal.minimum).toBe(1);
    const rejected = doc.components.schemas.ChatRejectedReference as Record<string, any>;
    expect(rejected.properties.evidenceRole.enum).toEqual(["context", "lead_only"]);
    // Every $ref points at a schema that exists.
    const refs = JSON.stringify(doc).match(/#\/components\/schemas\/[A-Za-z0-9]+/g) ?? [];
    for (const r of new Set(refs)) expect(doc.components.schemas).toHaveProperty(r.split("/").pop()!);
  });

  it("is served at GET /api/openapi.json", async () => {
    const response = await GET(new Request("http://gateway.test/api/openapi.json"));
    expect(response.status).toBe(200);
    expect(((await response.json()) as Doc).openapi).toBe("3.1.0");
  });
});

describe("the graded answer in the OpenAPI document", () => {
  it("documents the verdict, its basis and the graded references beside the contract's fields", () => {
    const chat = doc.components.schemas.ChatResult as Record<string, any>;
    expect(chat.properties.verdict.$ref).toBe("#/components/schemas/Verdict");
    expect(chat.properties.verdictBasis.$ref).toBe("#/components/schemas/VerdictBasis");
    expect(chat.properties.references.items.$ref).toBe("#/components/schemas/GradedReference");
    expect(chat.required).not.toContain("verdict");
    const verdict = doc.components.schemas.Verdict as Record<string, any>;
    expect(verdict.enum).toEqual(["supports", "contradicts", "mixed", "insufficient"]);
    expect(verdict.description).toMatch(/insufficient \(nothing on-topic, no stated finding, or only weak or indirect evidence\)/);
    const graded = doc.components.schemas.GradedReference as Record<string, any>;
    expect(graded.required).toEqual((doc.components.schemas.ChatReference as Record<string, any>).required);
    expect(graded.properties.snapshot.$ref).toBe("#/components/schemas/StudySnapshot");
    expect(graded.properties.stance.enum).toEqual(["supports", "contradicts", "mixed", "unclear"]);
    const snapshot = doc.components.schemas.StudySnapshot as Record<string, any>;
    expect(Object.keys(snapshot.properties)).toEqual(["design", "species", "population", "sampleSize", "intervention", "direction", "finding"]);
    expect(snapshot.properties.direction.enum).toEqual(["positive", "negative", "null", "mixed", "unclear"]);
    const literature = doc.components.schemas.LiteratureJobResult as Record<string, any>;
    expect(JSON.stringify(literature.properties.verdict)).toContain("#/components/schemas/Verdict");
  });
});

describe("the body limits the document states", () => {
  type Op = { requestBody?: { description?: string }; responses: Record<string, { description: string }> };
  const limitOf = (d: Doc, route: string) => (d.paths[route]!.post as unknown as Op).responses["413"]!.description;

  it("are each route's own: 1 MiB for encrypted chat, MAX_BODY_BYTES for the others", () => {
    expect(limitOf(doc, "/api/chat/encrypted")).toContain("1 MiB (1048576 bytes)");
    for (const route of ["/api/chat", "/api/literature", "/api/literature/encrypted", "/api/deep-research/start", "/api/deep-research/encrypted", "/api/deep-research/encrypted/status/{messageId}"]) {
      expect(limitOf(doc, route)).toContain("256 KiB (262144 bytes)");
    }
    expect((doc.paths["/api/chat/encrypted"]!.post as unknown as Op).requestBody?.description).toBe("At most 1 MiB");
  });

  it("follow the deployment's MAX_BODY_BYTES, as the routes do", () => {
    const larger = buildOpenApiDocument({ publicUrl: "https://research.example", maxBodyBytes: 2 * 1024 * 1024 }) as unknown as Doc;
    expect(limitOf(larger, "/api/chat")).toContain("2 MiB");
    expect(limitOf(larger, "/api/chat/encrypted")).toContain("2 MiB");
  });
});
