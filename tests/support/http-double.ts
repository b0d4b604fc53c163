import http from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A local HTTP server standing in for the upstream agent in tests, so failures (slow answers,
 * errors, refused connections) can be injected. It records each request it receives.
 */
export type HttpDouble = {
  url: string;
  /** What was asked, and the body answered (once it was). */
  requests: { method: string; path: string; headers: http.IncomingHttpHeaders; body: string; response?: string }[];
  close: () => Promise<void>;
};

export type DoubleHandler = (req: { method: string; path: string; headers: http.IncomingHttpHeaders; body: string }) =>
  | { status: number; body?: unknown; headers?: Record<string, string>; delayMs?: number }
  | Promise<{ status: number; body?: unknown; headers?: Record<string, string>; delayMs?: number }>;

export async function startHttpDouble(handler: DoubleHandler): Promise<HttpDouble> {
  const requests: HttpDouble["requests"] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", async () => {
      const entry: HttpDouble["requests"][number] = { method: req.method ?? "GET", path: req.url ?? "/", headers: req.headers, body: Buffer.concat(chunks).toString() };
      requests.push(entry);
      const answer = await handler(entry);
      const send = () => {
        if (res.destroyed) return;
        const body = answer.body === undefined ? "" : typeof answer.body === "string" ? answer.body : JSON.stringify(answer.body);
        entry.response = body;
        res.writeHead(answer.status, { "content-type": "application/json", ...answer.headers });
        res.end(body);
      };
      if (answer.delayMs) setTimeout(send, answer.delayMs);
      else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A URL on which nothing listens (the port was free a moment ago). */
export async function closedUrl(): Promise<string> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}
