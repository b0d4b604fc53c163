import { unstorableTextProblem } from "@/lib/shared/contracts/storable-text";
import { gatewayAllowedMethods } from "@/lib/shared/http/api-routes.mjs";
import { ApiError } from "@/lib/shared/http/errors";
import { unmatchedRouteError } from "@/lib/shared/http/unmatched";

/**
 * The gateway's API edge, which the proxy runs before any route: a path that does not decode
 * (bad percent-encoding, bytes that are not UTF-8) or decodes to text PostgreSQL cannot store is
 * 400, where Next.js answered 500 text/plain before any handler; a path no route serves is 404,
 * and a method its route does not export 405 with `Allow`, where Next.js answered an empty 405.
 * Returns null when a route serves the request.
 */
export function refuseUnservedApiRequest(request: Request): Response | null {
  const { pathname } = new URL(request.url);
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return new ApiError("bad_request", "The request path is not valid percent-encoded UTF-8", { reason: "invalid_path" }).toResponse();
  }
  const problem = unstorableTextProblem(decoded);
  if (problem) return new ApiError("bad_request", `The request path ${problem}`, { reason: "invalid_path" }).toResponse();
  const allowed = gatewayAllowedMethods(pathname);
  if (allowed.includes(request.method)) return null;
  return unmatchedRouteError({ method: request.method, path: pathname, allowed }).toResponse();
}
