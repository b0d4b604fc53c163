import { errorResponse } from "@/lib/shared/http/errors";

type RouteContext<P> = { params: Promise<P> };

/**
 * Wraps a route handler: resolves the route params and turns anything thrown into the error body
 * of section 2.1 (ApiErrors as themselves, everything else a logged 500).
 */
export function withApi<P extends Record<string, string | string[]> = Record<string, never>>(
  route: string,
  handler: (args: { request: Request; params: P }) => Promise<Response>,
) {
  return async (request: Request, context?: RouteContext<P>): Promise<Response> => {
    try {
      const params = context ? await context.params : ({} as P);
      return await handler({ request, params });
    } catch (err) {
      return errorResponse(err, { route });
    }
  };
}
