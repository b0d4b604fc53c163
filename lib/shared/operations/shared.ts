import sealingVectors from "@/lib/shared/sealing/vectors.json";

/**
 * What the operations' definitions share: examples, authorization windows and polling timings.
 * An envelope as the contract's sealing scheme makes it: the request test vector of the sealing documentation (`{"message": …}` sealed to the
 * vector's enclave key), valid base64 as the schema requires; a real request seals to the key of
 * GET /api/enclave-key. A sealed answer's fields come from the response test vector.
 */
export const ENVELOPE_EXAMPLE = sealingVectors.envelope;
export const SEALED_ANSWER_EXAMPLE = sealingVectors.response;
export const EXAMPLE_ID = "0f8fad5b-d9cb-469f-a165-70867728950e";
export const EXAMPLE_CONVERSATION_ID = "7c9e6679-7425-40de-944b-e07fc1f90ae7";

/** What a sealed answer's `hpke_response_ciphertext` opens to, for the OpenAPI document's `x-sealed-answer`. */
export const sealedAnswer = (schemaId: string) => ({ schemaId, description: "What `hpke_response_ciphertext` opens to (UTF-8 JSON), with the request's ephemeral key" });

/** A chat-like operation's authorization: settled within seconds of the request. */
export const SETTLED_AT_ONCE = { maxTimeoutSeconds: 300, minRemainingSeconds: 60, settlement: "immediate" } as const;

/** Seconds a deep-research turn may run; its authorization must outlive this plus settlement. */
const DEEP_RESEARCH_RUN_BUDGET_SECONDS = 1800;

/** Deep research's authorization: settled when the run is delivered, so it must outlive the run. */
export const SETTLED_ON_DELIVERY = {
  maxTimeoutSeconds: 3600,
  minRemainingSeconds: DEEP_RESEARCH_RUN_BUDGET_SECONDS + 300,
  settlement: "deferred",
} as const;

/** The contract's polling figures: chat every 2 s, answered in 30 to 50 s, stop after 60 s; deep research within its run budget. */
export const CHAT_TIMINGS = { intervalSeconds: 2, typicalSeconds: 50, maxSeconds: 60 };
export const LITERATURE_TIMINGS = { intervalSeconds: 1, typicalSeconds: 6, maxSeconds: 60 };
export const DEEP_RESEARCH_TIMINGS = { intervalSeconds: 10, typicalSeconds: 300, maxSeconds: DEEP_RESEARCH_RUN_BUDGET_SECONDS };
