import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  chatAcceptedSchema,
  chatJobStatusSchema,
  chatQualitySchema,
  chatReferenceSchema,
  chatRejectedReferenceSchema,
  chatRequestSchema,
  chatResultSchema,
  componentHealthSchema,
  cronResponseSchema,
  deepResearchAcceptedSchema,
  deepResearchConversationSchema,
  deepResearchStartRequestSchema,
  deepResearchTurnSchema,
  enclaveKeyResponseSchema,
  encryptedChatAcceptedSchema,
  encryptedChatPlaintextSchema,
  encryptedChatStatusSchema,
  encryptedChatSyncResponseSchema,
  encryptedDeepResearchAcceptedSchema,
  encryptedDeepResearchReceiptSchema,
  encryptedDeepResearchPollPlaintextSchema,
  encryptedDeepResearchStartPlaintextSchema,
  encryptedDeepResearchStatusSchema,
  encryptedEnvelopeSchema,
  encryptedLiteratureAcceptedSchema,
  encryptedLiteraturePlaintextSchema,
  encryptedLiteratureStatusSchema,
  encryptedResponseSchema,
  errorBodySchema,
  healthResponseSchema,
  literatureAcceptedSchema,
  literatureJobResultSchema,
  literatureQualitySchema,
  literatureQueryRequestSchema,
  literatureReferenceSchema,
  literatureResultsByTagEntrySchema,
  notFoundStatusSchema,
  paymentRequiredBodySchema,
  paymentRequirementsSchema,
  queuedChatResultSchema,
  rateLimitedBodySchema,
  recoveryKeySchema,
  sseCompletedEventASchema,
  sseCompletedEventBSchema,
  sseErrorEventSchema,
  sseProgressEventSchema,
  sseQueuedEventASchema,
  sseQueuedEventBSchema,
  upstreamChatAcceptedASchema,
  upstreamChatAcceptedBSchema,
  upstreamChatRequestASchema,
  upstreamChatRequestBSchema,
  upstreamChatStatusSchema,
} from "@/lib/shared/contracts";
import {
  buildChatQuality,
  buildChatReference,
  buildChatRejectedReference,
  buildChatResult,
  buildConversation,
  buildHealth,
  buildLiteratureJobResult,
  buildPaymentRequired,
  buildQueuedChatResult,
} from "../support/builders";

const UUID = "3f2b8c1e-5d4a-4b6c-9e8f-7a6b5c4d3e2f";
const UUID2 = "9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d";
const KEY32 = Buffer.alloc(32, 7).toString("base64");
const CIPHERTEXT = Buffer.alloc(64, 1).toString("base64");
const RECOVERY_KEY = `longevity_key_v1_${Buffer.alloc(32, 0xab).toString("base64url")}`;

function accepts<T extends z.ZodType>(schema: T, value: unknown): z.output<T> {
  const result = schema.safeParse(value);
  if (!result.success) throw new Error(`expected valid, got: ${JSON.stringify(result.error.issues)}`);
  return result.data;
}

/** Asserts rejection and, when given, that an issue points at `path`. */
function rejects(schema: z.ZodType, value: unknown, path?: string): void {
  const result = schema.safeParse(value);
  expect(result.success, `expected ${JSON.stringify(value)?.slice(0, 120)} to be rejected`).toBe(false);
  if (path !== undefined && !result.success) {
    expect(result.error.issues.map((i) => i.path.join("."))).toContain(path);
  }
}

