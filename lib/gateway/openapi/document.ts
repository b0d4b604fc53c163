import { CONTRACT_VERSION } from "@/lib/shared/contracts";
import { MCP_ERROR_SCHEMA_ID, MCP_MESSAGE_SCHEMA_ID, mcpErrorSchema, mcpMessageSchema, mcpPathItem } from "@/lib/gateway/mcp/openapi";
import { getPaidOperation, PAID_OPERATIONS, paidBodyLimit, type PaidOperation } from "@/lib/shared/operations";
import { SEALING_PAGE_PATH } from "@/lib/shared/sealing/descriptor";
import { componentSchemasFor } from "@/lib/gateway/openapi/components";
import { historyPaths } from "@/lib/gateway/openapi/history-paths";
import { systemPaths } from "@/lib/gateway/openapi/system-paths";
import { addPollingGuidance } from "@/lib/gateway/openapi/polling";
import {
  bodyErrors,
  bytesInWords,
  error,
  json,
  paidAnswerHeaders,
  paymentIdentifierConflict,
  paymentRequired,
  paymentSignatureHeader,
  rateLimited,
  ref,
  retryAfter,
  settlementUnavailable,
  unservedRequests,
  type Json,
} from "@/lib/shared/openapi/responses";
import { isRecord } from "@/lib/shared/narrow";

/**
 * The OpenAPI 3.1 description of the gateway, generated from the same zod schemas the routes
 * validate with, so the document cannot drift from the code; tests/integration/openapi-accuracy
 * holds every operation's real answers to it. AI agents read it to discover the routes, their
 * prices and the x402 flow.
 */

/** A paid operation as the document states it: its definition's own text and answers, and what every paid route shares. */
function paidOperation(op: PaidOperation, { publicUrl, maxBodyBytes, sealing }: { publicUrl: string; maxBodyBytes: number; sealing: Json }): Json {
  const spec = op.openapi;
  const limit = paidBodyLimit(op, maxBodyBytes);
  const responses: Json = {};
  for (const [status, response] of Object.entries(spec.responses({ publicUrl, accepted: op.acceptedExample(publicUrl) }))) {
    responses[status] = status.startsWith("2") && isRecord(response) ? { ...response, headers: paidAnswerHeaders(op.settlement === "immediate") } : response;
  }
  const media: Json = { schema: ref(spec.requestSchema), example: op.bodyExample };
  if (spec.sealedPlaintext) media["x-sealed-plaintext"] = { description: "What the envelope seals (UTF-8 JSON)", schema: ref(spec.sealedPlaintext) };
  return {
    operationId: op.id,
    summary: `${op.summary} (${op.price})`,
    description: spec.description,
    ...(spec.sealedPlaintext ? { externalDocs: sealing } : {}),
    tags: spec.tags,
    parameters: [paymentSignatureHeader],
    requestBody: { required: true, description: `At most ${bytesInWords(limit)}`, content: { "application/json": media } },
    responses: {
      ...responses,
      ...bodyErrors(limit, { paid: true }),
      "402": paymentRequired,
      "409": paymentIdentifierConflict,
      // A route's own 429 (deep research's bound of unsettled turns) keeps its description.
      "429": responses["429"] ?? rateLimited,
      // A sealed request goes to the enclave, whose failure is the 500 the shared API shape gives these routes.
      ...(spec.sealedPlaintext
        ? { "500": error("`enclave_failed`: the enclave could not take the request (unreachable or failing), or another internal failure; nothing is charged") }
        : {
            "500": error("Internal failure (database or payment verification); nothing is charged"),
            "502": error("The research agent failed, timed out or could not be reached (`upstream_unreachable`, `upstream_timeout`, `upstream_error`); nothing was charged"),
          }),
      // A route's own 503 (the enclave not ready) keeps its description; every paid route can also answer this one.
      "503": responses["503"] ?? error(settlementUnavailable, { "Retry-After": retryAfter("Seconds to wait before sending the same request again") }),
    },
    "x-payment-info": { protocols: ["x402"], pricingMode: "fixed", price: op.price, amount: op.amount, currency: "USDC" },
  };
}

/** A paid operation's free status route, as its definition describes it. */
function statusOperation(op: PaidOperation, { maxBodyBytes, sealing }: { maxBodyBytes: number; sealing: Json }): Json {
  const status = op.openapi.status;
  return {
    operationId: status.operationId,
    summary: status.summary,
    description: status.description,
    ...(status.sealed ? { externalDocs: sealing } : {}),
    tags: op.openapi.tags,
    parameters: status.parameters,
    ...(status.requestBody ? { requestBody: status.requestBody(maxBodyBytes) } : {}),
    responses: status.responses(maxBodyBytes),
  };
}

