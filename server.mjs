/**
 * `npm start`: the gateway's production server. It is Next.js's own request handler behind a
 * plain Node HTTP server whose only job is to append the socket's address to X-Forwarded-For, as
 * a reverse proxy would: route handlers cannot see the socket, and `next start` keeps whatever
 * X-Forwarded-For a client sent, so a client could otherwise pick its own address and escape the
 * invalid-payment limit. With TRUSTED_PROXY unset, the gateway trusts exactly this last hop
 * (lib/shared/http/client-address.ts). PORT (3000) and HOST (0.0.0.0) say where it listens (not
 * HOSTNAME: shells and containers set that to the machine's name).
 */
import http from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";
import next from "next";
import { gatewayAllowedMethods, isApiEdgePath, unmatchedRoute } from "./lib/shared/http/api-routes.mjs";

/** Appends the socket's address to X-Forwarded-For (the hop the gateway trusts). */
export function appendPeerAddress(req) {
  const peer = req.socket.remoteAddress;
  if (!peer) return;
  const existing = req.headers["x-forwarded-for"];
  const claimed = Array.isArray(existing) ? existing.join(", ") : existing;
  req.headers["x-forwarded-for"] = claimed ? `${claimed}, ${peer}` : peer;
}

/** The methods Next.js hands to a route file's exports; it answers any other itself. */
const ROUTE_METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

/**
 * Answers the methods no route file can export: TRACE and TRACK on any path, which Next.js cannot
 * represent (fetch's Request refuses them) and answered with a plain-text 500 before any route or
 * the proxy ran; and any other (PROPFIND, PURGE…) on an API path, which the paid routes, having no
 * proxy run (lib/shared/http/own-edge.ts), would otherwise answer with Next.js's empty 405. No route serves
 * them: 405 with the methods the path serves (GET and HEAD for pages), or 404 for an API path no
 * route serves, as the proxy answers other methods. Returns whether it answered.
 */
export function answerUnrepresentableMethod(req, res) {
  const pathname = (req.url ?? "/").split("?")[0];
  const api = isApiEdgePath(pathname);
  const unrepresentable = req.method === "TRACE" || req.method === "TRACK";
  if (!unrepresentable && (!api || ROUTE_METHODS.has(req.method))) return false;
  const { status, body, headers } = unmatchedRoute({ method: req.method, path: pathname, allowed: api ? gatewayAllowedMethods(pathname) : ["GET", "HEAD"] });
  res.writeHead(status, { ...headers, "content-type": "application/json; charset=utf-8", "cache-control": "no-store" });
  res.end(JSON.stringify(body));
  return true;
}

async function main() {
  const dir = path.dirname(fileURLToPath(import.meta.url));
  const port = Number(process.env.PORT ?? 3000);
  const hostname = process.env.HOST ?? "0.0.0.0";
  const app = next({ dev: false, dir, hostname, port });
  await app.prepare();
  const handle = app.getRequestHandler();
  const server = http.createServer((req, res) => {
    if (answerUnrepresentableMethod(req, res)) return;
    appendPeerAddress(req);
    void handle(req, res);
  });
  server.listen(port, hostname, () => console.log(`Gateway listening on http://${hostname === "0.0.0.0" ? "localhost" : hostname}:${port}`));
  const stop = () => server.close(() => process.exit(0));
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
