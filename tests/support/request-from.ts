import http from "node:http";

/**
 * An HTTP request sent from a loopback address of our choosing (127.0.0.x), so the server sees
 * distinct sockets as it would distinct clients; `headers` may claim any X-Forwarded-For. (fetch
 * cannot choose its local address.)
 */
export function requestFrom({
  url,
  from,
  method = "POST",
  headers = {},
  body,
}: {
  url: string;
  from: string;
  method?: string;
  headers?: Record<string, string>;
  body?: unknown;
}): Promise<Response> {
  return new Promise((resolve, reject) => {
    const target = new URL(url);
    const req = http.request(
      {
        host: target.hostname,
        port: target.port,
        path: `${target.pathname}${target.search}`,
        method,
        localAddress: from,
        headers: { ...(body === undefined ? {} : { "content-type": "application/json" }), ...headers },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => {
          const headers = new Headers();
          for (const [name, value] of Object.entries(res.headers)) for (const v of [value ?? []].flat()) headers.append(name, v);
          const body = Buffer.concat(chunks);
          resolve(new Response(body.length > 0 ? body : null, { status: res.statusCode ?? 0, headers }));
        });
      },
    );
    req.on("error", reject);
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}
