import type { z } from "zod";
import type { HistoryKind } from "@/lib/shared/contracts/history";

type Json = Record<string, unknown>;

/** What an operation's OpenAPI responses are written from: the deployment's public origin and the operation's example 202. */
type OpenApiContext = { publicUrl: string; accepted: Json };

/**
 * One paid operation, whole: its route and price, what it takes and answers, how its work is
 * followed, how the OpenAPI document describes it and its status route, and its MCP tools. The
 * 402 and its bazaar extension, /.well-known/x402.json, /llms.txt, the OpenAPI document, both MCP
 * servers, the health report and the page's prices are all derived from these (lib/shared/operations).
 */
export type PaidOperationDefinition<Id extends string = string, Body extends z.ZodType = z.ZodType> = {
  /** The OpenAPI operationId, and the ledger's name for the operation. */
  id: Id;
  method: "POST";
  path: string;
  /** What it does, as a title: "Start chat". */
  summary: string;
  /** The price in the payment token's base units (6 decimals: 1000000 = $1.00); every shown price is rendered from it. */
  amount: string;
  /** x402 `maxTimeoutSeconds`: how long the authorization asked for stays valid. */
  maxTimeoutSeconds: number;
  /**
   * The shortest remaining validity accepted: chat and literature settle within seconds; deep
   * research settles when its run has finished, so it needs the run budget plus a margin.
   */
  minRemainingSeconds: number;
  /** When the payment is settled: before the 202 (`immediate`) or when the work finished (`deferred`). */
  settlement: "immediate" | "deferred";
  /** A larger body limit than MAX_BODY_BYTES (sealed chat envelopes carry attachments). */
  maxBodyBytes?: number;
  /** The request body, validated by the route; its example is the bazaar's and the OpenAPI document's. */
  body: Body;
  bodyExample: Json;
  /** The 202 body and an example of it on the deployment at `publicUrl`. */
  accepted: z.ZodType;
  acceptedExample: (publicUrl: string) => Json;
  polling: Polling;
  openapi: OpenApiDescription;
  /** The MCP tools of the operation (both MCP servers), when it has them: the paid tool and its free status tool. */
  mcp?: McpTools;
  /**
   * How the payer's history keeps a request (lib/gateway/history, docs/payments.md "Your results, from any
   * client"): its kind, and its question in the payer's words (null to keep no words); a sealed
   * request's words only the enclave and its asker read.
   */
  history: { kind: HistoryKind; sealed: true } | { kind: HistoryKind; sealed: false; questionOf(body: z.output<Body>): string | null };
};

/**
 * How the work is followed after the 202: a free status route polled until a final status
 * (lib/shared/discovery/polling.ts turns this into the bazaar's `asyncPolling`).
 */
type Polling = {
  /** The status route's 200 body. */
  status: z.ZodType;
  method: "GET" | "POST";
  /** The status route as lib/shared/http/api-routes.mjs writes it, `{name}` filled from the 202's field `name`. */
  path: string;
  /** The 202's field that already holds the status URL. */
  pollUrlField?: string;
  /** What a POST poll sends. */
  pollBody?: string;
  /** The query that makes one poll wait for the answer, with its largest value. */
  longPollQuery?: string;
  /** The start may answer 200 with the final result instead of 202. */
  synchronous?: true;
  intervalSeconds: number;
  typicalSeconds: number;
  maxSeconds: number;
};

/** The operation's and its status route's entries in the OpenAPI document (lib/gateway/openapi/document.ts adds what every paid route shares). */
type OpenApiDescription = {
  tags: string[];
  /** The component name of the body's schema. */
  requestSchema: string;
  /** The component name of what a sealed envelope holds (encrypted routes). */
  sealedPlaintext?: string;
  description: string;
  /** This operation's own answers; the document adds the 400, 402, 413, 429, 5xx every paid route gives. */
  responses: (context: OpenApiContext) => Json;
  status: {
    operationId: string;
    summary: string;
    description: string;
    /** The status route answers sealed results (its entry links the sealing page). */
    sealed?: true;
    parameters: Json[];
    /** A POST poll's body, for a deployment reading at most `maxBodyBytes`. */
    requestBody?: (maxBodyBytes: number) => Json;
    responses: (maxBodyBytes: number) => Json;
  };
};

type McpTools = {
  /** The paid tool's name (MCP: letters, digits, `_`). */
  name: string;
  /** Its title without the price, which is rendered from `amount`. */
  title: string;
  /** Its description; `price` is the rendered price. */
  description: (price: string) => string;
  /** Seconds the tool waits for a final status before returning the 202 and its status tool. */
  waitSeconds: number;
  status: {
    name: string;
    title: string;
    /** `statusWords`: the route's status words, read from its schemas. */
    description: (statusWords: string[]) => string;
    /** The status route's path parameter, as the tool's argument. */
    input: z.ZodType<Record<string, string>>;
  };
};
