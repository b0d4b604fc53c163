import { z } from "zod";
import { literatureAcceptedSchema, literatureJobResultSchema, literatureQueryRequestSchema } from "@/lib/shared/contracts";
import { sourcesInWords } from "@/lib/shared/contracts/source-words";
import { DEEP_SOURCES, FAST_SOURCES } from "@/lib/shared/contracts/sources";
import { agentUnavailable, error, json, literatureUnavailable, pathParam, settlementUnavailable } from "@/lib/shared/openapi/responses";
import { definePaidOperation } from "@/lib/shared/operations/define";
import { EXAMPLE_ID, LITERATURE_TIMINGS, SETTLED_AT_ONCE } from "@/lib/shared/operations/shared";

/** The sources searched, in words: the fast plan, and what deep mode adds (lib/shared/contracts/sources.ts). */
const SEARCHED = `${sourcesInWords(FAST_SOURCES)} (Europe PMC with its preprints); in deep mode also ${sourcesInWords(DEEP_SOURCES.filter((s) => !FAST_SOURCES.includes(s)))}`;

/** POST /api/literature: federated literature search, settled before the 202. */
export const literature = definePaidOperation({
  id: "literature",
  method: "POST",
  path: "/api/literature",
  summary: "Start literature search",
  amount: "30000",
  ...SETTLED_AT_ONCE,
  body: literatureQueryRequestSchema,
  bodyExample: { question: "senolytics and frailty in older adults", mode: "fast" },
  accepted: literatureAcceptedSchema,
  acceptedExample: () => ({ jobId: EXAMPLE_ID, status: "queued" }),
  polling: { status: literatureJobResultSchema, method: "GET", path: "/api/literature/jobs/{jobId}", synchronous: true, ...LITERATURE_TIMINGS },
  openapi: {
    tags: ["literature"],
    requestSchema: "LiteratureQueryRequest",
    description:
      `Federated literature search (${SEARCHED}, by mode and scope) with relevance filtering, evidence grading and an extractive answer whose every [N] is a reference. The result's \`failedSources\` names the sources that failed; when none can answer, 503 \`literature_unavailable\` before payment.`,
    responses: ({ accepted }) => ({
      "202": json("LiteratureAccepted", "Accepted; poll GET /api/literature/jobs/{jobId}", { example: accepted }),
      "200": json("LiteratureJobResult", "Already complete (uncommon)"),
      "503": literatureUnavailable(settlementUnavailable),
    }),
    status: {
      operationId: "getLiteratureJob",
      summary: "Poll a literature job (free, no second payment)",
      description: "The job: its status, and once completed the answer, the references with their grading, the filtering summary and the sources searched.",
      parameters: [pathParam("jobId", "The `jobId` of the 202")],
      responses: () => ({
        "200": json("LiteratureJobResult", "The job"),
        "404": error("Unknown or expired literature job (`reason: not_found`); results are kept one hour"),
        "500": error("Internal failure"),
        "502": agentUnavailable,
      }),
    },
  },
  mcp: {
    name: "literature_search",
    title: "Literature search",
    description: (price) =>
      `Federated search of ${SEARCHED} for a question, returning references filtered for relevance (with a reason for each rejected one when includeRejected is true). Costs ${price} in USDC on Base (x402). Waits for the result; if it takes longer, returns the jobId to read with literature_status (free).`,
    waitSeconds: 55,
    status: {
      name: "literature_status",
      title: "Literature search status (free)",
      description: (words) => `Reads a literature search by the jobId literature_search returned; its status is one of ${words.join(", ")} (completed carries its references). Free.`,
      input: z.object({ jobId: z.string().min(1).max(128).describe("the jobId of the literature_search tool's answer") }).strict(),
    },
  },
  // A search asked to stay out of the agent's logs (`privacyMode`) keeps no words in the history either.
  history: { kind: "literature", sealed: false, questionOf: (body) => (body.privacyMode ? null : body.question) },
});
