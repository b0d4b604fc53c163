import { unmatchedRoute } from "@/lib/shared/http/api-routes.mjs";
import { ApiError } from "@/lib/shared/http/errors";

export { allowedMethods } from "@/lib/shared/http/api-routes.mjs";

/** The ApiError of a request no route serves: 405 with `Allow` (`allowed` not empty), else 404. */
export function unmatchedRouteError(args: { method: string; path: string; allowed: readonly string[] }): ApiError {
  const { status, body, headers } = unmatchedRoute(args);
  return new ApiError(status === 405 ? "method_not_allowed" : "not_found", body.error, { reason: body.reason, headers });
}
