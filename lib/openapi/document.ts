import { CONTRACT_VERSION } from "@/lib/contracts";
import { BAZAAR_ROUTES } from "@/lib/discovery/bazaar";
import { MCP_ERROR_SCHEMA_ID, MCP_MESSAGE_SCHEMA_ID, mcpErrorSchema, mcpMessageSchema, mcpPathItem } from "@/lib/mcp/openapi";
import { getPaidOperation, paidBodyLimit, type PaidOperation } from "@/lib/payments/prices";
import { SEALING_PAGE_PATH } from "@/lib/sealing/descriptor";
import { componentSchemasFor } from "./components";
import { systemPaths } from "./system-paths";
import { addPollingGuidance } from "./polling";
import {
  agentUnavailable,
  bodyErrors,
  bytesInWords,
  databaseUnavailable,
  error,
  json,
  literatureUnavailable,
  paidAnswerHeaders,
  pathParam,
  paymentRequired,
  paymentSignatureHeader,
  rateLimited,
  ref,
  retryAfter,
  settlementUnavailable,
  unservedRequests,
  unsettledTurns,
  type Json,
} from "./responses";

/**
 * The OpenAPI 3.1 description of the gateway, generated from the same zod schemas the routes
 * validate with, so the document cannot drift from the code; tests/integration/openapi-accuracy
 * holds every operation's real answers to it. AI agents read it to discover the routes, their
 * prices and the x402 flow.
 */

type PaidSpec = {
  requestSchema: string;
  description: string;
  responses: Json;
  tags: string[];
  /** The schema of the sealed request's plaintext (encrypted routes). */
  sealedPlaintext?: string;
};

function paidOperation(id: PaidOperation["id"], spec: PaidSpec, { maxBodyBytes, sealing }: { maxBodyBytes: number; sealing: Json }): Json {
  const op = getPaidOperation(id);
  const limit = paidBodyLimit(op, maxBodyBytes);
  const responses: Json = {};
  for (const [status, response] of Object.entries(spec.responses)) {
    responses[status] = status.startsWith("2") ? { ...(response as Json), headers: paidAnswerHeaders(op.settlement === "immediate") } : response;
  }
  const media: Json = { schema: ref(spec.requestSchema), example: BAZAAR_ROUTES[id].inputExample };
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
      // A route's own 429 (deep research's bound of unsettled turns) keeps its description.
      "429": (responses["429"] as Json | undefined) ?? rateLimited,
      // A sealed request goes to the enclave, whose failure is the 500 the shared API shape gives these routes.
      ...(spec.sealedPlaintext
        ? { "500": error("`enclave_failed`: the enclave could not take the request (unreachable or failing), or another internal failure; nothing is charged") }
        : {
            "500": error("Internal failure (database or payment verification); nothing is charged"),
            "502": error("The research agent failed, timed out or could not be reached (`upstream_unreachable`, `upstream_timeout`, `upstream_error`); nothing was charged"),
          }),
      // A route's own 503 (the enclave not ready) keeps its description; every paid route can also answer this one.
      "503": (responses["503"] as Json | undefined) ?? error(settlementUnavailable, { "Retry-After": retryAfter("Seconds to wait before sending the same request again") }),
    },
    "x-payment-info": { protocols: ["x402"], pricingMode: "fixed", price: op.price, amount: op.amount, currency: "USDC" },
  };
}

/** The example 202 of a paid operation (also its bazaar extension's). */
const acceptedExample = (id: PaidOperation["id"], publicUrl: string) => BAZAAR_ROUTES[id].acceptedExample(publicUrl);

/**
 * Builds the document for a deployment whose public origin is `publicUrl` and whose body limit
 * is `maxBodyBytes` (MAX_BODY_BYTES): each route states the limit it enforces.
 */
