import { z } from "zod";
import { chatRequestSchema, deepResearchStartRequestSchema, literatureQueryRequestSchema } from "@/lib/contracts";
import { statusWordsOf } from "@/lib/discovery/polling";
import type { PaidOperation } from "@/lib/payments/prices";

/**
 * The MCP tools this service offers, in one table read by both MCP servers (issue 16):
 * - the remote endpoint on the gateway (`/api/mcp`), which pays each paid tool through the same
 *   ledger and settlement code as the HTTP route it names (the x402 MCP transport);
 * - the local server people run beside their assistant (`npm run mcp`), which pays the same HTTP
 *   route with the official x402 client and the user's own key.
 * A paid tool's arguments are exactly the body of its HTTP route (the same zod schema, so unknown
 * fields are refused by name the same way) and it costs that route's price; a free tool reads a
 * status route. Paid tools that start asynchronous work wait for its final status for at most
 * `waitSeconds` (the route's typical duration with a margin, well inside MCP clients' request
 * timeouts) and otherwise return the 202 with the free status tool that follows it.
 */

export type McpTool = {
  /** The tool's name (MCP: letters, digits, `_`). */
  name: string;
  title: string;
  description: string;
  /** The arguments: the HTTP route's request body, or the status route's path parameter. */
  input: z.ZodType;
} & (
  | {
      kind: "paid";
      /** The paid HTTP operation whose route, price and settlement this tool uses. */
      operation: PaidOperation["id"];
      /** Seconds the tool waits for a final status before returning the 202 and its status tool. */
      waitSeconds: number;
      /** The free tool that reads the work's status. */
      statusTool: string;
    }
  | {
      kind: "free";
      /** The status route, `{name}` filled from the argument of the same name. */
      method: "GET";
      path: string;
    }
);

const requestId = z.object({ requestId: z.string().min(1).max(128).describe("the requestId of the chat tool's answer") }).strict();
const jobId = z.object({ jobId: z.string().min(1).max(128).describe("the jobId of the literature_search tool's answer") }).strict();
const conversationId = z
  .object({ conversationId: z.uuid().describe("the conversationId of the deep_research_start tool's answer") })
  .strict();

export const MCP_TOOLS: readonly McpTool[] = [
  {
    name: "chat",
    title: "Cited chat answer ($0.02)",
    description:
      "Answers an aging, longevity or biomedical question with citations from the scientific literature: every [N] marker resolves to a verified reference, with a verdict (supports, contradicts, mixed, insufficient) and the evidence graded by strength. Costs $0.02 in USDC on Base (x402). Send conversationId from an earlier answer to ask a follow-up in the same conversation (only the payer who started it can). Waits for the answer; if it takes longer, returns the requestId to read with chat_status (free).",
    input: chatRequestSchema,
    kind: "paid",
    operation: "chat",
    waitSeconds: 55,
    statusTool: "chat_status",
  },
  {
    name: "chat_status",
    title: "Chat answer status (free)",
    description: `Reads a chat answer by the requestId the chat tool returned; its status is one of ${statusWordsOf("chat").join(", ")} (completed carries the answer and its references). Free.`,
    input: requestId,
    kind: "free",
    method: "GET",
    path: "/api/chat/status/{requestId}",
  },
  {
    name: "literature_search",
    title: "Literature search ($0.03)",
    description:
      "Federated search of PubMed, Europe PMC, Crossref, OpenAlex, bioRxiv/medRxiv and ClinicalTrials.gov (and the service's local library) for a question, returning references filtered for relevance (with a reason for each rejected one when includeRejected is true). Costs $0.03 in USDC on Base (x402). Waits for the result; if it takes longer, returns the jobId to read with literature_status (free).",
    input: literatureQueryRequestSchema,
    kind: "paid",
    operation: "literature",
    waitSeconds: 55,
    statusTool: "literature_status",
  },
  {
    name: "literature_status",
    title: "Literature search status (free)",
    description: `Reads a literature search by the jobId literature_search returned; its status is one of ${statusWordsOf("literature").join(", ")} (completed carries its references). Free.`,
    input: jobId,
    kind: "free",
    method: "GET",
    path: "/api/literature/jobs/{jobId}",
  },
  {
    name: "deep_research_start",
    title: "Start deep research ($1.00)",
    description:
      "Starts a deep-research turn: several iterations of literature search across evidence axes (human trials, observational cohorts, animal models, mechanism, safety, dose), with findings, hypotheses, open questions and a cited report. Takes minutes, so it returns at once with a conversationId to read with deep_research_status (free). Costs $1.00 in USDC on Base (x402), settled when the turn is delivered. Send conversationId to continue an earlier conversation this wallet started.",
    input: deepResearchStartRequestSchema,
    kind: "paid",
    operation: "deepResearch",
    waitSeconds: 0,
    statusTool: "deep_research_status",
  },
  {
    name: "deep_research_status",
    title: "Deep research status (free)",
    description:
      `Reads a deep-research conversation by the conversationId deep_research_start returned: each turn's status (one of ${statusWordsOf("deepResearch").join(", ")}), its report, world state and settlement once delivered. Poll about every 10 seconds. Free.`,
    input: conversationId,
    kind: "free",
    method: "GET",
    path: "/api/deep-research/{conversationId}",
  },
];

/** The tool named `name`, or undefined. */
export function getMcpTool(name: string): McpTool | undefined {
  return MCP_TOOLS.find((t) => t.name === name);
}

/** The status route of a free tool with its path parameters filled in (each URI-encoded). */
export function statusPath(tool: Extract<McpTool, { kind: "free" }>, args: Record<string, string>): string {
  return tool.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(args[name] ?? ""));
}
