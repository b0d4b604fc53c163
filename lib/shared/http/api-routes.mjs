/**
 * Every route of the gateway's API and the methods its route file exports: the one table the
 * gateway's answers to requests no route serves are read from (the proxy's 404 and 405 with
 * `Allow`, server.mjs's answer to TRACE), and that tests hold the route files and the OpenAPI
 * document to, so `Allow` cannot drift from what is served. Plain JavaScript because server.mjs,
 * which runs without a compiler, reads it too. Beside /api, the discovery documents agents look
 * for at the usual places (DISCOVERY_PATHS).
 *
 * `ownEdge`: the proxy does not run for this path (proxy.ts's matcher leaves it out) and its route
 * file answers the methods it does not serve itself, as the edge would (lib/shared/http/own-edge.ts).
 * These are the paid operations' routes (lib/shared/operations; tests/unit/api-edge.test.ts holds this table to them), whose unpaid 402 anyone may ask for as often as they like: a proxy
 * run cost more than the rest of that answer (docs/payments.md, "The unpaid path"). Only fixed
 * paths: nothing in them is left to decode.
 */
export const API_ROUTES = [
  { path: "/api/chat", methods: ["POST"], ownEdge: true },
  { path: "/api/chat/status/{requestId}", methods: ["GET"] },
  { path: "/api/chat/encrypted", methods: ["POST"], ownEdge: true },
  { path: "/api/chat/encrypted/status/{requestId}", methods: ["GET"] },
  { path: "/api/literature", methods: ["POST"], ownEdge: true },
  { path: "/api/literature/jobs/{jobId}", methods: ["GET"] },
  { path: "/api/literature/encrypted", methods: ["POST"], ownEdge: true },
  { path: "/api/literature/encrypted/status/{requestId}", methods: ["GET"] },
  { path: "/api/deep-research/start", methods: ["POST"], ownEdge: true },
  { path: "/api/deep-research/{conversationId}", methods: ["GET"] },
  { path: "/api/deep-research/encrypted", methods: ["POST"], ownEdge: true },
  { path: "/api/deep-research/encrypted/status/{messageId}", methods: ["POST"] },
  { path: "/api/history", methods: ["GET"] },
  { path: "/api/history/session", methods: ["POST", "DELETE"] },
  { path: "/api/history/{id}", methods: ["GET", "DELETE"] },
  { path: "/api/mcp", methods: ["POST"] },
  { path: "/api/enclave-key", methods: ["GET"] },
  { path: "/api/sealing", methods: ["GET"] },
  { path: "/api/health", methods: ["GET"] },
  { path: "/api/cron", methods: ["GET"] },
  { path: "/api/openapi.json", methods: ["GET"] },
  { path: "/.well-known/x402.json", methods: ["GET"] },
  { path: "/llms.txt", methods: ["GET"] },
];

/** The routes outside /api: documents for programs, not pages, so they pass the API edge too. */
export const DISCOVERY_PATHS = ["/.well-known/x402.json", "/llms.txt"];

/** Whether the API edge (JSON 404 and 405 with `Allow`, no page policy) answers for `pathname`. */
export function isApiEdgePath(pathname) {
  return pathname === "/api" || pathname.startsWith("/api/") || DISCOVERY_PATHS.includes(pathname);
}

/**
 * The methods a path serves, as `Allow` lists them: sorted, each once, with HEAD wherever GET is
 * (Next.js and Hono both answer HEAD from the GET handler).
 */
export function allowedMethods(served) {
  const methods = new Set(served);
  if (methods.has("GET")) methods.add("HEAD");
  return [...methods].sort();
}

/**
 * What a request to `pathname` may use at the gateway: its route's methods, HEAD, and OPTIONS
 * (Next.js answers CORS preflights itself); none when no route serves the path. A `{name}`
 * segment matches any one non-empty segment, and a literal segment wins over it, as in Next.js
 * (`/api/deep-research/encrypted` is not a `{conversationId}`).
 */
export function gatewayAllowedMethods(pathname) {
  const segments = pathname.split("/");
  const params = (route) => route.path.split("/").filter((p) => p.startsWith("{")).length;
  const route = API_ROUTES.filter((r) => {
    const pattern = r.path.split("/");
    return pattern.length === segments.length && pattern.every((p, i) => (p.startsWith("{") ? segments[i] !== "" : p === segments[i]));
  }).sort((a, b) => params(a) - params(b))[0];
  return route ? allowedMethods([...route.methods, "OPTIONS"]) : [];
}

/**
 * The answer to a request no route serves (both services): 405 with `Allow` when the path serves
 * other methods (RFC 9110 §15.5.6), else 404, each with the error body of section 2.1.
 */
export function unmatchedRoute({ method, path, allowed }) {
  if (allowed.length === 0) return { status: 404, body: { error: `No such route: ${method} ${path}`, reason: "not_found" }, headers: {} };
  const allow = allowed.join(", ");
  return { status: 405, body: { error: `${method} is not allowed on ${path}; use ${allow}`, reason: "method_not_allowed" }, headers: { allow } };
}