describe("error bodies (2.1, 7)", () => {
  it("accepts error with optional reason and message", () => {
    accepts(errorBodySchema, { error: "Payment required" });
    accepts(errorBodySchema, { error: "invalid", reason: "invalid_exact_evm_payload_signature", message: "bad sig" });
    accepts(errorBodySchema, { error: "x", reason: null, message: null });
  });
  it("rejects a body without error", () => {
    rejects(errorBodySchema, { message: "no error field" }, "error");
    rejects(errorBodySchema, { error: 42 }, "error");
  });
  it("429 needs an integer retryAfterSeconds", () => {
    accepts(rateLimitedBodySchema, { error: "Rate limit exceeded", retryAfterSeconds: 30 });
    rejects(rateLimitedBodySchema, { error: "Rate limit exceeded" }, "retryAfterSeconds");
    rejects(rateLimitedBodySchema, { error: "x", retryAfterSeconds: 1.5 }, "retryAfterSeconds");
  });
});

describe("payment requirements (2.2)", () => {
  it("accepts a full 402 body", () => {
    const body = accepts(paymentRequiredBodySchema, {
      ...buildPaymentRequired(),
      extensions: { bazaar: { info: { input: { type: "http", method: "POST" } }, schema: { type: "object" } } },
    });
    expect(body.accepts[0]?.amount).toBe("20000");
  });
  it("rejects the wrong ones that matter", () => {
    rejects(paymentRequiredBodySchema, buildPaymentRequired({ x402Version: 1 as 2 }), "x402Version");
    rejects(paymentRequiredBodySchema, buildPaymentRequired({ accepts: [] }), "accepts");
    const requirement = buildPaymentRequired().accepts[0]!;
    rejects(paymentRequirementsSchema, { ...requirement, amount: "0.02" }, "amount");
    rejects(paymentRequirementsSchema, { ...requirement, network: "base" }, "network");
    rejects(paymentRequirementsSchema, { ...requirement, maxTimeoutSeconds: 0 }, "maxTimeoutSeconds");
    rejects(paymentRequirementsSchema, { ...requirement, extra: { name: "USD Coin" } }, "extra.version");
  });
});

describe("chat references (2.5, 2.6)", () => {
  it("accepts a valid reference", () => {
    accepts(chatReferenceSchema, buildChatReference());
    accepts(chatReferenceSchema, buildChatReference({ year: undefined, doi: undefined, duplicateOfOrdinal: 1 }));
  });
  it("rejects an ordinal of 0", () => rejects(chatReferenceSchema, buildChatReference({ ordinal: 0 }), "ordinal"));
  it("rejects an unknown evidenceRole", () =>
    rejects(chatReferenceSchema, { ...buildChatReference(), evidenceRole: "primary" }, "evidenceRole"));
  it("rejects an unknown evidenceType and verification", () => {
    rejects(chatReferenceSchema, { ...buildChatReference(), evidenceType: "anecdote" }, "evidenceType");
    rejects(chatReferenceSchema, { ...buildChatReference(), verification: "maybe" }, "verification");
  });
  it("rejects confidence outside 0..1, a non-URL url and duplicateOfOrdinal 0", () => {
    rejects(chatReferenceSchema, buildChatReference({ confidence: 1.2 }), "confidence");
    rejects(chatReferenceSchema, buildChatReference({ url: "not a url" }), "url");
    rejects(chatReferenceSchema, buildChatReference({ duplicateOfOrdinal: 0 }), "duplicateOfOrdinal");
  });
  it("accepts a rejected reference with role context or lead_only", () => {
    accepts(chatRejectedReferenceSchema, buildChatRejectedReference());
    accepts(chatRejectedReferenceSchema, buildChatRejectedReference({ evidenceRole: "context" }));
  });
  it("rejects a rejected reference with role supporting", () =>
    rejects(chatRejectedReferenceSchema, { ...buildChatRejectedReference(), evidenceRole: "supporting" }, "evidenceRole"));
  it("rejects a rejected reference without candidateOrdinal, or with 0", () => {
    const { candidateOrdinal: _c, ...rest } = buildChatRejectedReference();
    rejects(chatRejectedReferenceSchema, rest, "candidateOrdinal");
    rejects(chatRejectedReferenceSchema, buildChatRejectedReference({ candidateOrdinal: 0 }), "candidateOrdinal");
  });
});

