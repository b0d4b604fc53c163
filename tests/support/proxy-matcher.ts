import { createRequire } from "node:module";
import { config } from "@/proxy";

type Matcher = { regexp: string; has?: unknown[]; missing?: unknown[] };
const require = createRequire(import.meta.url);
// Next.js's own compilation of a proxy matcher, the one its build writes to the functions manifest.
const { getMiddlewareMatchers } = require("next/dist/build/analysis/get-page-static-info.js") as {
  getMiddlewareMatchers: (matcher: unknown, nextConfig: Record<string, unknown>) => Matcher[];
};
const { getMiddlewareRouteMatcher } = require("next/dist/shared/lib/router/utils/middleware-route-matcher.js") as {
  getMiddlewareRouteMatcher: (matchers: Matcher[]) => (pathname: string, request: { headers: Record<string, string> }, query: Record<string, string>) => boolean;
};

const matches = getMiddlewareRouteMatcher(getMiddlewareMatchers(config.matcher, {}));

/** Whether Next.js runs the proxy (proxy.ts) for a request to `pathname` with these headers. */
export function proxyRunsFor(pathname: string, headers: Record<string, string> = {}): boolean {
  return matches(pathname, { headers }, {});
}
