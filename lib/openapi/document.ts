import { z } from "zod";
import { CONTRACT_VERSION, requestRegistry, responseRegistry } from "@/lib/contracts";
import { MCP_MESSAGE_SCHEMA_ID, mcpMessageSchema, mcpPathItem } from "@/lib/mcp/openapi";
import { PAID_OPERATIONS, paidBodyLimit, type PaidOperation } from "@/lib/payments/prices";
import { SEALING_PAGE_PATH } from "@/lib/sealing/descriptor";
import { addPollingGuidance } from "./polling";

/**
 * The OpenAPI 3.1 description of the gateway (sections 4.1 to 4.5), generated from the same zod
 * schemas the routes validate with, so the document cannot drift from the code. AI agents read it
 * to discover the routes, their prices and the x402 flow.
 */

type Json = Record<string, unknown>;

const ref = (id: string) => ({ $ref: `#/components/schemas/${id}` });
const json = (schemaId: string, description: string): Json => ({
  description,
  content: { "application/json": { schema: ref(schemaId) } },
});
const error = (description: string) => json("Error", description);

const paymentSignatureHeader = {
  name: "PAYMENT-SIGNATURE",
  in: "header",
  required: false,
  description:
    "x402 v2 payment payload, standard base64 of UTF-8 JSON. Without it the route answers 402 with the payment requirements.",
  schema: { type: "string" },
};

const paymentRequired: Json = {
  description:
    "Payment absent or invalid: the payment requirements (section 2.2); refused payments carry `reason` and `message`. Without a payment, a body the route would refuse still gets the requirements, and `error` says what the 400 (or 413) after payment would: status, reason, each field and its problem.",
  headers: {
    "PAYMENT-REQUIRED": {
      description: "The same payment requirements, standard base64 of UTF-8 JSON.",
      schema: { type: "string" },
    },
  },
  content: { "application/json": { schema: ref("PaymentRequired") } },
};

const paymentResponseHeader = {
  "x-payment-replayed": {
    description: "true when this is the stored answer to a retried request with the same payment",
    schema: { type: "string" },
  },
  "PAYMENT-RESPONSE": {
    description: "x402 settlement response (standard base64 of UTF-8 JSON) when the payment was settled with this answer.",
    schema: { type: "string" },
  },
};

/** 256 KiB, 1 MiB, or a number of bytes. */
function bytesInWords(bytes: number): string {
  if (bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MiB`;
  return bytes % 1024 === 0 ? `${bytes / 1024} KiB` : `${bytes} bytes`;
}

/** The body errors of a route that reads at most `maxBytes`: the limit the route itself enforces. */
const bodyErrors = (maxBytes: number): Json => ({
  "400": error(
    "Invalid body (malformed JSON, not an object, or failing the schema, a field the schema does not define included; text PostgreSQL cannot store, NUL or an unpaired surrogate, in any string), or an undecodable path. With a payment, `charged: false`: nothing was recorded, and the same PAYMENT-SIGNATURE pays for the corrected request",
  ),
  "413": error(`Body larger than this route's limit, ${bytesInWords(maxBytes)} (${maxBytes} bytes); refused before it is read whole`),
});

const pathParam = (name: string) => ({ name, in: "path", required: true, schema: { type: "string" } });

const settlementUnavailable =
  "`settlement_unavailable`: the payment could not be settled now (facilitator or chain unreachable); nothing was delivered or charged. Send the same request with the same PAYMENT-SIGNATURE again after Retry-After. `payment_in_progress`: the same payment is still being answered.";

/** Paid chat and literature: no literature source can answer (before payment, or the search reached none), or the settlement 503. */
const literatureUnavailable: Json = {
  description:
    "`literature_unavailable` (reason `no_source_reachable`, a LiteratureUnavailable body): no literature source can answer — every live source failing and the local library empty. Answered before the 402 when known, or after payment when the started search reached no source; either way nothing is charged. Retry after Retry-After. Or " +
    settlementUnavailable,
  headers: { "Retry-After": { description: "Seconds to wait before trying again", schema: { type: "integer" } } },
  content: { "application/json": { schema: { oneOf: [ref("LiteratureUnavailable"), ref("Error")] } } },
};