describe("chat quality and results (2.4, 2.7, 2.8)", () => {
  it("accepts quality, result and queued result", () => {
    accepts(chatQualitySchema, buildChatQuality());
    accepts(chatResultSchema, buildChatResult());
    expect(accepts(queuedChatResultSchema, buildQueuedChatResult()).responseTime).toBe(31_250);
  });
  it("rejects quality with missing citation audit fields", () => {
    const q = buildChatQuality();
    const { allMarkersResolve: _a, ...citations } = q.citations;
    rejects(chatQualitySchema, { ...q, citations }, "citations.allMarkersResolve");
    rejects(chatQualitySchema, { ...q, roleCounts: { supporting: 1.5 } }, "roleCounts.supporting");
    rejects(chatQualitySchema, { ...q, citedSupportingOrdinals: [0] }, "citedSupportingOrdinals.0");
  });
  it("rejects a result without references, quality or conversationId", () => {
    const { references: _r, ...noRefs } = buildChatResult();
    rejects(chatResultSchema, noRefs, "references");
    const { conversationId: _c, ...noConversation } = buildChatResult();
    rejects(chatResultSchema, noConversation, "conversationId");
  });
  it("queued result needs a whole, non-negative responseTime", () => {
    rejects(queuedChatResultSchema, buildChatResult(), "responseTime");
    rejects(queuedChatResultSchema, buildQueuedChatResult({ responseTime: -1 }), "responseTime");
  });
  it("job status: each state, with result when completed and error when failed", () => {
    accepts(chatJobStatusSchema, { status: "queued", progress: null, result: null, error: null });
    accepts(chatJobStatusSchema, { status: "active", progress: { stage: "literature", percent: 40 } });
    accepts(chatJobStatusSchema, { status: "completed", progress: { stage: "done", percent: 100 }, result: buildQueuedChatResult() });
    accepts(chatJobStatusSchema, { status: "failed", error: "model unavailable" });
    rejects(chatJobStatusSchema, { status: "running" }, "status");
    rejects(chatJobStatusSchema, { status: "completed" }, "result");
    rejects(chatJobStatusSchema, { status: "failed" }, "error");
    rejects(chatJobStatusSchema, { status: "active", progress: { stage: "thinking", percent: 101 } }, "progress.percent");
  });
  it("chat request: message required and not blank; fast optional", () => {
    expect(accepts(chatRequestSchema, { message: "Does rapamycin extend lifespan?", fast: true }).fast).toBe(true);
    rejects(chatRequestSchema, {}, "message");
    rejects(chatRequestSchema, { message: "   " }, "message");
    rejects(chatRequestSchema, { message: "x", fast: "yes" }, "fast");
    rejects(chatRequestSchema, { message: "x".repeat(32_001) }, "message");
  });
  it("chat request: conversationId (this service's addition) is an earlier answer's UUID", () => {
    expect(accepts(chatRequestSchema, { message: "And in people?", conversationId: UUID }).conversationId).toBe(UUID);
    rejects(chatRequestSchema, { message: "m", conversationId: "not-a-uuid" }, "conversationId");
    rejects(chatRequestSchema, { message: "m", conversationId: 42 }, "conversationId");
  });
  it("chat 202", () => {
    accepts(chatAcceptedSchema, { requestId: UUID, status: "queued" });
    expect(accepts(chatAcceptedSchema, { requestId: UUID, status: "queued", conversationId: UUID }).conversationId).toBe(UUID);
    rejects(chatAcceptedSchema, { requestId: UUID, status: "active" }, "status");
  });
});