export function buildOpenApiDocument({ publicUrl, maxBodyBytes }: { publicUrl: string; maxBodyBytes: number }): Json {
  // Every sealed route points at the served scheme: the suite, the steps, the test vectors.
  const sealing = { url: `${publicUrl}${SEALING_PAGE_PATH}`, description: "How to seal the envelope and open the answer, step by step, with test vectors" };
  const sealed = { externalDocs: sealing };
  const paid = (id: PaidOperation["id"], spec: PaidSpec) => paidOperation(id, spec, { maxBodyBytes, sealing });
  const sealedAnswer = (schemaId: string) => ({ schemaId, description: "What `hpke_response_ciphertext` opens to (UTF-8 JSON), with the request's ephemeral key" });
  const paths: Record<string, Record<string, Json>> = {
    "/api/deep-research/start": {
      post: paid("deepResearch", {
        tags: ["deep research"],
        requestSchema: "DeepResearchStartRequest",
        description:
          "Starts a multi-iteration research run on a question, or continues a conversation with `conversationId` (the `conversationId` of an earlier 202), for the payer address that started it only. The payment is verified now and settled when the turn's result is delivered: the poll that first shows the completed turn carries PAYMENT-RESPONSE, and the turn its `settlement`. A turn is admitted only while the payer's balance covers it beside the payer's deep-research turns not yet settled (else 402 `insufficient_funds`). Nothing is charged for a turn that fails, and a turn whose searches reached no literature source fails.",
        responses: {
          "202": json("DeepResearchAccepted", "Accepted; poll GET /api/deep-research/{conversationId}", { example: acceptedExample("deepResearch", publicUrl) }),
          "404": error(
            "`conversationId` names a conversation this payer address did not start through this service, or one it no longer knows (`reason: not_found`, the same for both); answered after the payment is checked, before any work: `charged: false`",
          ),
          "429": unsettledTurns,
          "503": literatureUnavailable(settlementUnavailable),
        },
      }),
    },
    "/api/deep-research/{conversationId}": {
      get: {
        operationId: "getDeepResearch",
        summary: "Poll a deep-research conversation (free)",
        description:
          "The conversation and its turns. A turn's reply, citations and the world state it added are shown once its payment is settled (the gateway settles it on this poll when the turn completed); while the work runs, the conversation may hold only its id and status.",
        tags: ["deep research"],
        parameters: [pathParam("conversationId", "The `conversationId` of the 202")],
        responses: {
          "200": json("DeepResearchConversation", "The conversation"),
          "404": error("Unknown conversation (`reason: not_found`)"),
          "500": error("Database error or unknown status"),
          "502": agentUnavailable,
          "503": databaseUnavailable,
        },
      },
    },
    "/api/deep-research/encrypted": {
      post: paid("deepResearchEncrypted", {
        tags: ["deep research", "private mode"],
        requestSchema: "EncryptedEnvelope",
        sealedPlaintext: "EncryptedDeepResearchStartPlaintext",
        description:
          "Starts deep research on a question sealed to the enclave (GET /api/enclave-key): the gateway relays the envelope without reading it. The plaintext carries a `recoveryKey` the client keeps: every poll is sealed with it. Settled when the result is delivered, and admitted on the payer's balance and bounds, as plain deep research; a run whose searches reached no literature source fails, uncharged. The 202 carries the enclave's receipt, sealed to this request's key: open it and poll only the run it names (a gateway could otherwise pass off another run of the same recovery key as this one).",
        responses: {
          "202": json("EncryptedDeepResearchAccepted", "Accepted; open the receipt (`hpke_response_*`), check it names `messageId`, then poll `pollUrl` with a sealed envelope naming that run", {
            example: acceptedExample("deepResearchEncrypted", publicUrl),
            sealedAnswer: { schemaId: "EncryptedDeepResearchReceipt", description: "What `hpke_response_ciphertext` opens to (UTF-8 JSON), with the start's ephemeral key: the run the enclave started for this request" },
          }),
          "429": unsettledTurns,
          "503": literatureUnavailable(settlementUnavailable),
        },
      }),
    },
    "/api/deep-research/encrypted/status/{messageId}": {
      post: {
        operationId: "getEncryptedDeepResearchStatus",
        summary: "Poll an encrypted deep-research run (free)",
        description:
          "A POST, so the poll can carry its envelope: `{recoveryKey, messageId}` sealed with a fresh ephemeral key, `messageId` the run the start's receipt named (the enclave answers a poll naming another run than the URL's as unknown, 404). The completed result is sealed to this poll's key, names its run (`messageId`: refuse a result of another run), and is released once the run's payment is settled (the first such poll carries PAYMENT-RESPONSE).",
        ...sealed,
        tags: ["deep research", "private mode"],
        parameters: [pathParam("messageId", "The `messageId` of the 202")],
        requestBody: {
          required: true,
          description: `At most ${bytesInWords(maxBodyBytes)}`,
          content: {
            "application/json": {
              schema: ref("EncryptedEnvelope"),
              example: BAZAAR_ROUTES.deepResearchEncrypted.inputExample,
              "x-sealed-plaintext": { description: "What the envelope seals (UTF-8 JSON)", schema: ref("EncryptedDeepResearchPollPlaintext") },
            },
          },
        },
        responses: {
          "200": json("EncryptedDeepResearchStatus", "The run's status; the completed result is sealed to this poll's ephemeral key, bound to its shared secret with the enclave", {
            sealedAnswer: sealedAnswer("PrivateDeepResearchResult"),
          }),
          ...bodyErrors(maxBodyBytes, { paid: false }),
          "404": error("Unknown run, a recovery key that is not the run's, or a poll naming another run (`reason: not_found`)"),
          "500": error("`enclave_failed`: the enclave could not answer the poll (unreachable or failing), or another internal failure"),
          "503": databaseUnavailable,
        },
      },
    },
    "/api/chat": {
      post: paid("chat", {
        tags: ["chat"],
        requestSchema: "ChatRequest",
        description:
          "Starts a cited answer to a question, from the scientific literature. Typical duration 30 to 50 s. The result's `failedSources` names the literature sources that failed (its answer says so in words); when none can answer, 503 `literature_unavailable` before payment. `conversationId` (the `conversationId` of an earlier answer, in its 202 or its ChatResult) continues that conversation, for the payer address that started it only: a message that leans on the earlier question (\"And in women?\", \"Is it safe?\") is searched and judged with its subject and its answer opens by saying so; one that names its own subject is read on its own words only. The result's `metadata.followUp` says how it was read.",
        responses: {
          "202": json("ChatAccepted", "Accepted; poll GET /api/chat/status/{requestId}. `conversationId` names the conversation a follow-up continues", { example: acceptedExample("chat", publicUrl) }),
          "404": error(
            "`conversationId` names a conversation this payer address did not start through this service, or one forgotten a day after its last question (`reason: not_found`, the same for both); answered after the payment is checked, before any work: `charged: false`",
          ),
          "503": literatureUnavailable(settlementUnavailable),
        },
      }),
    },
    "/api/chat/status/{requestId}": {
      get: {
        operationId: "getChatStatus",
        summary: "Poll a chat job (free)",
        description: "The job's status and progress; `result` once completed (a ChatResult with the agent's processing time), `error` once failed.",
        tags: ["chat"],
        parameters: [pathParam("requestId", "The `requestId` of the 202")],
        responses: {
          "200": json("ChatJobStatus", "The job status"),
          "404": error("Unknown or expired (older than 1 hour) request id (`reason: not_found`)"),
          "500": error("Internal failure"),
          "502": agentUnavailable,
        },
      },
    },
    "/api/enclave-key": {
      get: {
        operationId: "getEnclaveKey",
        summary: "The enclave's X25519 public key and the suite to seal to it (free, cached 60 s)",
        description: `\`sealing\` names the key agreement, the KDF with its salt and info for request and response, the AEAD, the nonce layout and the plaintext encoding, and links to the sealing page (GET ${SEALING_PAGE_PATH}). \`attestation\`, when the enclave runs in a confidential VM, is the material to verify before sealing; \`attested\` alone proves nothing.`,
        ...sealed,
        tags: ["private mode"],
        responses: { "200": json("EnclaveKey", "The key and the suite"), "500": error("The enclave key is unavailable (`reason: private_mode_not_ready`)") },
      },
    },
    "/api/chat/encrypted": {
      post: paid("chatEncrypted", {
        tags: ["chat", "private mode"],
        requestSchema: "EncryptedEnvelope",
        sealedPlaintext: "EncryptedChatPlaintext",
        description:
          "Chat with the question sealed to the enclave (GET /api/enclave-key), answered from the literature inside it: no external call carries the question. Readiness and the literature's reach are checked before payment. Answers 200 with the sealed ChatResult when it is ready within the enclave's wait, else 202 and a `pollUrl`.",
        responses: {
          "200": json("EncryptedChatSyncResponse", "Answered in time; the ChatResult is sealed to the request's ephemeral key, bound to its shared secret with the enclave", {
            sealedAnswer: sealedAnswer("ChatResult"),
          }),
          "202": json("EncryptedChatAccepted", "Accepted; poll `pollUrl`", { example: acceptedExample("chatEncrypted", publicUrl) }),
          "503": literatureUnavailable("`private_chat_unavailable` (reason `private_mode_not_ready`): the enclave cannot be reached or is not ready. Before payment."),
        },
      }),
    },
    "/api/chat/encrypted/status/{requestId}": {
      get: {
        operationId: "getEncryptedChatStatus",
        summary: "Poll an encrypted chat job (free)",
        description: "The job's status; once completed, the ChatResult sealed to the request's ephemeral key (the gateway cannot read it).",
        ...sealed,
        tags: ["chat", "private mode"],
        parameters: [pathParam("requestId", "The `requestId` of the 202")],
        responses: {
          "200": json("EncryptedChatStatus", "Status; completed answers are sealed", { sealedAnswer: sealedAnswer("ChatResult") }),
          "404": error("Unknown or expired (older than 1 hour) request id (`reason: not_found`)"),
          "500": error("Internal failure"),
          "502": agentUnavailable,
        },
      },
    },
    "/api/literature": {
      post: paid("literature", {
        tags: ["literature"],
        requestSchema: "LiteratureQueryRequest",
        description:
          "Federated literature search (PubMed, Europe PMC, ClinicalTrials.gov, Crossref, OpenAlex, preprint servers and the local library, by mode and scope) with relevance filtering, evidence grading and an extractive answer whose every [N] is a reference. The result's `failedSources` names the sources that failed; when none can answer, 503 `literature_unavailable` before payment.",
        responses: {
          "202": json("LiteratureAccepted", "Accepted; poll GET /api/literature/jobs/{jobId}", { example: acceptedExample("literature", publicUrl) }),
          "200": json("LiteratureJobResult", "Already complete (uncommon)"),
          "503": literatureUnavailable(settlementUnavailable),
        },
      }),
    },
    "/api/literature/jobs/{jobId}": {
      get: {
        operationId: "getLiteratureJob",
        summary: "Poll a literature job (free, no second payment)",
        description: "The job: its status, and once completed the answer, the references with their grading, the filtering summary and the sources searched.",
        tags: ["literature"],
        parameters: [pathParam("jobId", "The `jobId` of the 202")],
        responses: {
          "200": json("LiteratureJobResult", "The job"),
          "404": error("Unknown or expired literature job (`reason: not_found`); results are kept one hour"),
          "500": error("Internal failure"),
          "502": agentUnavailable,
        },
      },
    },
    "/api/literature/encrypted": {
      post: paid("literatureEncrypted", {
        tags: ["literature", "private mode"],
        requestSchema: "EncryptedEnvelope",
        sealedPlaintext: "EncryptedLiteraturePlaintext",
        description:
          "Literature search with the question and the answer sealed to the enclave (GET /api/enclave-key); only search queries leave it. Private literature's state and the literature's reach are checked before payment.",
        responses: {
          "202": json("EncryptedLiteratureAccepted", "Accepted; poll `pollUrl`", { example: acceptedExample("literatureEncrypted", publicUrl) }),
          "403": error("`private_literature_disabled`: this deployment does not offer private literature search. Before payment."),
          "503": literatureUnavailable("`private_literature_unavailable`: the enclave cannot be reached or is not ready. Before payment."),
        },
      }),
    },
    "/api/literature/encrypted/status/{requestId}": {
      get: {
        operationId: "getEncryptedLiteratureStatus",
        summary: "Poll an encrypted literature request (free)",
        description: "The request's status; once completed, the LiteratureJobResult sealed to the request's ephemeral key. With `timeout`, the poll waits for the answer.",
        ...sealed,
        tags: ["literature", "private mode"],
        parameters: [
          pathParam("requestId", "The `requestId` of the 202"),
          {
            name: "timeout",
            in: "query",
            required: false,
            description:
              "Seconds to wait for the answer, up to 25 (more waits 25). A client address may hold LONG_POLL_MAX_PER_CLIENT (default 4) such waits at once; without `timeout` (or with 0) the poll answers at once and is not counted",
            schema: { type: "integer", minimum: 0 },
          },
        ],
        responses: {
          "200": json("EncryptedLiteratureStatus", "Status; completed results are sealed to the request's ephemeral key, bound to its shared secret with the enclave", {
            sealedAnswer: sealedAnswer("LiteratureJobResult"),
          }),
          "400": error("`timeout` is not a number of seconds (`reason: invalid_timeout`)"),
          "404": json("NotFoundStatus", "Unknown or expired id (results are kept one hour)"),
          "429": json(
            "RateLimited",
            "`reason: too_many_long_polls`: this client address already holds its LONG_POLL_MAX_PER_CLIENT waits (`timeout` > 0); poll again after `retryAfterSeconds`, or without `timeout`",
            { headers: { "Retry-After": retryAfter("Seconds to wait before polling again", true) } },
          ),
          "500": error("Internal failure"),
          "502": agentUnavailable,
        },
      },
    },
    ...systemPaths(),
    "/api/mcp": mcpPathItem({ maxBodyBytes }) as Record<string, Json>,
  };
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
        "Also served: GET /llms.txt, GET /.well-known/x402.json, and the same tools over MCP at POST /api/mcp.",
    },
    servers: [{ url: publicUrl }],
    tags: [
      { name: "deep research", description: "Multi-iteration research runs, $1.00 a turn, settled when delivered" },
      { name: "chat", description: "Cited answers to a question, $0.02" },
      { name: "literature", description: "Federated literature search with graded references, $0.03" },
      { name: "private mode", description: "Requests sealed to an enclave the gateway cannot read" },
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
