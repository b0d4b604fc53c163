import type { Context, Env, Hono } from "hono";
import { METHOD_NAME_ALL } from "hono/router";
import { TrieRouter } from "hono/router/trie-router";
import { allowedMethods, errorResponse, unmatchedRouteError } from "@/lib/shared/http";

/**
 * The agent's not-found handler: 405 with `Allow` when the path is served under other methods,
 * else 404, both JSON. The methods come from the app's own routes (middleware aside), read when
 * first needed, once every route is registered.
 */
export function unmatchedRoute<E extends Env>(app: Hono<E>): (c: Context<E>) => Response {
  let router: TrieRouter<string> | undefined;
  const servedAt = (path: string): string[] => {
    if (!router) {
      router = new TrieRouter<string>();
      for (const route of app.routes) if (route.method !== METHOD_NAME_ALL) router.add(METHOD_NAME_ALL, route.path, route.method);
    }
    return allowedMethods(router.match(METHOD_NAME_ALL, path)[0].map(([method]) => method));
  };
  return (c) => errorResponse(unmatchedRouteError({ method: c.req.method, path: c.req.path, allowed: servedAt(c.req.path) }));
}