describe("deep research (2.3, 4.1)", () => {
  it("accepts a full conversation and the in-progress short form", () => {
    accepts(deepResearchConversationSchema, buildConversation());
    accepts(deepResearchConversationSchema, { conversationId: UUID, status: "running" });
    accepts(deepResearchConversationSchema, { conversationId: UUID, status: "timeout" });
  });
  it("rejects unknown statuses and malformed turns", () => {
    rejects(deepResearchConversationSchema, { conversationId: UUID, status: "done" }, "status");
    const turn = buildConversation().turns![0]!;
    accepts(deepResearchTurnSchema, turn);
    rejects(deepResearchTurnSchema, { ...turn, isFinal: "yes" }, "isFinal");
    rejects(deepResearchTurnSchema, { ...turn, citations: "none" }, "citations");
  });
  it("start request and 202", () => {
    accepts(deepResearchStartRequestSchema, { message: "Map the evidence on senolytics", conversationId: UUID });
    rejects(deepResearchStartRequestSchema, { conversationId: UUID }, "message");
    // A conversation id reaches a uuid column: anything else is the client's 400, before payment.
    rejects(deepResearchStartRequestSchema, { message: "m", conversationId: "-".repeat(36) }, "conversationId");
    accepts(deepResearchAcceptedSchema, { messageId: "m1", conversationId: UUID, status: "queued" });
    rejects(deepResearchAcceptedSchema, { messageId: "m1", status: "queued" }, "conversationId");
  });
});