/**
 * Builds the document for a deployment whose public origin is `publicUrl` and whose body limit
 * is `maxBodyBytes` (MAX_BODY_BYTES): each route states the limit it enforces.
 */
export function buildOpenApiDocument({ publicUrl, maxBodyBytes }: { publicUrl: string; maxBodyBytes: number }): Json & { paths: Record<string, Record<string, Json>> } {
  // Every sealed route points at the served scheme: the suite, the steps, the test vectors.
  const sealing = { url: `${publicUrl}${SEALING_PAGE_PATH}`, description: "How to seal the envelope and open the answer, step by step, with test vectors" };
  const paths: Record<string, Record<string, Json>> = {};
  for (const op of PAID_OPERATIONS) {
    paths[op.path] = { [op.method.toLowerCase()]: paidOperation(op, { publicUrl, maxBodyBytes, sealing }) };
    paths[op.polling.path] = { [op.polling.method.toLowerCase()]: statusOperation(op, { maxBodyBytes, sealing }) };
  }
  Object.assign(paths, {
    "/api/enclave-key": {
      get: {
        operationId: "getEnclaveKey",
        summary: "The enclave's X25519 public key and the suite to seal to it (free, cached 60 s)",
        description: `\`sealing\` names the key agreement, the KDF with its salt and info for request and response, the AEAD, the nonce layout and the plaintext encoding, and links to the sealing page (GET ${SEALING_PAGE_PATH}). \`attestation\`, when the enclave runs in a confidential VM, is the material to verify before sealing; \`attested\` alone proves nothing.`,
        externalDocs: sealing,
        tags: ["private mode"],
        responses: { "200": json("EnclaveKey", "The key and the suite"), "500": error("The enclave key is unavailable (`reason: private_mode_not_ready`)") },
      },
    },
    ...systemPaths(),
    ...historyPaths(),
    "/api/mcp": mcpPathItem({ maxBodyBytes }),
  });
  addPollingGuidance(paths, { publicUrl });
  return {
    openapi: "3.1.0",
    info: {
      title: "Longevity Research Agent",
      version: CONTRACT_VERSION,
      description:
        "An AI research agent for aging, longevity and biomedical questions that answers with citations from the " +
        "scientific literature. Paid routes use x402 v2: call without PAYMENT-SIGNATURE, receive 402 with the " +
        "requirements (body and PAYMENT-REQUIRED header), sign, and retry with PAYMENT-SIGNATURE. Every paid route answers " +
        "202 and its work is followed on a free status route (each operation's `x-polling` says where, how often and " +
        "which statuses are final). Encrypted routes take an envelope sealed to the enclave key (GET /api/enclave-key, " +
        "which names the suite); each names what its envelope seals (`x-sealed-plaintext`) and what its sealed answer " +
        `opens to (\`x-sealed-answer\`). The scheme (not standard HPKE), step by step with test vectors: GET ${SEALING_PAGE_PATH}. ` +
        "A path no operation serves answers 404, a method a path does not serve 405 with `Allow` (`x-unserved-requests`). " +
        "A wallet that paid lists and reopens what it bought at GET /api/history, signing in with x402 sign-in-with-x (free). " +
        "Also served: GET /llms.txt, GET /.well-known/x402.json, and the same tools over MCP at POST /api/mcp.",
    },
    servers: [{ url: publicUrl }],
    tags: [
      { name: "deep research", description: `Multi-iteration research runs, ${getPaidOperation("deepResearch").price} a turn, settled when delivered` },
      { name: "chat", description: `Cited answers to a question, ${getPaidOperation("chat").price}` },
      { name: "literature", description: `Federated literature search with graded references, ${getPaidOperation("literature").price}` },
      { name: "private mode", description: "Requests sealed to an enclave the gateway cannot read" },
      { name: "history", description: "What a wallet paid for, listed and reopened after signing in with the same wallet (x402 sign-in-with-x), free" },
      { name: "system", description: "Health, the settlement cron and the documents that describe the service" },
    ],
    paths,
    "x-unserved-requests": unservedRequests,
    components: {
      schemas: componentSchemasFor({ paths, unservedRequests }, { [MCP_MESSAGE_SCHEMA_ID]: mcpMessageSchema, [MCP_ERROR_SCHEMA_ID]: mcpErrorSchema }),
      securitySchemes: {
        cronSecret: { type: "http", scheme: "bearer", description: "Authorization: Bearer <CRON_SECRET>" },
      },
    },
  };
}
