import type { z } from "zod";
import { statusWordsOf } from "@/lib/shared/discovery/polling";
import { getPaidOperation, type PaidOperation } from "@/lib/shared/operations";

/**
 * The MCP tools this service offers, read from the operations' definitions (`mcp`, lib/shared/operations)
 * by both MCP servers:
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
} & (
  | {
      kind: "paid";
      /** The arguments: the HTTP route's request body. */
      input: z.ZodType;
      /** The paid HTTP operation whose route, price and settlement this tool uses. */
      operation: PaidOperation["id"];
      /** Seconds the tool waits for a final status before returning the 202 and its status tool. */
      waitSeconds: number;
      /** The free tool that reads the work's status. */
      statusTool: string;
    }
  | {
      kind: "free";
      /** The arguments: the status route's path parameters. */
      input: z.ZodType<Record<string, string>>;
      /** The status route, `{name}` filled from the argument of the same name. */
      method: "GET";
      path: string;
    }
);

/** The paid tool of each operation that has one, then its free status tool, in the registry's order (chat, literature, deep research). */
const ORDER: readonly PaidOperation["id"][] = ["chat", "literature", "deepResearch"];

export const MCP_TOOLS: readonly McpTool[] = ORDER.map(getPaidOperation).flatMap((op): McpTool[] => {
  if (!op.mcp) return [];
  const { mcp } = op;
  return [
    {
      name: mcp.name,
      title: `${mcp.title} (${op.price})`,
      description: mcp.description(op.price),
      input: op.body,
      kind: "paid",
      operation: op.id,
      waitSeconds: mcp.waitSeconds,
      statusTool: mcp.status.name,
    },
    {
      name: mcp.status.name,
      title: mcp.status.title,
      description: mcp.status.description(statusWordsOf(op.id)),
      input: mcp.status.input,
      kind: "free",
      method: "GET",
      path: op.polling.path,
    },
  ];
});

/** The status route of a free tool with its path parameters filled in (each URI-encoded). */
export function statusPath(tool: Extract<McpTool, { kind: "free" }>, args: Record<string, string>): string {
  return tool.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(args[name] ?? ""));
}