describe("sealed envelopes and plaintexts (2.9, 4.1 to 4.4)", () => {
  const envelope = { hpke_ciphertext: CIPHERTEXT, hpke_ephemeral_public_key: KEY32 };
  it("envelope and encrypted response", () => {
    accepts(encryptedEnvelopeSchema, envelope);
    rejects(encryptedEnvelopeSchema, { hpke_ciphertext: CIPHERTEXT }, "hpke_ephemeral_public_key");
    rejects(encryptedEnvelopeSchema, { ...envelope, hpke_ciphertext: "not base64!" }, "hpke_ciphertext");
    rejects(encryptedEnvelopeSchema, { ...envelope, hpke_ciphertext: "" }, "hpke_ciphertext");
    accepts(encryptedResponseSchema, { hpke_response_ciphertext: CIPHERTEXT, hpke_response_ephemeral_key: KEY32 });
    rejects(encryptedResponseSchema, { hpke_response_ciphertext: CIPHERTEXT }, "hpke_response_ephemeral_key");
  });
  it("recovery keys: exact prefix, 32 bytes, one spelling", () => {
    accepts(recoveryKeySchema, RECOVERY_KEY);
    rejects(recoveryKeySchema, RECOVERY_KEY.replace("_v1_", "_v2_"));
    rejects(recoveryKeySchema, RECOVERY_KEY.slice(0, -1));
    rejects(recoveryKeySchema, `${RECOVERY_KEY.slice(0, -1)}B`); // non-zero padding bits
    rejects(recoveryKeySchema, `${RECOVERY_KEY.slice(0, -2)}+A`); // not base64url
  });
  it("chat plaintext", () => {
    accepts(encryptedChatPlaintextSchema, { message: "Is my ApoE4 result relevant?" });
    accepts(encryptedChatPlaintextSchema, {
      message: "Summarise",
      recoveryKey: RECOVERY_KEY,
      conversationId: UUID,
      attachments: [{ name: "labs.csv", mediaType: "text/csv", text: "marker,value\nHbA1c,5.4" }],
    });
    rejects(encryptedChatPlaintextSchema, { recoveryKey: RECOVERY_KEY }, "message");
    rejects(encryptedChatPlaintextSchema, { message: "x", recoveryKey: "longevity_key_v1_short" }, "recoveryKey");
    rejects(
      encryptedChatPlaintextSchema,
      { message: "x", attachments: [{ name: "a.png", mediaType: "image/png", text: "" }] },
      "attachments.0.mediaType",
    );
  });
  it("deep-research and literature plaintexts", () => {
    accepts(encryptedDeepResearchStartPlaintextSchema, { message: "m", recoveryKey: RECOVERY_KEY });
    rejects(encryptedDeepResearchStartPlaintextSchema, { message: "m" }, "recoveryKey");
    accepts(encryptedDeepResearchPollPlaintextSchema, { recoveryKey: RECOVERY_KEY });
    accepts(encryptedDeepResearchPollPlaintextSchema, { recoveryKey: RECOVERY_KEY, messageId: UUID });
    rejects(encryptedDeepResearchPollPlaintextSchema, { recoveryKey: RECOVERY_KEY, messageId: "" }, "messageId");
    rejects(encryptedDeepResearchPollPlaintextSchema, {}, "recoveryKey");
    const lit = accepts(encryptedLiteraturePlaintextSchema, { question: "metformin and frailty", recoveryKey: RECOVERY_KEY });
    expect(lit.mode).toBe("fast");
    rejects(encryptedLiteraturePlaintextSchema, { question: "" }, "question");
  });
  it("encrypted start and status responses", () => {
    const sealed = { hpke_response_ciphertext: CIPHERTEXT, hpke_response_ephemeral_key: KEY32 };
    accepts(encryptedChatSyncResponseSchema, { requestId: UUID, ...sealed });
    accepts(encryptedChatAcceptedSchema, { requestId: UUID, status: "queued", pollUrl: "https://x.example/api/chat/encrypted/status/1" });
    rejects(encryptedChatAcceptedSchema, { requestId: UUID, status: "queued", pollUrl: "/relative" }, "pollUrl");
    accepts(encryptedChatStatusSchema, { status: "active" });
    accepts(encryptedChatStatusSchema, { status: "completed", requestId: UUID, ...sealed });
    rejects(encryptedChatStatusSchema, { status: "completed", requestId: UUID });
    accepts(encryptedChatStatusSchema, { status: "failed", error: "private model unavailable" });
    accepts(encryptedDeepResearchAcceptedSchema, { messageId: "m", status: "queued", pollUrl: "https://x.example/p", ...sealed });
    rejects(encryptedDeepResearchAcceptedSchema, { messageId: "m", status: "queued", pollUrl: "https://x.example/p" }, "hpke_response_ciphertext");
    accepts(encryptedDeepResearchReceiptSchema, { messageId: "m", status: "queued" });
    accepts(encryptedDeepResearchStatusSchema, { status: "running" });
    accepts(encryptedDeepResearchStatusSchema, { status: "completed", ...sealed });
    rejects(encryptedDeepResearchStatusSchema, { status: "active" });
    accepts(encryptedLiteratureAcceptedSchema, { requestId: UUID, status: "pending", pollUrl: "https://x.example/p" });
    rejects(encryptedLiteratureAcceptedSchema, { requestId: UUID, status: "queued", pollUrl: "https://x.example/p" }, "status");
    accepts(encryptedLiteratureStatusSchema, { status: "active" });
    accepts(encryptedLiteratureStatusSchema, { status: "completed", ...sealed });
    accepts(notFoundStatusSchema, { status: "not_found" });
    accepts(enclaveKeyResponseSchema, { hpke_public_key: KEY32 });
    rejects(enclaveKeyResponseSchema, { hpke_public_key: "%%%" }, "hpke_public_key");
  });
});