function paidOperation(
  operation: PaidOperation["id"],
  spec: { requestSchema: string; description: string; responses: Json; tags: string[]; maxBodyBytes: number; externalDocs?: Json },
): Json {
  const op = PAID_OPERATIONS.find((o) => o.id === operation);
  if (!op) throw new Error(`Unknown paid operation ${operation}`);
  const responses: Json = {};
  for (const [status, response] of Object.entries(spec.responses)) {
    responses[status] = status.startsWith("2") ? { ...(response as Json), headers: paymentResponseHeader } : response;
  }
  return {
    operationId: op.id,
    summary: `${op.summary} (${op.price})`,
    description: spec.description,
    ...(spec.externalDocs ? { externalDocs: spec.externalDocs } : {}),
    tags: spec.tags,
    parameters: [paymentSignatureHeader],
    requestBody: {
      required: true,
      description: `At most ${bytesInWords(paidBodyLimit(op, spec.maxBodyBytes))}`,
      content: { "application/json": { schema: ref(spec.requestSchema) } },
    },
    responses: {
      ...responses,
      ...bodyErrors(paidBodyLimit(op, spec.maxBodyBytes)),
      "402": paymentRequired,
      "429": json("RateLimited", "Too many invalid payment attempts from this address"),
      "500": error("Internal failure (database or payment verification)"),
      "502": error("The research agent failed or timed out; nothing was charged"),
      // A route's own 503 (the enclave not ready) keeps its description; every paid route can also
      // answer this one.
      "503":
        (responses["503"] as Json | undefined) ??
        error(settlementUnavailable),
    },
    "x-payment-info": {
      protocols: ["x402"],
      pricingMode: "fixed",
      price: op.price,
      amount: op.amount,
      currency: "USDC",
    },
  };
}

function componentSchemas(): Json {
  const options = { uri: (id: string) => `#/components/schemas/${id}`, unrepresentable: "any" } as const;
  const requests = z.toJSONSchema(requestRegistry, { ...options, io: "input" }).schemas;
  const responses = z.toJSONSchema(responseRegistry, { ...options, io: "output" }).schemas;
  const out: Json = {};
  for (const [id, schema] of Object.entries({ ...responses, ...requests })) {
    const { $schema: _schema, $id: _id, ...rest } = schema as Json;
    out[id] = rest;
  }
  return out;
}

/**
 * Builds the document for a deployment whose public origin is `publicUrl` and whose body limit
 * is `maxBodyBytes` (MAX_BODY_BYTES): each route states the limit it enforces.
 */
