import { encryptedEnvelopeSchema, encryptedLiteratureAcceptedSchema, encryptedLiteratureStatusSchema } from "@/lib/shared/contracts";
import { agentUnavailable, error, json, literatureUnavailable, pathParam, retryAfter } from "@/lib/shared/openapi/responses";
import { definePaidOperation } from "@/lib/shared/operations/define";
import { ENVELOPE_EXAMPLE, EXAMPLE_ID, LITERATURE_TIMINGS, SETTLED_AT_ONCE, sealedAnswer } from "@/lib/shared/operations/shared";

/** POST /api/literature/encrypted: literature search sealed to the enclave; only search queries leave it. */
export const literatureEncrypted = definePaidOperation({
  id: "literatureEncrypted",
  method: "POST",
  path: "/api/literature/encrypted",
  summary: "Start encrypted literature search",
  amount: "30000",
  ...SETTLED_AT_ONCE,
  body: encryptedEnvelopeSchema,
  bodyExample: ENVELOPE_EXAMPLE,
  accepted: encryptedLiteratureAcceptedSchema,
  acceptedExample: (publicUrl) => ({ requestId: EXAMPLE_ID, status: "pending", pollUrl: `${publicUrl}/api/literature/encrypted/status/${EXAMPLE_ID}` }),
  polling: {
    status: encryptedLiteratureStatusSchema,
    method: "GET",
    path: "/api/literature/encrypted/status/{requestId}",
    pollUrlField: "pollUrl",
    longPollQuery: "timeout=25",
    ...LITERATURE_TIMINGS,
  },
  openapi: {
    tags: ["literature", "private mode"],
    requestSchema: "EncryptedEnvelope",
    sealedPlaintext: "EncryptedLiteraturePlaintext",
    description:
      "Literature search with the question and the answer sealed to the enclave (GET /api/enclave-key); only search queries leave it. Private literature's state and the literature's reach are checked before payment.",
    responses: ({ accepted }) => ({
      "202": json("EncryptedLiteratureAccepted", "Accepted; poll `pollUrl`", { example: accepted }),
      "403": error("`private_literature_disabled`: this deployment does not offer private literature search. Before payment."),
      "503": literatureUnavailable("`private_literature_unavailable`: the enclave cannot be reached or is not ready. Before payment."),
    }),
    status: {
      operationId: "getEncryptedLiteratureStatus",
      summary: "Poll an encrypted literature request (free)",
      description: "The request's status; once completed, the LiteratureJobResult sealed to the request's ephemeral key. With `timeout`, the poll waits for the answer.",
      sealed: true,
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
      responses: () => ({
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
      }),
    },
  },
  history: { kind: "literature", sealed: true },
});