describe("literature request (2.10)", () => {
  it("fills the defaults", () => {
    const r = accepts(literatureQueryRequestSchema, { question: "Does rapamycin extend lifespan in mice?" });
    expect(r).toMatchObject({ mode: "fast", filterReferences: true, includeRejected: false });
  });
  it("accepts every option, including the deprecated ones", () => {
    accepts(literatureQueryRequestSchema, {
      question: "senolytics",
      mode: "deep",
      sourceProfile: "litqa-recall",
      tags: ["dasatinib", "quercetin"],
      tagMode: "fanout",
      allowSourceExpansion: true,
      maxResults: 25,
      perSourceLimit: 10,
      sources: ["pubmed"],
      scope: "no-preprints",
      retrievalProfile: "litqa-recall",
      privacyMode: "strict",
      year: "2015-2024",
      date_from: "2015-01-01",
      date_to: "2024-12-31",
      filterReferences: false,
      includeRejected: true,
    });
  });
  it("question: 1 to 8192 characters", () => {
    accepts(literatureQueryRequestSchema, { question: "q".repeat(8192) });
    rejects(literatureQueryRequestSchema, { question: "q".repeat(8193) }, "question");
    rejects(literatureQueryRequestSchema, { question: "" }, "question");
    rejects(literatureQueryRequestSchema, {}, "question");
    // 8192 characters outside the Basic Multilingual Plane are 16384 UTF-16 units, and still allowed.
    accepts(literatureQueryRequestSchema, { question: "🧬".repeat(8192) });
  });
  it("dates must be real YYYY-MM-DD dates, in order", () => {
    rejects(literatureQueryRequestSchema, { question: "q", date_from: "2024/01/01" }, "date_from");
    rejects(literatureQueryRequestSchema, { question: "q", date_to: "01-02-2024" }, "date_to");
    rejects(literatureQueryRequestSchema, { question: "q", date_from: "2023-02-30" }, "date_from");
    rejects(literatureQueryRequestSchema, { question: "q", date_from: "2024-05-01", date_to: "2024-01-01" }, "date_to");
  });
  it("rejects values outside the allowed sets", () => {
    rejects(literatureQueryRequestSchema, { question: "q", mode: "thorough" }, "mode");
    rejects(literatureQueryRequestSchema, { question: "q", scope: "journals" }, "scope");
    rejects(literatureQueryRequestSchema, { question: "q", tagMode: "all" }, "tagMode");
    rejects(literatureQueryRequestSchema, { question: "q", sourceProfile: "fast" }, "sourceProfile");
    rejects(literatureQueryRequestSchema, { question: "q", retrievalProfile: "max" }, "retrievalProfile");
    rejects(literatureQueryRequestSchema, { question: "q", maxResults: 0 }, "maxResults");
    rejects(literatureQueryRequestSchema, { question: "q", year: "20" }, "year");
    rejects(literatureQueryRequestSchema, { question: "q", year: "2024-2010" }, "year");
    rejects(literatureQueryRequestSchema, { question: "q", tags: [""] }, "tags.0");
    rejects(literatureQueryRequestSchema, { question: "q", filterReferences: "false" }, "filterReferences");
  });
});

describe("literature result (2.11)", () => {
  it("accepts a completed result and an all-empty one", () => {
    accepts(literatureJobResultSchema, buildLiteratureJobResult());
    accepts(literatureJobResultSchema, {});
    accepts(literatureJobResultSchema, { jobId: UUID, status: "queued", references: null });
  });
  it("accepts fanout coverage by tag", () => {
    const entry = {
      tag: "rapamycin",
      covered: true,
      acceptedCount: 1,
      rejectedCount: 0,
      matchedTerms: ["rapamycin"],
      acceptedReferences: [{ id: 1 }],
      rejectedReferences: null,
    };
    accepts(literatureResultsByTagEntrySchema, entry);
    accepts(literatureJobResultSchema, buildLiteratureJobResult({ tagMode: "fanout", tags: ["rapamycin"], resultsByTag: { rapamycin: entry } }));
    rejects(literatureResultsByTagEntrySchema, { ...entry, covered: "yes" }, "covered");
  });
  it("rejects a reference with a bad item_date or relevance", () => {
    const ref = buildLiteratureJobResult().references![0]!;
    accepts(literatureReferenceSchema, { ...ref, id: "PMC123" });
    rejects(literatureReferenceSchema, { ...ref, item_date: "2009-7-16" }, "item_date");
    rejects(literatureReferenceSchema, { ...ref, relevance: { accepted: true, score: 1 } }, "relevance.matchedTerms");
    rejects(literatureReferenceSchema, { ...ref, id: null }, "id");
  });
  it("rejects quality with negative or fractional counts", () => {
    const q = buildLiteratureJobResult().quality!;
    accepts(literatureQualitySchema, q);
    rejects(literatureQualitySchema, { ...q, rawCount: -1 }, "rawCount");
    rejects(literatureQualitySchema, { ...q, rejectionReasons: { off_topic: 0.5 } }, "rejectionReasons.off_topic");
  });
  it("202", () => {
    accepts(literatureAcceptedSchema, { jobId: UUID, status: "queued" });
    rejects(literatureAcceptedSchema, { status: "queued" }, "jobId");
  });
});

