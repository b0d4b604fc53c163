import type { WorldState } from "@/agent/deep-research/store";
import type {
  ChatQuality,
  ChatReference,
  ChatRejectedReference,
  ChatResult,
  DeepResearchConversation,
  HealthResponse,
  LiteratureJobResult,
  PaymentRequiredBody,
  QueuedChatResult,
} from "@/lib/shared/contracts";

/** Test data builders: a valid example of each contract shape, with overrides. */

export function buildChatReference(overrides: Partial<ChatReference> = {}): ChatReference {
  return {
    ordinal: 1,
    id: "pmid:27797938",
    title: "Leucocyte telomere length and mortality",
    url: "https://pubmed.ncbi.nlm.nih.gov/27797938/",
    source: "pubmed",
    year: 2016,
    doi: "10.1000/example",
    pmid: "27797938",
    pmcid: null,
    evidenceRole: "supporting",
    evidenceType: "observational",
    verification: "verified",
    confidence: 0.82,
    roleReason: "Primary observational evidence on the question's outcome",
    duplicateOfOrdinal: null,
    ...overrides,
  };
}

export function buildChatRejectedReference(overrides: Partial<ChatRejectedReference> = {}): ChatRejectedReference {
  const { ordinal: _ordinal, ...base } = buildChatReference();
  return { ...base, candidateOrdinal: 2, evidenceRole: "lead_only", roleReason: "Off-topic population", ...overrides };
}

export function buildChatQuality(overrides: Partial<ChatQuality> = {}): ChatQuality {
  return {
    citations: {
      markers: [1],
      referenceCount: 1,
      outOfRangeOrdinals: [],
      missingMarkerOrdinals: [],
      uncitedReferenceOrdinals: [],
      allMarkersResolve: true,
      contiguousMarkers: true,
    },
    roleCounts: { supporting: 1, context: 0, lead_only: 0 },
    citedSupportingOrdinals: [1],
    citedContextOrdinals: [],
    citedLeadOnlyOrdinals: [],
    primaryEvidencePresent: true,
    containsNonSupportingCitations: false,
    contractValid: true,
    qualification: null,
    ...overrides,
  };
}

export function buildChatResult(overrides: Partial<ChatResult> = {}): ChatResult {
  const answer = "Shorter leucocyte telomeres were associated with higher mortality [1].";
  return {
    reply: answer,
    answer,
    text: `${answer}\n\nSources\n[1] Leucocyte telomere length and mortality (2016). https://pubmed.ncbi.nlm.nih.gov/27797938/`,
    conversationId: "6f1c2a56-7f3e-4b8e-9a51-0f5d3c7e9b21",
    messageId: null,
    references: [buildChatReference()],
    rejectedReferences: [buildChatRejectedReference()],
    quality: buildChatQuality(),
    metadata: null,
    ...overrides,
  };
}

export function buildQueuedChatResult(overrides: Partial<QueuedChatResult> = {}): QueuedChatResult {
  return { ...buildChatResult(), responseTime: 31_250, ...overrides };
}

export function buildLiteratureJobResult(overrides: Partial<LiteratureJobResult> = {}): LiteratureJobResult {
  return {
    jobId: "2b1f0b7e-3d0c-4d8c-8f43-3f1f3c2f9a10",
    status: "completed",
    answer: "Rapamycin extended median lifespan in mice [1].",
    formattedAnswer: "Rapamycin extended median lifespan in mice [1].\n\n1. Example study (2009)",
    references: [
      {
        id: 1,
        title: "Rapamycin fed late in life extends lifespan in genetically heterogeneous mice",
        url: "https://pubmed.ncbi.nlm.nih.gov/19587680/",
        source: "pubmed",
        year: 2009,
        item_date: "2009-07-16",
        relevance: { accepted: true, score: 0.91, matchedTerms: ["rapamycin", "lifespan"], flags: [] },
      },
    ],
    contextPassages: [{ referenceId: 1, text: "Rapamycin extended median and maximal lifespan." }],
    reasoning: ["Searched pubmed and europepmc", "Kept 1 of 3 references"],
    quality: {
      filtered: true,
      rawCount: 3,
      acceptedCount: 1,
      rejectedCount: 2,
      lowConfidence: false,
      evidenceThin: true,
      rejectionReasons: { off_topic: 2 },
    },
    retrievalBackend: "federated",
    fallbackUsed: false,
    effectiveSources: ["pubmed", "europepmc"],
    ...overrides,
  };
}

export function buildConversation(overrides: Partial<DeepResearchConversation> = {}): DeepResearchConversation {
  return {
    conversationId: "c0a8012e-9f6b-4a7e-8d55-1f2e3d4c5b6a",
    status: "completed",
    worldState: { findings: [], hypotheses: [], openQuestions: [] },
    sessionStatus: "finished after 3 iterations",
    activeMessageId: "m-1",
    turns: [
      {
        messageId: "m-1",
        objective: "What does rapamycin do to lifespan?",
        reply: "It extends it in mice [1].",
        citations: [{ ordinal: 1, pmid: "19587680" }],
        status: "completed",
        isFinal: true,
      },
    ],
    ...overrides,
  };
}

/**
 * A deep-research world state as the agent records it: the objectives searched, the findings with
 * their excerpts and references, hypotheses, open questions and sources; `messageIds` names the
 * turns it was built from, when given.
 */
export function buildWorldState(overrides: Partial<WorldState> & { messageIds?: string[] } = {}): WorldState & { messageIds?: string[] } {
  return {
    objectives: ["rapamycin lifespan", "rapamycin lifespan randomized controlled trial humans", "rapamycin lifespan mtorc1"],
    findings: [
      {
        statement: "Rapamycin fed late in life extended median and maximal lifespan of both male and female mice.",
        references: [
          {
            ordinal: 1,
            title: "Rapamycin fed late in life extends lifespan in genetically heterogeneous mice",
            url: "https://pubmed.ncbi.nlm.nih.gov/19587680/",
            pmid: "19587680",
            doi: "10.1038/nature08221",
          },
        ],
      },
    ],
    hypotheses: ["Supported by “Rapamycin fed late in life extends lifespan in genetically heterogeneous mice”: worth testing further."],
    openQuestions: ["Little evidence was found on “rapamycin lifespan randomized controlled trial humans”."],
    sources: ["pubmed", "europepmc"],
    ...overrides,
  };
}

export function buildHealth(overrides: Partial<HealthResponse> = {}): HealthResponse {
  return {
    status: "healthy",
    timestamp: "2026-11-22T00:00:00.000Z",
    uptime: 12,
    version: "0.1.0",
    components: {
      upstreamApi: { status: "healthy", latencyMs: 4, message: null },
      database: { status: "healthy", latencyMs: 2, message: null },
    },
    config: {
      paymentAddress: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
      upstreamApiBaseUrl: "http://127.0.0.1:3001",
      network: "eip155:31337",
      pricing: { "POST /api/chat": "$0.02" },
    },
    conversations: { total: 0, byStatus: {} },
    ...overrides,
  };
}

export function buildPaymentRequired(overrides: Partial<PaymentRequiredBody> = {}): PaymentRequiredBody {
  return {
    x402Version: 2,
    error: "Payment required",
    resource: { url: "http://localhost:3000/api/chat", description: "Start chat", mimeType: "application/json" },
    accepts: [
      {
        scheme: "exact",
        network: "eip155:8453",
        amount: "20000",
        asset: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913",
        payTo: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
        maxTimeoutSeconds: 300,
        extra: { name: "USD Coin", version: "2" },
      },
    ],
    ...overrides,
  };
}
