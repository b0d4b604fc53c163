import { describe, expect, it } from "vitest";
import { deepResearchTurnSchema } from "@/lib/shared/contracts";
import { describePolling, FINAL_STATUSES, pollingHeaders, retryAfterSeconds } from "@/lib/shared/discovery/polling";
import { buildOpenApiDocument } from "@/lib/gateway/openapi/document";
import { pollingSentence } from "@/lib/gateway/openapi/polling";
import { getPaidOperation, PAID_OPERATIONS, type PaidOperation } from "@/lib/shared/operations";

type Operation = Record<string, any>;
type Doc = { paths: Record<string, Record<string, Operation>>; components: { schemas: Record<string, any> } };

const PUBLIC_URL = "https://research.example";
const doc = buildOpenApiDocument({ publicUrl: PUBLIC_URL, maxBodyBytes: 256 * 1024 }) as unknown as Doc;
const operations = PAID_OPERATIONS.map((op) => op.id);

/** The contract's status words of each status route, written out, so a change to the schemas that moves them is seen here. */
const CONTRACT_WORDS: Record<PaidOperation["id"], { pending: string[]; final: string[] }> = {
  chat: { pending: ["queued", "active"], final: ["completed", "failed"] },
  chatEncrypted: { pending: ["queued", "active"], final: ["completed", "failed"] },
  literature: { pending: ["queued", "running"], final: ["completed", "failed"] },
  literatureEncrypted: { pending: ["pending", "active"], final: ["completed", "failed"] },
  deepResearch: { pending: ["queued", "running", "cancelling"], final: ["completed", "failed", "cancelled", "timeout"] },
  deepResearchEncrypted: { pending: ["queued", "running"], final: ["completed", "failed"] },
};

describe("polling guidance: one table, read by the status routes and the OpenAPI document", () => {
  it.each(operations)("%s: each status word of the contract is pending or final, as the route's schemas say", (operation) => {
    const polling = describePolling({ operation, publicUrl: PUBLIC_URL });
    expect(new Set(polling.pendingStatuses)).toEqual(new Set(CONTRACT_WORDS[operation].pending));
    expect(new Set(polling.finalStatuses)).toEqual(new Set(CONTRACT_WORDS[operation].final));
  });

  it.each(operations)("%s: the paid operation and its status route carry the table's guidance, in x-polling and in words", (operation) => {
    const route = getPaidOperation(operation).polling;
    const paid = getPaidOperation(operation);
    const expected = describePolling({ operation, publicUrl: PUBLIC_URL });
    const start = doc.paths[paid.path]?.[paid.method.toLowerCase()];
    const status = doc.paths[route.path]?.[route.method.toLowerCase()];
    for (const op of [start, status]) {
      expect(op?.["x-polling"]).toEqual(expected);
      expect(op?.description).toContain(pollingSentence(expected, `${route.method} ${route.path}`));
    }
    expect(status?.description).toContain(`final: ${expected.finalStatuses.join(", ")}`);
    expect(status?.description).toContain(`every ${route.intervalSeconds} s`);
  });

  it.each(operations)("%s: the status route's 200 documents Retry-After with the table's interval", (operation) => {
    const route = getPaidOperation(operation).polling;
    const ok = doc.paths[route.path]?.[route.method.toLowerCase()]?.responses?.["200"];
    expect(ok?.headers?.["Retry-After"]).toMatchObject({ schema: { type: "integer", minimum: 1, const: route.intervalSeconds } });
    expect(ok?.headers?.["Retry-After"]?.description).toMatch(/not final/);
  });

  it("documents deep research's receipt: PAYMENT-RESPONSE on its status routes' 200, a turn's settlement as this service's addition", () => {
    for (const path of ["/api/deep-research/{conversationId}", "/api/deep-research/encrypted/status/{messageId}"]) {
      const ok = Object.values(doc.paths[path]!)[0]?.responses?.["200"];
      expect(ok?.headers?.["PAYMENT-RESPONSE"]?.description, path).toMatch(/first poll .* once per payment/);
    }
    for (const path of ["/api/chat/status/{requestId}", "/api/literature/jobs/{jobId}"]) {
      expect(doc.paths[path]!.get!.responses["200"].headers["PAYMENT-RESPONSE"], path).toBeUndefined();
    }
    const turn = doc.components.schemas.DeepResearchTurn;
    expect(turn.properties.settlement.description).toMatch(/the settled payment of this turn/);
    expect(turn.required).not.toContain("settlement");
    expect(doc.components.schemas.DeepResearchSettlement).toMatchObject({ required: ["transaction", "network", "payer"] });
    expect(deepResearchTurnSchema.safeParse({ messageId: "m", objective: "o", citations: [], status: "completed", isFinal: true }).success).toBe(true);
  });

  it("puts Retry-After on pending words only: the interval, a whole number of seconds of at least 1", () => {
    for (const operation of operations) {
      const { pendingStatuses, finalStatuses, intervalSeconds } = describePolling({ operation, publicUrl: PUBLIC_URL });
      expect(Number.isInteger(retryAfterSeconds(operation)) && retryAfterSeconds(operation) >= 1).toBe(true);
      expect(retryAfterSeconds(operation)).toBe(intervalSeconds);
      for (const status of pendingStatuses) expect(pollingHeaders({ operation, status })).toEqual({ "retry-after": String(intervalSeconds) });
      for (const status of finalStatuses) expect(pollingHeaders({ operation, status })).toEqual({});
      for (const status of [undefined, null, "not_found", "unheard-of"]) expect(pollingHeaders({ operation, status })).toEqual({});
    }
    expect([...FINAL_STATUSES]).toEqual(["completed", "failed", "cancelled", "timeout"]);
  });
});
