import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { API_ROUTES } from "@/lib/shared/http/api-routes.mjs";
import { buildOpenApiDocument } from "@/lib/gateway/openapi/document";
import { startLibraryAgent, TEST_SERVICE_KEY } from "../support/agent";
import { awkwardText, bodyFrom, bogusPaymentSignature, contentType, oversizedBody, pathParam, rawBody, requestSchemas } from "../support/fuzz";
import { configureGatewayFor } from "../support/gateway";
import { chain, freshAddress } from "../support/payments";
import { gatewayFetch } from "../support/routes";

/**
 * Property-based bad input against both services: requests generated from each route's schema and
 * from every class of bad input (malformed and non-object JSON, wrong types, missing and unknown
 * fields, huge and deeply nested values, NUL, unpaired surrogates, bidirectional marks, bad
 * percent-encoding, wrong methods and content types, oversized bodies, bogus PAYMENT-SIGNATURE
 * headers). Every answer must be below 500, and every 4xx a JSON body with an `error` string.
 * Fixed seeds and counts, so a run tests the same requests on any machine, however busy.
 */
const SEED = 14_01;
const GATEWAY_RUNS = 1000;
const AGENT_RUNS = 1000;

type FuzzRequest = { method: string; path: string; headers: Record<string, string>; body?: string | Uint8Array<ArrayBuffer> };

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "HEAD"] as const;

/** Fills a route template's `{name}` or `:name` segments with arbitrary path parameters. */
const pathFrom = (template: string) => {
  const names = template.match(/\{\w+\}|:\w+/g) ?? [];
  return fc.tuple(...names.map(() => pathParam)).map((values) => values.reduce<string>((p, v) => p.replace(/\{\w+\}|:\w+/, v), template));
};

/** A request to a route: mostly its own method, with a body from its schema or a bad one. */
function requestTo(template: string, methods: readonly string[], schemaId: string | undefined, headers: fc.Arbitrary<Record<string, string>>): fc.Arbitrary<FuzzRequest> {
  const schema = schemaId ? requestSchemas[schemaId] : undefined;
  const body = fc.oneof(
    { weight: 6, arbitrary: (schema ? bodyFrom(schema) : fc.jsonValue({ maxDepth: 2 })).map((v) => JSON.stringify(v) as string | Uint8Array<ArrayBuffer>) },
    { weight: 3, arbitrary: rawBody },
    { weight: 1, arbitrary: oversizedBody },
  );
  return fc.record({
    method: fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...methods) }, { weight: 1, arbitrary: fc.constantFrom(...METHODS) }),
    path: fc.oneof({ weight: 9, arbitrary: pathFrom(template) }, { weight: 1, arbitrary: pathFrom(template).map((p) => `${p}/`) }),
    headers,
    body,
    type: contentType,
  }).map(({ method, path: p, headers: h, body: b, type }) => ({
    method,
    path: p,
    headers: { ...h, ...(type ? { "content-type": type } : {}) },
    ...(method === "GET" || method === "HEAD" ? {} : { body: b }),
  }));
}

/**
 * The answer must not be a 5xx; a 4xx must be JSON with an `error` string. One 5xx is the
 * contract's answer to a valid request: 503 `literature_unavailable` with Retry-After when none
 * of the sources a search would use can answer (this agent searches its library alone, so a
 * preprints-only search has none). Returns a description of what is wrong, or null.
 */
async function problemWith(request: FuzzRequest, response: Response): Promise<string | null> {
  const what = `${request.method} ${request.path} -> ${response.status}`;
  if (response.status === 503 && response.headers.get("retry-after")) {
    const text = await response.text();
    if ((JSON.parse(text) as { error?: unknown }).error === "literature_unavailable") return null;
    return `${what}: ${text.slice(0, 300)}`;
  }
  if (response.status >= 500) return `${what}: ${(await response.text()).slice(0, 300)}`;
  if (response.status < 400 || request.method === "HEAD") {
    await response.body?.cancel();
    return null;
  }
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return `${what}: not JSON (${response.headers.get("content-type")}): ${text.slice(0, 120)}`;
  }
  if (!response.headers.get("content-type")?.includes("application/json")) return `${what}: content-type ${response.headers.get("content-type")}`;
  if (typeof (body as { error?: unknown })?.error !== "string") return `${what}: no error string in ${text.slice(0, 120)}`;
  if (response.status === 405 && !response.headers.get("allow")) return `${what}: 405 without Allow`;
  return null;
}

