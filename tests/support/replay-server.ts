import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";

/**
 * A local HTTP server that replays recorded API responses, so source clients run against real
 * bodies without touching the internet. Routes match on method, path and query parameters, first
 * match wins; a route can be limited to its first N uses (to inject one 429 or 500, then recover),
 * switched on and off (`when`), delayed (a fixed time, or a latency profile per request), or made
 * to drop the connection. Every request received is recorded with its arrival time.
 */

export type ReplayRoute = {
  method?: string;
  /** Matched against the decoded path, without the query string. */
  path: string | RegExp;
  /** Every listed parameter must be present and match. */
  query?: Record<string, string | RegExp>;
  status?: number;
  /** A recorded file to answer with (its extension picks the content type). */
  file?: string;
  /** Or a body: strings and buffers as they are, anything else as JSON. */
  body?: unknown;
  headers?: Record<string, string>;
  /** A fixed delay, or one drawn per request (a latency profile with jitter: see latencyProfile). */
  delayMs?: number | (() => number);
  /** Matches only while this returns true (a source that goes down and comes back). */
  when?: () => boolean;
  /** Destroy the socket instead of answering (a network error for the client). */
  dropConnection?: boolean;
  /** Serve this route at most this many times, then let later routes match. */
  times?: number;
};

type ReplayRequest = {
  method: string;
  /** Decoded path without the query string. */
  path: string;
  query: URLSearchParams;
  headers: http.IncomingHttpHeaders;
  /** performance.now() at arrival. */
  receivedAt: number;
  /** Index of the route that answered, or -1 when none matched (answered 404). */
  routeIndex: number;
};

export type ReplayServer = {
  url: string;
  requests: ReplayRequest[];
  /** Requests whose path matches. */
  requestsTo(pathPattern: string | RegExp): ReplayRequest[];
  close(): Promise<void>;
};

const CONTENT_TYPES: Record<string, string> = { ".json": "application/json", ".xml": "text/xml; charset=UTF-8", ".txt": "text/plain" };

export async function startReplayServer(routes: ReplayRoute[]): Promise<ReplayServer> {
  const requests: ReplayRequest[] = [];
  const uses = routes.map(() => 0);
  const timers = new Set<NodeJS.Timeout>();
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://replay.local");
    const pathname = safeDecode(url.pathname);
    const method = req.method ?? "GET";
    const routeIndex = routes.findIndex((route, index) => {
      if (route.times !== undefined && (uses[index] ?? 0) >= route.times) return false;
      if (route.when && !route.when()) return false;
      if ((route.method ?? "GET") !== method) return false;
      if (!matches(route.path, pathname)) return false;
      return Object.entries(route.query ?? {}).every(([key, want]) => {
        const got = url.searchParams.get(key);
        return got !== null && matches(want, got);
      });
    });
    requests.push({ method, path: pathname, query: url.searchParams, headers: req.headers, receivedAt: performance.now(), routeIndex });
    const route = routes[routeIndex];
    if (!route) {
      res.writeHead(404, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: `no replay route for ${method} ${pathname}` }));
      return;
    }
    uses[routeIndex] = (uses[routeIndex] ?? 0) + 1;
    const answer = () => {
      if (res.destroyed) return;
      if (route.dropConnection) {
        req.socket.destroy();
        return;
      }
      const { body, contentType } = bodyOf(route);
      res.writeHead(route.status ?? 200, { "content-type": contentType, ...route.headers });
      res.end(body);
    };
    const delay = typeof route.delayMs === "function" ? route.delayMs() : route.delayMs;
    if (delay) {
      const timer = setTimeout(() => {
        timers.delete(timer);
        answer();
      }, delay);
      timers.add(timer);
    } else {
      answer();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    requestsTo: (pattern) => requests.filter((r) => matches(pattern, r.path)),
    close: () =>
      new Promise((resolve) => {
        for (const timer of timers) clearTimeout(timer);
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function bodyOf(route: ReplayRoute): { body: string | Buffer; contentType: string } {
  if (route.file) {
    return { body: fs.readFileSync(route.file), contentType: CONTENT_TYPES[path.extname(route.file)] ?? "application/octet-stream" };
  }
  if (route.body === undefined) return { body: "", contentType: "text/plain" };
  if (typeof route.body === "string" || Buffer.isBuffer(route.body)) return { body: route.body, contentType: "application/json" };
  return { body: JSON.stringify(route.body), contentType: "application/json" };
}

function matches(pattern: string | RegExp, value: string): boolean {
  return typeof pattern === "string" ? pattern === value : pattern.test(value);
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/**
 * A latency drawn around `meanMs`, uniformly within ±`jitter` of it (0.25: ±25%): the delay of a
 * recorded-like source in the chat-latency benchmark (scripts/bench/chat-latency.ts). `random` is
 * injectable so a profile can be replayed exactly.
 */
export function latencyProfile(meanMs: number, { jitter = 0.25, random = Math.random }: { jitter?: number; random?: () => number } = {}): () => number {
  return () => Math.max(0, Math.round(meanMs * (1 + jitter * (2 * random() - 1))));
}
