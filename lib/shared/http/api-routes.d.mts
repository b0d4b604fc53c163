/** Types of lib/shared/http/api-routes.mjs (plain JavaScript, read by server.mjs too). */
export type ApiMethod = "GET" | "POST";
export declare const API_ROUTES: readonly { path: string; methods: readonly ApiMethod[]; ownEdge?: true }[];
export declare const DISCOVERY_PATHS: readonly string[];
export declare function isApiEdgePath(pathname: string): boolean;
export declare function allowedMethods(served: Iterable<string>): string[];
export declare function gatewayAllowedMethods(pathname: string): string[];
export declare function unmatchedRoute(args: { method: string; path: string; allowed: readonly string[] }): {
  status: 404 | 405;
  body: { error: string; reason: "not_found" | "method_not_allowed" };
  headers: Record<string, string>;
};
