import { ApiError } from "./errors";

/**
 * The methods a path serves, as an `Allow` header lists them: sorted, each once, with HEAD
 * wherever GET is (both frameworks answer HEAD from the GET handler).
 */
export function allowedMethods(served: Iterable<string>): string[] {
  const methods = new Set(served);
  if (methods.has("GET")) methods.add("HEAD");
  return [...methods].sort();
}

/**
 * The error for a request no route serves (both services): 405 with `Allow` when the path serves
 * other methods (RFC 9110 §15.5.6), else 404.
 */
export function unmatchedRouteError({ method, path, allowed }: { method: string; path: string; allowed: readonly string[] }): ApiError {
  if (allowed.length === 0) return new ApiError("not_found", `No such route: ${method} ${path}`, { reason: "not_found" });
  const allow = allowed.join(", ");
  return new ApiError("method_not_allowed", `${method} is not allowed on ${path}; use ${allow}`, { reason: "method_not_allowed", headers: { allow } });
}
