/**
 * The gateway's route handlers (app/api/…) behind a bare node:http server, in a process of its
 * own: the paid path exactly as the handlers run it, without building Next.js (a build would
 * replace the .next/ another run may be serving). Run with `--conditions=react-server` so
 * `server-only` resolves as it does inside Next; the environment configures the gateway as usual.
 * Usage: node --conditions=react-server --import tsx scripts/lib/route-server.ts PORT
 */
import http from "node:http";
import { routeFetch } from "../../tests/support/routes";

const port = Number(process.argv[2]);

http
  .createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const headers = new Headers();
      for (const [key, value] of Object.entries(req.headers)) if (typeof value === "string") headers.set(key, value);
      const body = chunks.length > 0 && req.method !== "GET" ? Buffer.concat(chunks) : undefined;
      routeFetch(`http://127.0.0.1:${port}${req.url ?? "/"}`, { method: req.method ?? "GET", headers, ...(body ? { body } : {}) })
        .then(async (response) => {
          res.writeHead(response.status, Object.fromEntries(response.headers));
          res.end(Buffer.from(await response.arrayBuffer()));
        })
        .catch((err: unknown) => {
          res.writeHead(500, { "content-type": "application/json" });
          res.end(JSON.stringify({ error: String(err) }));
        });
    });
  })
  .listen(port, "127.0.0.1");
