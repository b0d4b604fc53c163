import { CLIENT_ADDRESS_HEADERS } from "@/lib/shared/http/client-address";

/**
 * The gateway's own route handlers, called in this process by the MCP endpoint: a paid tool is
 * its paid HTTP route, with the same ledger, checks and settlement (never a second payment
 * implementation); a free tool is its status route. Each call is a standard Request to the
 * route's public URL, so the handler cannot tell it from one that came over HTTP.
 */

/**
 * A Next.js route handler, as `app/api/<route>/route.ts` exports it. Declared as a method so a
 * handler typed for its own params (`{ requestId: string }`) fits: the path template names them.
 */
type RouteHandler = { handle(request: Request, context?: { params: Promise<Record<string, string>> }): Promise<Response> }["handle"];

/** The handlers the endpoint calls, by `"<METHOD> <path template>"` as lib/shared/http/api-routes.mjs writes the path. */
export type GatewayRoutes = Readonly<Record<string, RouteHandler>>;

/** What a route answered, read once. */
export type RouteAnswer = { status: number; body: unknown; headers: Headers };

/**
 * Calls the route `method path` (a template such as `/api/chat/status/{requestId}`, filled from
 * `params`), with the client-address headers of `from` carried over so the route's limits per
 * client apply to the MCP client as to any other. The MCP request's abort signal is not passed
 * on: a client that hangs up does not interrupt a payment half-way (the ledger answers its retry).
 * Throws when no handler is registered (a
 * programming error: the catalog names a route the table lacks).
 */
export async function callRoute({
  routes,
  publicUrl,
  method,
  path,
  params = {},
  body,
  headers = {},
  from,
}: {
  routes: GatewayRoutes;
  publicUrl: string;
  method: "GET" | "POST";
  path: string;
  params?: Record<string, string>;
  body?: unknown;
  headers?: Record<string, string>;
  from: Record<string, string | string[] | undefined>;
}): Promise<RouteAnswer> {
  const handler = routes[`${method} ${path}`];
  if (!handler) throw new Error(`no route handler for ${method} ${path}`);
  const url = publicUrl + path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(params[name] ?? ""));
  const carried: Record<string, string> = {};
  for (const name of CLIENT_ADDRESS_HEADERS) {
    const value = from[name];
    if (value !== undefined) carried[name] = Array.isArray(value) ? value.join(", ") : value;
  }
  const request = new Request(url, {
    method,
    headers: { ...carried, ...(body === undefined ? {} : { "content-type": "application/json" }), ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const response = await handler(request, { params: Promise.resolve(params) });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON: kept as text
  }
  return { status: response.status, body: parsed, headers: response.headers };
}
