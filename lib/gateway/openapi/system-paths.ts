import { SEALING_PAGE_PATH } from "@/lib/shared/sealing/descriptor";
import { databaseUnavailable, error, json, type Json } from "@/lib/shared/openapi/responses";

/**
 * The OpenAPI document's free routes that describe the service rather than answer a question:
 * the sealing page, health, the settlement cron, this document and the discovery documents.
 */
export function systemPaths(): Record<string, Record<string, Json>> {
  return {
    [SEALING_PAGE_PATH]: {
      get: {
        operationId: "getSealingPage",
        summary: "How to seal a private request and open its answer (free): the suite, the steps, test vectors, errors, the recovery-key format",
        description:
          "`suite` (as GET /api/enclave-key names it), `sealRequest` and `openResponse` (the algorithm step by step), `plaintexts` (each sealed route's plaintext and answer schemas, by their names in this document), `errors` (what each 400 `reason` of a failed opening means), `testVectors` (fixed keys and nonces, every intermediate value, the envelope and answer byte for byte, and a forged answer a correct client must refuse) and `recoveryKey` (format, derivation, an example).",
        tags: ["private mode"],
        responses: { "200": json("SealingPage", "The sealing page"), "500": error("Internal failure") },
      },
    },
    "/api/health": {
      get: {
        operationId: "getHealth",
        summary: "Health of the gateway and its dependencies (free), with each literature source's state (`literature`)",
        description:
          "The gateway's status, its database, the research agent and payments (each with latency and a message), its payment configuration and prices, deep-research conversations by status, private mode's readiness, and each literature source's health. 200 when healthy or degraded, 503 when a component is down.",
        tags: ["system"],
        responses: {
          "200": json("HealthResponse", "Healthy or degraded"),
          "503": json("HealthResponse", "A component is down"),
        },
      },
    },
    "/api/cron": {
      get: {
        operationId: "runCron",
        summary: "Settlement cron, called by the scheduler every minute",
        description:
          "Settles the deep-research payments whose turn delivered, voids or expires those that cannot be, releases interrupted requests, then sweeps what is past its retention. Needs `Authorization: Bearer <CRON_SECRET>`.",
        tags: ["system"],
        security: [{ cronSecret: [] }],
        responses: {
          "200": json("CronResult", "What the run did"),
          "401": error("Missing or invalid bearer token, or no CRON_SECRET configured"),
          "503": databaseUnavailable,
        },
      },
    },
    "/api/openapi.json": {
      get: {
        operationId: "getOpenApiDocument",
        summary: "This document (free)",
        description: "The OpenAPI 3.1 description of every route, its price, body, answers and polling, generated from the schemas the routes use.",
        tags: ["system"],
        responses: { "200": json("OpenApiDocument", "This OpenAPI 3.1 document"), "500": error("Internal failure") },
      },
    },
    "/.well-known/x402.json": {
      get: {
        operationId: "getX402DiscoveryManifest",
        summary: "The x402 discovery manifest (free): every paid route's payment requirements, input and output, as its live 402 states them",
        description:
          "The per-origin manifest of the x402 well-known discovery draft: `{ x402Version, lastUpdated, items }`, one item per paid route with `resource`, `type`, `accepts`, `input` (method, bodyType, body JSON Schema) and `output` (mimeType, the 202's example and JSON Schema, and `asyncPolling`: where and how to poll, which statuses are final). Generated from the same table as the 402s; the live 402 stays authoritative.",
        tags: ["system"],
        responses: { "200": json("DiscoveryManifest", "The manifest"), "500": error("Internal failure") },
      },
    },
    "/llms.txt": {
      get: {
        operationId: "getLlmsTxt",
        summary: "This service for language models (free): prices, the pay then poll pattern, free routes, private mode, spend controls",
        description: "Markdown, per the llms.txt convention: what the service is, every paid route with its price and how its work is followed, the free routes, private mode, and how to allow this asset in the official x402 client's spend controls.",
        tags: ["system"],
        responses: {
          "200": { description: "Markdown (text/plain)", content: { "text/plain": { schema: { type: "string" } } } },
          "500": error("Internal failure"),
        },
      },
    },
  };
}