export function buildOpenApiDocument({ publicUrl, maxBodyBytes }: { publicUrl: string; maxBodyBytes: number }): Json {
  // Every sealed route points at the served scheme: the suite, the steps, the test vectors.
  const sealing = { url: `${publicUrl}${SEALING_PAGE_PATH}`, description: "How to seal the envelope and open the answer, step by step, with test vectors" };
  const sealed = { externalDocs: sealing };
  const paid = (operation: PaidOperation["id"], spec: Omit<Parameters<typeof paidOperation>[1], "maxBodyBytes">) => paidOperation(operation, { ...spec, maxBodyBytes });
  const document = {
    openapi: "3.1.0",
    info: {
      title: "Longevity Research Agent",
      version: CONTRACT_VERSION,
      description:
        "An AI research agent for aging, longevity and biomedical questions that answers with citations from the " +
        "scientific literature. Paid routes use x402 v2: call without PAYMENT-SIGNATURE, receive 402 with the " +
        "requirements (body and PAYMENT-REQUIRED header), sign, and retry with PAYMENT-SIGNATURE. Encrypted routes " +
        "take an envelope sealed to the enclave key (GET /api/enclave-key, which names the suite); the sealed plaintexts " +
        `are the Encrypted*Plaintext schemas. The scheme (not standard HPKE), step by step with test vectors: GET ${SEALING_PAGE_PATH}.`,
    },
    servers: [{ url: publicUrl }],
    tags: [
      { name: "deep research" },
      { name: "chat" },
      { name: "literature" },
      { name: "private mode" },
      { name: "system" },
    ],
    paths: {
      "/api/deep-research/start": {
        post: paid("deepResearch", {
          tags: ["deep research"],
          requestSchema: "DeepResearchStartRequest",
          description:
            "Starts a multi-iteration research run, or continues one with `conversationId`. Paid when the turn's result is delivered.",
          responses: { "202": json("DeepResearchAccepted", "Accepted; poll GET /api/deep-research/{conversationId}") },
        }),
      },
      "/api/deep-research/{conversationId}": {
        get: {
          operationId: "getDeepResearch",
          summary: "Poll a deep-research conversation (free)",
          tags: ["deep research"],
          parameters: [pathParam("conversationId")],
          responses: {
            "200": json("DeepResearchConversation", "The conversation (section 2.3)"),
            "404": error("Conversation not found"),
            "500": error("Database error or unknown status"),
          },
        },
      },
      "/api/deep-research/encrypted": {
        post: paid("deepResearchEncrypted", {
          tags: ["deep research", "private mode"],
          requestSchema: "EncryptedEnvelope",
          ...sealed,
          description: "Starts deep research sealed to the enclave; plaintext EncryptedDeepResearchStartPlaintext.",
          responses: { "202": json("EncryptedDeepResearchAccepted", "Accepted; poll `pollUrl` with a sealed envelope") },
        }),
      },
      "/api/deep-research/encrypted/status/{messageId}": {
        post: {
          operationId: "getEncryptedDeepResearchStatus",
          summary: "Poll an encrypted deep-research run (free)",
          ...sealed,
          tags: ["deep research", "private mode"],
          parameters: [pathParam("messageId")],
          requestBody: { required: true, description: `At most ${bytesInWords(maxBodyBytes)}`, content: { "application/json": { schema: ref("EncryptedEnvelope") } } },
          responses: {
            "200": json("EncryptedDeepResearchStatus", "Status; the completed result is sealed to this poll's ephemeral key, bound to its shared secret with the enclave"),
            ...bodyErrors(maxBodyBytes),
            "404": error("Unknown run, or a recovery key that is not the run's"),
            "500": error("Internal failure"),
          },
        },
      },
      "/api/chat": {
        post: paid("chat", {
          tags: ["chat"],
          requestSchema: "ChatRequest",
          description:
            "Starts a cited chat answer. Typical duration 30 to 50 s; poll every 750 ms to 2 s. The result's `failedSources` names the literature sources that failed (its answer says so in words); when none can answer, 503 `literature_unavailable` before payment. This service's addition to the contract: `conversationId` (the `conversationId` of an earlier answer, in its 202 or its ChatResult) asks a follow-up within that conversation, answered with its earlier questions as context, for the payer address that started it only.",
          responses: {
            "202": json("ChatAccepted", "Accepted; poll GET /api/chat/status/{requestId}. `conversationId` names the conversation a follow-up continues"),
            "404": error(
              "`conversationId` names a conversation this payer address did not start through this service, or one forgotten a day after its last question (`reason: not_found`, the same for both); answered after the payment is checked, before any work: `charged: false`",
            ),
            "503": literatureUnavailable,
          },
        }),
      },
      "/api/chat/status/{requestId}": {
        get: {
          operationId: "getChatStatus",
          summary: "Poll a chat job (free)",
          tags: ["chat"],
          parameters: [pathParam("requestId")],
          responses: {
            "200": json("ChatJobStatus", "The job status (section 2.8)"),
            "404": error("Unknown or expired (older than 1 hour) request id"),
            "500": error("Internal failure"),
          },
        },
      },
      "/api/enclave-key": {
        get: {
          operationId: "getEnclaveKey",
          summary: "The enclave's X25519 public key and the suite to seal to it (free, cached 60 s)",
          description: `\`sealing\` names the key agreement, the KDF with its salt and info for request and response, the AEAD, the nonce layout and the plaintext encoding, and links to the sealing page (GET ${SEALING_PAGE_PATH}).`,
          ...sealed,
          tags: ["private mode"],
          responses: { "200": json("EnclaveKey", "The key"), "500": error("Internal failure") },
        },
      },
      "/api/chat/encrypted": {
        post: paid("chatEncrypted", {
          tags: ["chat", "private mode"],
          requestSchema: "EncryptedEnvelope",
          ...sealed,
          description:
            "Private chat sealed to the enclave (plaintext EncryptedChatPlaintext); no external literature call. Readiness is checked before payment.",
          responses: {
            "200": json("EncryptedChatSyncResponse", "Answered in time; the ChatResult is sealed to the request's ephemeral key, bound to its shared secret with the enclave"),
            "202": json("EncryptedChatAccepted", "Accepted; poll `pollUrl`"),
            "503": error(
              "`private_chat_unavailable` with reason `private_mode_not_ready`, or `literature_unavailable` (reason `no_source_reachable`, Retry-After): no literature source can answer. Both before payment.",
            ),
          },
        }),
      },
      "/api/chat/encrypted/status/{requestId}": {
        get: {
          operationId: "getEncryptedChatStatus",
          summary: "Poll an encrypted chat job (free)",
          ...sealed,
          tags: ["chat", "private mode"],
          parameters: [pathParam("requestId")],
          responses: {
            "200": json("EncryptedChatStatus", "Status; completed answers are sealed"),
            "404": error("Unknown or expired (older than 1 hour) request id"),
            "500": error("Internal failure"),
          },
        },
      },
      "/api/literature": {
        post: paid("literature", {
          tags: ["literature"],
          requestSchema: "LiteratureQueryRequest",
          description:
            "Federated literature search with relevance filtering and evidence grading. The result's `failedSources` names the sources that failed; when none can answer, 503 `literature_unavailable` before payment.",
          responses: {
            "202": json("LiteratureAccepted", "Accepted; poll GET /api/literature/jobs/{jobId}"),
            "200": json("LiteratureJobResult", "Already complete (uncommon)"),
            "503": literatureUnavailable,
          },
        }),
      },
      "/api/literature/jobs/{jobId}": {
        get: {
          operationId: "getLiteratureJob",
          summary: "Poll a literature job (free, no second payment)",
          tags: ["literature"],
          parameters: [pathParam("jobId")],
          responses: { "200": json("LiteratureJobResult", "The job (section 2.11)"), "500": error("Internal failure") },
        },
      },
      "/api/literature/encrypted": {
        post: paid("literatureEncrypted", {
          tags: ["literature", "private mode"],
          requestSchema: "EncryptedEnvelope",
          ...sealed,
          description:
            "Literature search with a sealed question and answer (plaintext EncryptedLiteraturePlaintext); only search queries leave the enclave.",
          responses: {
            "202": json("EncryptedLiteratureAccepted", "Accepted; poll `pollUrl`"),
            "403": error("`private_literature_disabled`"),
            "503": error(
              "`private_literature_unavailable`, or `literature_unavailable` (reason `no_source_reachable`, Retry-After): no literature source can answer. Both before payment.",
            ),
          },
        }),
      },
      "/api/literature/encrypted/status/{requestId}": {
        get: {
          operationId: "getEncryptedLiteratureStatus",
          summary: "Poll an encrypted literature request (free)",
          ...sealed,
          tags: ["literature", "private mode"],
          parameters: [
            pathParam("requestId"),
            {
              name: "timeout",
              in: "query",
              required: false,
              description:
                "Seconds to wait for the answer, up to 25. A client address may hold LONG_POLL_MAX_PER_CLIENT (default 4) such waits at once; without `timeout` (or with 0) the poll answers at once and is not counted",
              schema: { type: "integer", minimum: 0, maximum: 25 },
            },
          ],
          responses: {
            "200": json("EncryptedLiteratureStatus", "Status; completed results are sealed to the request's ephemeral key, bound to its shared secret with the enclave"),
            "400": error("`timeout` is not a number of seconds"),
            "404": json("NotFoundStatus", "Unknown id (results are kept one hour)"),
            "429": {
              ...json(
                "RateLimited",
                "`reason: too_many_long_polls`: this client address already holds its LONG_POLL_MAX_PER_CLIENT waits (`timeout` > 0); poll again after `retryAfterSeconds`, or without `timeout`",
              ),
              headers: { "Retry-After": { description: "Seconds to wait before polling again", schema: { type: "integer" } } },
            },
            "500": error("Internal failure"),
          },
        },
      },
      [SEALING_PAGE_PATH]: {
        get: {
          operationId: "getSealingPage",
          summary: "How to seal a private request and open its answer (free): the suite, the steps, test vectors, errors, the recovery-key format",
          description:
            "JSON: `suite` (as GET /api/enclave-key names it), `sealRequest` and `openResponse` (the algorithm step by step), `plaintexts` (each sealed route's plaintext and answer schemas), `errors` (what each 400 `reason` of a failed opening means), `testVectors` (fixed keys and nonces, every intermediate value, the envelope and answer byte for byte, and a forged answer a correct client must refuse) and `recoveryKey` (format, derivation, an example).",
          tags: ["private mode"],
          responses: { "200": { description: "The sealing page", content: { "application/json": {} } }, "500": error("Internal failure") },
        },
      },
      "/api/mcp": mcpPathItem({ maxBodyBytes }),
      "/api/health": {
        get: {
          operationId: "getHealth",
          summary: "Health of the gateway and its dependencies (free), with each literature source's state (`literature`)",
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
          tags: ["system"],
          security: [{ cronSecret: [] }],
          responses: {
            "200": json("CronResult", "Ran"),
            "401": error("Missing or invalid bearer token, or no CRON_SECRET configured"),
          },
        },
      },
      "/api/openapi.json": {
        get: {
          operationId: "getOpenApiDocument",
          summary: "This document",
          tags: ["system"],
          responses: { "200": { description: "OpenAPI 3.1 document", content: { "application/json": {} } } },
        },
      },
      "/.well-known/x402.json": {
        get: {
          operationId: "getX402DiscoveryManifest",
          summary: "The x402 discovery manifest (free): every paid route's payment requirements, input and output, as its live 402 states them",
          description:
            "The per-origin manifest of the x402 well-known discovery draft: `{ x402Version, lastUpdated, items }`, one item per paid route with `resource`, `type`, `accepts`, `input` (method, bodyType, body JSON Schema) and `output` (mimeType, the 202's example and JSON Schema, and `asyncPolling`: where and how to poll, which statuses are final). Generated from the same table as the 402s; the live 402 stays authoritative.",
          tags: ["system"],
          responses: { "200": { description: "The manifest", content: { "application/json": {} } }, "500": error("Internal failure") },
        },
      },
      "/llms.txt": {
        get: {
          operationId: "getLlmsTxt",
          summary: "This service for language models (free): prices, the pay then poll pattern, free routes, private mode, spend controls",
          tags: ["system"],
          responses: { "200": { description: "Markdown, per the llms.txt convention", content: { "text/plain": {} } }, "500": error("Internal failure") },
        },
      },
    },
    components: {
      schemas: { ...componentSchemas(), [MCP_MESSAGE_SCHEMA_ID]: mcpMessageSchema },
      securitySchemes: {
        cronSecret: { type: "http", scheme: "bearer", description: "Authorization: Bearer <CRON_SECRET>" },
      },
    },
  };
  addPollingGuidance(document.paths as Record<string, Record<string, Json>>, { publicUrl });
  return document;
}
