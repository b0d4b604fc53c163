import { Validator } from "@seriousme/openapi-schema-validator";
import { describe, expect, it } from "vitest";
import { GET } from "@/app/api/openapi.json/route";
import { CONTRACT_VERSION } from "@/lib/shared/contracts";
import { buildOpenApiDocument } from "@/lib/gateway/openapi/document";
import { referencedSchemas } from "@/lib/gateway/openapi/components";
import { PAID_OPERATIONS } from "@/lib/shared/operations";
import { buildSealingPage } from "@/lib/shared/sealing/page";
import { createConformance, type OpenApiDocument } from "../support/openapi-conformance";

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
    const reference = doc.components.schemas.GradedReference as Record<string, any>;
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
  it("documents the verdict, its basis and the graded references", () => {
    const chat = doc.components.schemas.ChatResult as Record<string, any>;
    expect(chat.properties.verdict.$ref).toBe("#/components/schemas/Verdict");
    expect(chat.properties.verdictBasis.$ref).toBe("#/components/schemas/VerdictBasis");
    expect(chat.properties.references.items.$ref).toBe("#/components/schemas/GradedReference");
    expect(chat.required).not.toContain("verdict");
    const verdict = doc.components.schemas.Verdict as Record<string, any>;
    expect(verdict.enum).toEqual(["supports", "contradicts", "mixed", "insufficient"]);
    expect(verdict.description).toMatch(/insufficient \(nothing on-topic, no stated finding, or only weak or indirect evidence\)/);
    const graded = doc.components.schemas.GradedReference as Record<string, any>;
    expect(graded.required).toEqual(["ordinal", "id", "title", "url", "source", "evidenceType", "verification", "confidence", "roleReason", "evidenceRole"]);
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

describe("what the document says of each operation (issue 16: the document matches the wire)", () => {
  type Operation = {
    summary?: string;
    description?: string;
    requestBody?: { content: Record<string, { schema?: Record<string, unknown>; example?: unknown; "x-sealed-plaintext"?: { schema: unknown } }> };
    responses: Record<string, { description: string; content?: Record<string, { schema?: Record<string, unknown>; example?: unknown; "x-sealed-answer"?: { schema: unknown } }> }>;
  };
  const full = doc as unknown as OpenApiDocument & { paths: Record<string, Record<string, Operation>> };
  const operations = Object.entries(full.paths).flatMap(([path, item]) => Object.entries(item).map(([method, op]) => [`${method.toUpperCase()} ${path}`, op] as const));
  const conformance = createConformance(full);

  it.each(operations)("%s has a summary and a description", (_name, op) => {
    expect(op.summary?.length).toBeGreaterThan(10);
    expect(op.description?.length).toBeGreaterThan(40);
  });

  it.each(operations.filter(([, op]) => op.requestBody))("%s gives an example body, which its schema takes with no field left undeclared", async (name, op) => {
    for (const media of Object.values(op.requestBody!.content)) {
      expect(media.example, name).toBeDefined();
      await conformance.checkSchema(`${name} example`, media.schema!, Response.json(media.example));
    }
  });

  it("gives the 202 of every paid operation an example, each taken by its schema", async () => {
    for (const op of PAID_OPERATIONS) {
      const media = full.paths[op.path]!.post!.responses["202"]!.content!["application/json"]!;
      expect(media.example, op.path).toBeDefined();
      await conformance.checkSchema(`${op.path} 202 example`, media.schema!, Response.json(media.example));
    }
  });

  it("holds only schemas a path reaches", () => {
    const reached = referencedSchemas({ paths: full.paths, unserved: full["x-unserved-requests"] }, full.components.schemas);
    expect(Object.keys(full.components.schemas).filter((id) => !reached.has(id))).toEqual([]);
    expect(Object.keys(full.components.schemas)).not.toContain("UpstreamChatRequestA");
  });

  it("cites nothing the service does not serve", () => {
    const texts: string[] = [];
    const collect = (value: unknown): void => {
      if (Array.isArray(value)) return value.forEach(collect);
      if (typeof value !== "object" || value === null) return;
      for (const [key, item] of Object.entries(value)) {
        if ((key === "description" || key === "summary") && typeof item === "string") texts.push(item);
        else collect(item);
      }
    };
    collect(doc);
    expect(texts.length).toBeGreaterThan(200);
    expect(texts.filter((t) => /section \d/i.test(t))).toEqual([]);
    expect(texts.filter((t) => /\bdocs\/|\.md\b|\bthe contract\b|contract's/i.test(t))).toEqual([]);
  });

  it("documents the 404 of every status route, with its body schema", () => {
    for (const { polling: route } of PAID_OPERATIONS) {
      const notFound = full.paths[route.path]![route.method.toLowerCase()]!.responses["404"];
      expect(notFound, route.path).toBeDefined();
      expect(notFound!.content!["application/json"]!.schema, route.path).toHaveProperty("$ref");
    }
    expect(full.paths["/api/literature/jobs/{jobId}"]!.get!.responses["404"]!.description).toMatch(/Unknown or expired literature job/);
  });

  it("names what each sealed route seals, and what its sealed answers open to", () => {
    const sealedStarts = PAID_OPERATIONS.filter((op) => op.path.endsWith("/encrypted"));
    expect(sealedStarts).toHaveLength(3);
    for (const op of [...sealedStarts.map((o) => full.paths[o.path]!.post!), full.paths["/api/deep-research/encrypted/status/{messageId}"]!.post!]) {
      expect(op.requestBody!.content["application/json"]!["x-sealed-plaintext"]!.schema).toHaveProperty("$ref");
    }
    const answers: [string, string, string][] = [
      ["/api/chat/encrypted", "post", "ChatResult"],
      ["/api/chat/encrypted/status/{requestId}", "get", "ChatResult"],
      ["/api/literature/encrypted/status/{requestId}", "get", "LiteratureJobResult"],
      ["/api/deep-research/encrypted/status/{messageId}", "post", "PrivateDeepResearchResult"],
    ];
    for (const [path, method, schema] of answers) {
      expect(full.paths[path]![method]!.responses["200"]!.content!["application/json"]!["x-sealed-answer"]!.schema, path).toEqual({ $ref: `#/components/schemas/${schema}` });
    }
  });

  it("says what the API edge answers to a request no operation serves: 405 with Allow, 404", () => {
    const unserved = full["x-unserved-requests"]!;
    expect(unserved["405"]!.headers!.Allow!.required).toBe(true);
    expect(unserved["404"]!.content!["application/json"]!.schema).toEqual({ $ref: "#/components/schemas/Error" });
  });

  it("declares the sealing page as it is built, field by field", async () => {
    await conformance.check("GET /api/sealing", Response.json(buildSealingPage({ publicUrl: "https://research.example" })));
  });
});
