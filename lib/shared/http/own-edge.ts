import { API_ROUTES, allowedMethods } from "@/lib/shared/http/api-routes.mjs";
import { unmatchedRouteError } from "@/lib/shared/http/unmatched";

type Handler = (request: Request) => Promise<Response>;

/**
 * The handlers of a POST route the proxy does not run for (`ownEdge` in lib/shared/http/api-routes.mjs):
 * every other method Next.js dispatches to a route file is answered as the API edge answers it
 * (405 `method_not_allowed` with `Allow`), and OPTIONS as Next.js would, 204 with `Allow`, which
 * it could no longer work out itself once the route exports these. Spread into the route file:
 * `export const { GET, HEAD, PUT, PATCH, DELETE, OPTIONS } = ownEdge("/api/chat");`
 */
export function ownEdge(path: string): Record<"GET" | "HEAD" | "PUT" | "PATCH" | "DELETE" | "OPTIONS", Handler> {
  const route = API_ROUTES.find((r) => r.path === path);
  if (!route?.ownEdge || route.methods.join() !== "POST") throw new Error(`${path} is not a POST route with its own edge in lib/shared/http/api-routes.mjs`);
  const allow = allowedMethods([...route.methods, "OPTIONS"]);
  const refuse: Handler = async (request) => unmatchedRouteError({ method: request.method, path, allowed: allow }).toResponse();
  const options: Handler = async () => new Response(null, { status: 204, headers: { allow: allow.join(", ") } });
  return { GET: refuse, HEAD: refuse, PUT: refuse, PATCH: refuse, DELETE: refuse, OPTIONS: options };
}
