import { Server } from "node:http";
import { serve } from "@hono/node-server";
import type { Hono } from "hono";
import type { AgentEnv } from "./context";

/**
 * How long an idle keep-alive connection stays open. Node's default (5 s) is shorter than a busy
 * client notices: undici (fetch, and the gateway's client) drops an idle socket one second before
 * the server's announced timeout, by its own timers, so on a loaded machine it can send a request
 * on a socket the server is closing at that moment, and a POST on it fails with a network error
 * (the fuzz suite saw "fetch failed" on its first request after the gateway's own calls). A
 * timeout well above every idle gap between the gateway's calls makes that race rare; load
 * balancers use the same margin (60 s and more).
 */
const KEEP_ALIVE_TIMEOUT_MS = 65_000;

/** Serves the agent's app over HTTP with the keep-alive margin above. */
export function listen(app: Hono<AgentEnv>, { port, hostname }: { port: number; hostname: string }): ReturnType<typeof serve> {
  const server = serve({ fetch: app.fetch, port, hostname });
  // serve() makes an HTTP/1 server unless given another createServer.
  if (!(server instanceof Server)) throw new Error("the agent's server is not an HTTP/1 server");
  server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  // Node requires the headers timeout to exceed the keep-alive timeout.
  server.headersTimeout = KEEP_ALIVE_TIMEOUT_MS + 1_000;
  return server;
}
