/**
 * Calls the gateway's route handlers in this process, as Next.js would: a fetch-compatible
 * function, so the official x402 client can pay through it.
 */
import type http from "node:http";
import path from "node:path";
import { refuseUnservedApiRequest } from "@/lib/shared/http/api-edge";
import { API_ROUTES } from "@/lib/shared/http/api-routes.mjs";

type Handler = (request: Request, context?: { params: Promise<Record<string, string>> }) => Promise<Response>;

const appDir = path.resolve(import.meta.dirname, "../../app");

/** The gateway's route table (lib/shared/http/api-routes.mjs) as patterns, literal routes before parameterised ones as in Next.js. */
const table = API_ROUTES.map((route) => ({
  pattern: new RegExp(`^${route.path.replace(/\./g, "\\.").replace(/\{\w+\}/g, "([^/]+)")}$`),
  params: [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!),
  methods: route.methods as readonly string[],
  file: path.join(appDir, route.path.replace(/\{(\w+)\}/g, "[$1]"), "route.ts"),
})).sort((a, b) => a.params.length - b.params.length);

export async function routeFetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  const request = new Request(input, init);
  const path = new URL(request.url).pathname;
  for (const route of table) {
    const match = route.pattern.exec(path);
    if (!match || !route.methods.includes(request.method)) continue;
    const params = Object.fromEntries(route.params.map((name, i) => [name, decodeURIComponent(match[i + 1]!)]));
    const handler = ((await import(route.file)) as Record<string, Handler>)[request.method]!;
    return handler(request, { params: Promise.resolve(params) });
  }
  return new Response(JSON.stringify({ error: "no route in test table" }), { status: 404 });
}

/**
 * The gateway as Next.js runs it, for requests a route handler alone would not see: the proxy's
 * API edge first where the proxy runs (every API path but the `ownEdge` routes': proxy.ts's
 * matcher, held to the table by tests/unit/api-edge.test.ts), then what
 * Next.js itself answers when nothing stops a request before it (measured on `next start`): 500
 * text/plain for a path that does not decode, a 404 page for a path no route serves; then the
 * route file's export for the method: OPTIONS answered 204 and HEAD from GET without its body
 * when the file does not export them, an empty 405 for any other method it does not export.
 */
export async function gatewayFetch(request: Request, { edge = refuseUnservedApiRequest } = {}): Promise<Response> {
  const path = new URL(request.url).pathname;
  if (!API_ROUTES.some((route) => route.ownEdge && route.path === path)) {
    const refused = edge(request);
    if (refused) return refused;
  }
  try {
    decodeURIComponent(path);
  } catch {
    return new Response("Internal Server Error", { status: 500, headers: { "content-type": "text/plain" } });
  }
  const match = table.map((route) => ({ route, match: route.pattern.exec(path) })).find((m) => m.match);
  if (!match) return new Response("<!DOCTYPE html><title>404</title>", { status: 404, headers: { "content-type": "text/html; charset=utf-8" } });
  const { route } = match;
  const exported = (await import(route.file)) as Record<string, Handler | undefined>;
  const params = Object.fromEntries(route.params.map((name, i) => [name, decodeURIComponent(match.match![i + 1]!)]));
  const context = { params: Promise.resolve(params) };
  const own = exported[request.method];
  if (own) {
    const response = await own(request, context);
    if (request.method !== "HEAD") return response;
    await response.body?.cancel();
    return new Response(null, { status: response.status, headers: response.headers });
  }
  if (request.method === "OPTIONS") return new Response(null, { status: 204, headers: { allow: [...route.methods, "OPTIONS"].join(", ") } });
  if (request.method === "HEAD" && exported.GET) {
    const response = await exported.GET(new Request(request, { method: "GET" }), context);
    await response.body?.cancel();
    return new Response(null, { status: response.status, headers: response.headers });
  }
  return new Response(null, { status: 405 });
}

export function postJson(url: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return routeFetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

/**
 * A node:http listener that hands each request to the route handlers (routeFetch) at `origin()`
 * and writes their answer back: the gateway behind a real socket, for another process to call.
 */
export function relayToRoutes(origin: () => string, { before }: { before?: (req: http.IncomingMessage) => void } = {}): http.RequestListener {
  return (req, res) => {
    before?.(req);
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", async () => {
      const headers = new Headers();
      for (const [name, value] of Object.entries(req.headers)) if (typeof value === "string") headers.set(name, value);
      const body = chunks.length > 0 ? Buffer.concat(chunks) : undefined;
      const response = await routeFetch(`${origin()}${req.url}`, { method: req.method, headers, ...(body ? { body } : {}) });
      res.writeHead(response.status, Object.fromEntries(response.headers));
      res.end(Buffer.from(await response.arrayBuffer()));
    });
  };
}