describe("health and cron (2.12, 4.5)", () => {
  it("accepts a report", () => {
    accepts(healthResponseSchema, buildHealth());
    accepts(healthResponseSchema, buildHealth({ status: "down", conversations: null }));
  });
  it("rejects wrong statuses, timestamps and latencies", () => {
    rejects(healthResponseSchema, buildHealth({ status: "ok" as "healthy" }), "status");
    rejects(healthResponseSchema, buildHealth({ timestamp: "yesterday" }), "timestamp");
    rejects(componentHealthSchema, { status: "healthy", latencyMs: 1.5, message: null }, "latencyMs");
    rejects(componentHealthSchema, { status: "healthy", latencyMs: 1 }, "message");
  });
  it("cron", () => {
    const ran = { ok: true, checked: 1, settled: 1, pending: 0, voided: 0, expired: 0, failed: 0, interrupted: 0, errors: 0, transactions: {}, swept: null };
    accepts(cronResponseSchema, ran);
    rejects(cronResponseSchema, { ...ran, ok: undefined }, "ok");
    rejects(cronResponseSchema, { ...ran, checked: -1 }, "checked");
  });
});

describe("upstream chat API, variants A and B (4.6)", () => {
  it("requests", () => {
    accepts(upstreamChatRequestASchema, { message: "m", conversationId: UUID });
    rejects(upstreamChatRequestASchema, { message: "m", conversationId: "not-a-uuid" }, "conversationId");
    accepts(upstreamChatRequestBSchema, { message: "m" });
    rejects(upstreamChatRequestBSchema, { conversationId: UUID }, "message");
  });
  it("202: A names the conversation, B never does", () => {
    accepts(upstreamChatAcceptedASchema, { requestId: UUID, status: "queued", conversationId: UUID2 });
    rejects(upstreamChatAcceptedASchema, { requestId: UUID, status: "queued" }, "conversationId");
    accepts(upstreamChatAcceptedBSchema, { requestId: UUID, status: "queued" });
    rejects(upstreamChatAcceptedBSchema, { requestId: UUID, status: "queued", conversationId: UUID2 });
    rejects(upstreamChatAcceptedBSchema, { requestId: "1", status: "queued" }, "requestId");
  });
  it("status: in progress, completed with text and responseTime, failed", () => {
    accepts(upstreamChatStatusSchema, { status: "active", progress: { stage: "thinking", percent: 70 } });
    accepts(upstreamChatStatusSchema, { status: "completed", result: buildQueuedChatResult() });
    accepts(upstreamChatStatusSchema, { status: "completed", result: { text: "t", responseTime: 10 } });
    rejects(upstreamChatStatusSchema, { status: "completed", result: { text: "t" } }, "result.responseTime");
    accepts(upstreamChatStatusSchema, { status: "failed", error: "timeout" });
  });
  it("the four server-sent events", () => {
    accepts(sseQueuedEventASchema, { requestId: UUID, conversationId: UUID2 });
    rejects(sseQueuedEventASchema, { requestId: UUID }, "conversationId");
    accepts(sseQueuedEventBSchema, { requestId: UUID });
    rejects(sseQueuedEventBSchema, { requestId: UUID, conversationId: UUID2 });
    accepts(sseProgressEventSchema, { stage: "literature", percent: 20 });
    rejects(sseProgressEventSchema, { stage: "literature", percent: "20" }, "percent");
    accepts(sseCompletedEventASchema, { text: "t", responseTime: 5, conversationId: UUID2 });
    rejects(sseCompletedEventASchema, { text: "t", responseTime: 5 }, "conversationId");
    accepts(sseCompletedEventBSchema, { text: "t", responseTime: 5 });
    rejects(sseCompletedEventBSchema, { text: "t", responseTime: 5, conversationId: UUID2 });
    accepts(sseErrorEventSchema, { error: "upstream timed out" });
    rejects(sseErrorEventSchema, {}, "error");
  });
});

