/**
 * Calls the gateway's route handlers in this process, as Next.js would: a fetch-compatible
 * function, so the official x402 client can pay through it.
 */
type Handler = (request: Request, context?: { params: Promise<Record<string, string>> }) => Promise<Response>;

const table: { pattern: RegExp; method: string; load: () => Promise<Handler>; params: string[] }[] = [
  { method: "POST", pattern: /^\/api\/chat$/, params: [], load: async () => (await import("@/app/api/chat/route")).POST as Handler },
  { method: "POST", pattern: /^\/api\/literature$/, params: [], load: async () => (await import("@/app/api/literature/route")).POST as Handler },
  {
    method: "POST",
    pattern: /^\/api\/deep-research\/start$/,
    params: [],
    load: async () => (await import("@/app/api/deep-research/start/route")).POST as Handler,
  },
  {
    method: "GET",
    pattern: /^\/api\/deep-research\/([^/]+)$/,
    params: ["conversationId"],
    load: async () => (await import("@/app/api/deep-research/[conversationId]/route")).GET as Handler,
  },
  {
    method: "GET",
    pattern: /^\/api\/chat\/status\/([^/]+)$/,
    params: ["requestId"],
    load: async () => (await import("@/app/api/chat/status/[requestId]/route")).GET as Handler,
  },
  {
    method: "GET",
    pattern: /^\/api\/literature\/jobs\/([^/]+)$/,
    params: ["jobId"],
    load: async () => (await import("@/app/api/literature/jobs/[jobId]/route")).GET as Handler,
  },
  {
    method: "POST",
    pattern: /^\/api\/chat\/encrypted$/,
    params: [],
    load: async () => (await import("@/app/api/chat/encrypted/route")).POST as Handler,
  },
  {
    method: "GET",
    pattern: /^\/api\/chat\/encrypted\/status\/([^/]+)$/,
    params: ["requestId"],
    load: async () => (await import("@/app/api/chat/encrypted/status/[requestId]/route")).GET as Handler,
  },
  {
    method: "POST",
    pattern: /^\/api\/literature\/encrypted$/,
    params: [],
    load: async () => (await import("@/app/api/literature/encrypted/route")).POST as Handler,
  },
  {
    method: "GET",
    pattern: /^\/api\/literature\/encrypted\/status\/([^/]+)$/,
    params: ["requestId"],
    load: async () => (await import("@/app/api/literature/encrypted/status/[requestId]/route")).GET as Handler,
  },
  {
    method: "POST",
    pattern: /^\/api\/deep-research\/encrypted$/,
    params: [],
    load: async () => (await import("@/app/api/deep-research/encrypted/route")).POST as Handler,
  },
  {
    method: "POST",
    pattern: /^\/api\/deep-research\/encrypted\/status\/([^/]+)$/,
    params: ["messageId"],
    load: async () => (await import("@/app/api/deep-research/encrypted/status/[messageId]/route")).POST as Handler,
  },
  { method: "GET", pattern: /^\/api\/enclave-key$/, params: [], load: async () => (await import("@/app/api/enclave-key/route")).GET as Handler },
  { method: "GET", pattern: /^\/api\/health$/, params: [], load: async () => (await import("@/app/api/health/route")).GET as Handler },
  { method: "GET", pattern: /^\/api\/cron$/, params: [], load: async () => (await import("@/app/api/cron/route")).GET as Handler },
];

export async function routeFetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  const request = new Request(input, init);
  const path = new URL(request.url).pathname;
  for (const route of table) {
    const match = route.pattern.exec(path);
    if (!match || route.method !== request.method) continue;
    const params = Object.fromEntries(route.params.map((name, i) => [name, decodeURIComponent(match[i + 1]!)]));
    return (await route.load())(request, { params: Promise.resolve(params) });
  }
  return new Response(JSON.stringify({ error: "no route in test table" }), { status: 404 });
}

export function postJson(url: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return routeFetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}
