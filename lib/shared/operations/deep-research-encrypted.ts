import { encryptedDeepResearchAcceptedSchema, encryptedDeepResearchStatusSchema, encryptedEnvelopeSchema } from "@/lib/shared/contracts";
import { bodyErrors, bytesInWords, databaseUnavailable, error, json, literatureUnavailable, pathParam, ref, settlementUnavailable, unsettledTurns } from "@/lib/shared/openapi/responses";
import { definePaidOperation } from "@/lib/shared/operations/define";
import { DEEP_RESEARCH_TIMINGS, ENVELOPE_EXAMPLE, EXAMPLE_ID, SEALED_ANSWER_EXAMPLE, SETTLED_ON_DELIVERY, sealedAnswer } from "@/lib/shared/operations/shared";

/** POST /api/deep-research/encrypted: deep research sealed to the enclave, every poll sealed with the run's recovery key. */
export const deepResearchEncrypted = definePaidOperation({
  id: "deepResearchEncrypted",
  method: "POST",
  path: "/api/deep-research/encrypted",
  summary: "Start encrypted deep research",
  amount: "1000000",
  ...SETTLED_ON_DELIVERY,
  body: encryptedEnvelopeSchema,
  bodyExample: ENVELOPE_EXAMPLE,
  accepted: encryptedDeepResearchAcceptedSchema,
  acceptedExample: (publicUrl) => ({ messageId: EXAMPLE_ID, status: "queued", pollUrl: `${publicUrl}/api/deep-research/encrypted/status/${EXAMPLE_ID}`, ...SEALED_ANSWER_EXAMPLE }),
  polling: {
    status: encryptedDeepResearchStatusSchema,
    method: "POST",
    path: "/api/deep-research/encrypted/status/{messageId}",
    pollUrlField: "pollUrl",
    pollBody:
      'an EncryptedEnvelope sealing {"recoveryKey": "<the start\'s recoveryKey>", "messageId": "<the run the 202\'s sealed receipt names>"} with a fresh ephemeral key; the completed result is sealed to that poll and names its run',
    ...DEEP_RESEARCH_TIMINGS,
  },
  openapi: {
    tags: ["deep research", "private mode"],
    requestSchema: "EncryptedEnvelope",
    sealedPlaintext: "EncryptedDeepResearchStartPlaintext",
    description:
      "Starts deep research on a question sealed to the enclave (GET /api/enclave-key): the gateway relays the envelope without reading it. The plaintext carries a `recoveryKey` the client keeps: every poll is sealed with it. Settled when the result is delivered, and admitted on the payer's balance and bounds, as plain deep research; a run whose searches reached no literature source fails, uncharged. The 202 carries the enclave's receipt, sealed to this request's key: open it and poll only the run it names (a gateway could otherwise pass off another run of the same recovery key as this one).",
    responses: ({ accepted }) => ({
      "202": json("EncryptedDeepResearchAccepted", "Accepted; open the receipt (`hpke_response_*`), check it names `messageId`, then poll `pollUrl` with a sealed envelope naming that run", {
        example: accepted,
        sealedAnswer: { schemaId: "EncryptedDeepResearchReceipt", description: "What `hpke_response_ciphertext` opens to (UTF-8 JSON), with the start's ephemeral key: the run the enclave started for this request" },
      }),
      "429": unsettledTurns,
      "503": literatureUnavailable(settlementUnavailable),
    }),
    status: {
      operationId: "getEncryptedDeepResearchStatus",
      summary: "Poll an encrypted deep-research run (free)",
      description:
        "A POST, so the poll can carry its envelope: `{recoveryKey, messageId}` sealed with a fresh ephemeral key, `messageId` the run the start's receipt named (the enclave answers a poll naming another run than the URL's as unknown, 404). The completed result is sealed to this poll's key, names its run (`messageId`: refuse a result of another run), and is released once the run's payment is settled (the first such poll carries PAYMENT-RESPONSE).",
      sealed: true,
      parameters: [pathParam("messageId", "The `messageId` of the 202")],
      requestBody: (maxBodyBytes) => ({
        required: true,
        description: `At most ${bytesInWords(maxBodyBytes)}`,
        content: {
          "application/json": {
            schema: ref("EncryptedEnvelope"),
            example: ENVELOPE_EXAMPLE,
            "x-sealed-plaintext": { description: "What the envelope seals (UTF-8 JSON)", schema: ref("EncryptedDeepResearchPollPlaintext") },
          },
        },
      }),
      responses: (maxBodyBytes) => ({
        "200": json("EncryptedDeepResearchStatus", "The run's status; the completed result is sealed to this poll's ephemeral key, bound to its shared secret with the enclave", {
          sealedAnswer: sealedAnswer("PrivateDeepResearchResult"),
        }),
        ...bodyErrors(maxBodyBytes, { paid: false }),
        "404": error("Unknown run, a recovery key that is not the run's, or a poll naming another run (`reason: not_found`)"),
        "500": error("`enclave_failed`: the enclave could not answer the poll (unreachable or failing), or another internal failure"),
        "503": databaseUnavailable,
      }),
    },
  },
  history: { kind: "deepResearch", sealed: true },
});