/** Runs the property over `runs` requests from `arbitrary`; returns how many requests were sent. */
async function fuzz(arbitrary: fc.Arbitrary<FuzzRequest>, runs: number, send: (request: FuzzRequest) => Promise<Response>): Promise<number> {
  let sent = 0;
  await fc.assert(
    fc.asyncProperty(arbitrary, async (request) => {
      sent++;
      const problem = await problemWith(request, await send(request));
      expect(problem).toBeNull();
    }),
    { seed: SEED, numRuns: runs, endOnFailure: true },
  );
  return sent;
}

const toRequest = (origin: string, { method, path: p, headers, body }: FuzzRequest) => new Request(`${origin}${p}`, { method, headers, ...(body === undefined ? {} : { body }) });

describe("fuzzing both services with bad input", () => {
  let agent: Awaited<ReturnType<typeof startLibraryAgent>>;

  beforeAll(async () => {
    // No wait for a search to reach a source: valid bodies start real jobs, which the fuzz does not wait for.
    agent = await startLibraryAgent({
      LITERATURE_REACH_WAIT_MS: "0",
      // Premium keys offered, so their routes validate what they are sent rather than answer 503.
      SERVICE_TOKEN_ADDRESS: chain().serviceToken,
      SERVICE_TOKEN_RPC_URL: chain().rpcUrl,
    });
  });
  afterAll(async () => {
    await agent?.stop();
  });

  it(`answers ${GATEWAY_RUNS} generated requests to the gateway's routes with no 5xx and a JSON error on every 4xx`, async () => {
    const restore = await configureGatewayFor({ agentUrl: agent.url, databaseUrl: agent.database.url, rpcUrl: chain().rpcUrl, payTo: freshAddress() });
    try {
      const doc = buildOpenApiDocument({ publicUrl: "https://gateway.test", maxBodyBytes: 256 * 1024 }) as {
        paths: Record<string, Record<string, { requestBody?: { content: Record<string, { schema: { $ref: string } }> } }>>;
      };
      const schemaOf = (route: string, method: string) => doc.paths[route]?.[method.toLowerCase()]?.requestBody?.content["application/json"]?.schema.$ref.split("/").pop();
      // Mostly with a signature: without one a paid route answers 402 before it reads the body.
      const headers = fc.oneof({ weight: 1, arbitrary: fc.constant({}) }, { weight: 3, arbitrary: bogusPaymentSignature.map((signature) => ({ "payment-signature": signature })) });
      const routes = API_ROUTES.map((route) => requestTo(route.path, route.methods, schemaOf(route.path, route.methods[0]!), headers));
      const unknown = fc.record({ method: fc.constantFrom(...METHODS), path: fc.oneof(fc.constantFrom("/api", "/api/", "/api/chats", "/api/chat/x/y"), pathParam.map((p) => `/api/${p}`)) }).map(({ method, path: p }) => ({ method, path: p, headers: {} }));
      const sent = await fuzz(fc.oneof(...routes, unknown), GATEWAY_RUNS, (request) => gatewayFetch(toRequest("https://gateway.test", request)));
      expect(sent).toBe(GATEWAY_RUNS);
    } finally {
      await restore();
    }
  });

  it(`answers ${AGENT_RUNS} generated requests to the agent's routes with no 5xx and a JSON error on every 4xx`, async () => {
    const bodies: Record<string, string> = {
      "/api/chat": "UpstreamChatRequestA",
      "/api/chat/sync": "UpstreamChatRequestA",
      "/api/literature": "LiteratureQueryRequest",
      "/api/deep-research/start": "DeepResearchStartRequest",
    };
    const served = new Map<string, Set<string>>();
    for (const route of agent.app.routes) if (route.method !== "ALL") served.set(route.path, (served.get(route.path) ?? new Set()).add(route.method));
    const headers = fc.oneof(
      fc.constant({}),
      { weight: 3, arbitrary: fc.constant({ authorization: `Bearer ${TEST_SERVICE_KEY}` }) },
      fc.constantFrom("Bearer nope", "Basic x", "Bearer lra_premium_" + "a".repeat(43), "Bearer").map((authorization) => ({ authorization })),
      // Raw UTF-8 bytes in the header, as a client may send them (fetch itself refuses NUL in a header).
      awkwardText.filter((t) => !t.includes("\u0000")).map((t) => ({ authorization: `Bearer ${Buffer.from(t, "utf8").toString("latin1")}` })),
    );
    const routes = [...served].map(([route, methods]) => requestTo(route, [...methods], route.includes("/private/") && methods.has("POST") ? "EncryptedEnvelope" : bodies[route], headers));
    const sent = await fuzz(fc.oneof(...routes), AGENT_RUNS, (request) => fetch(toRequest(agent.url, request)));
    expect(sent).toBe(AGENT_RUNS);
  });
});