describe("paid request bodies refuse fields the contract does not define (issue 16)", () => {
  const envelope = { hpke_ciphertext: CIPHERTEXT, hpke_ephemeral_public_key: KEY32 };
  const refusal = (schema: z.ZodType, value: unknown) => {
    const result = schema.safeParse(value);
    expect(result.success).toBe(false);
    return result.error!.issues.map((i) => i.message).join("; ");
  };

  it.each([
    ["chat", chatRequestSchema, { message: "m", model: "gpt-5" }, "model", "message, fast, conversationId"],
    ["deep research", deepResearchStartRequestSchema, { message: "m", depth: 3 }, "depth", "message, conversationId"],
    ["literature", literatureQueryRequestSchema, { question: "q", limit: 5 }, "limit", "question, mode, sourceProfile"],
    ["a sealed envelope", encryptedEnvelopeSchema, { ...envelope, message: "in the clear" }, "message", "hpke_ciphertext, hpke_ephemeral_public_key"],
    ["a sealed literature plaintext", encryptedLiteraturePlaintextSchema, { question: "q", recoverykey: RECOVERY_KEY }, "recoverykey", "includeRejected, recoveryKey"],
  ] as const)("%s: names the unknown field and the fields it takes", (_name, schema, value, field, takes) => {
    const message = refusal(schema, value);
    expect(message).toContain(`${field}: unknown field`);
    expect(message).toContain(takes);
  });

  it("names at most five unknown fields, each cut to 64 characters", () => {
    const value = { message: "m", ...Object.fromEntries(Array.from({ length: 7 }, (_, i) => [`${"x".repeat(100)}${i}`, 1])) };
    const message = refusal(chatRequestSchema, value);
    expect(message.match(/unknown field/g)).toHaveLength(5);
    expect(message).toContain("(and 2 more)");
    expect(message).not.toContain("x".repeat(65));
  });

  it("keeps every field the contract defines (section 2.10, all at once)", () => {
    accepts(literatureQueryRequestSchema, {
      question: "q",
      mode: "deep",
      sourceProfile: "clinical",
      tags: ["mtor"],
      tagMode: "fanout",
      allowSourceExpansion: true,
      maxResults: 5,
      perSourceLimit: 2,
      sources: ["pubmed"],
      scope: "no-preprints",
      retrievalProfile: "default",
      privacyMode: "standard",
      year: "2015-2021",
      date_from: "2015-01-01",
      date_to: "2021-12-31",
      filterReferences: false,
      includeRejected: true,
    });
    accepts(chatRequestSchema, { message: "m", fast: false, conversationId: UUID });
    accepts(deepResearchStartRequestSchema, { message: "m", conversationId: UUID });
  });

  it("says so in the JSON Schema the 402 and the OpenAPI document carry: additionalProperties false", () => {
    for (const schema of [chatRequestSchema, deepResearchStartRequestSchema, literatureQueryRequestSchema, encryptedEnvelopeSchema]) {
      expect(z.toJSONSchema(schema, { io: "input", unrepresentable: "any" })).toMatchObject({ additionalProperties: false });
    }
  });
});

