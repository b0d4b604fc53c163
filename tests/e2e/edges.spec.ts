import http from "node:http";
import { expect, test } from "./support/test";

/**
 * Bad paths and methods against the real gateway server (server.mjs and Next.js), where an
 * undecodable path failed inside Next.js before any handler (500 text/plain) and TRACE inside
 * server.mjs's hand-off to it: each is a JSON 4xx now. Sent with node:http so the path goes out
 * byte for byte as written (a browser or fetch would normalise it).
 */
function send(baseURL: string, method: string, path: string, body?: string): Promise<{ status: number; headers: http.IncomingHttpHeaders; text: string }> {
  const { hostname, port } = new URL(baseURL);
  return new Promise((resolve, reject) => {
    const request = http.request({ hostname, port, method, path, headers: body ? { "content-type": "application/json" } : {} }, (response) => {
      let text = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => (text += chunk));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, headers: response.headers, text }));
    });
    request.on("error", reject);
    request.end(body);
  });
}

test.describe("the gateway's edges, on the real server", () => {
  test("an undecodable path, or one holding NUL, is a JSON 400", async ({ baseURL }) => {
    const paths = ["/api/chat/status/%zz", "/api/chat/status/%", "/api/chat/status/%c0%af", "/api/chat/status/%ed%a0%80", "/api/chat/status/%ff%fe", "/api/health%zz"];
    for (const path of paths) {
      const answer = await send(baseURL!, "GET", path);
      expect({ path, status: answer.status, type: answer.headers["content-type"] }).toEqual({ path, status: 400, type: "application/json; charset=utf-8" });
      expect(JSON.parse(answer.text)).toEqual({ error: "The request path is not valid percent-encoded UTF-8", reason: "invalid_path" });
    }
    const nul = await send(baseURL!, "POST", "/api/deep-research/encrypted/status/%00", JSON.stringify({ hpke_ciphertext: "AAAA", hpke_ephemeral_public_key: "AAAA" }));
    expect(nul.status).toBe(400);
    expect(JSON.parse(nul.text)).toMatchObject({ error: expect.stringContaining("NUL (U+0000)"), reason: "invalid_path" });
  });

  test("a method no route serves is a JSON 405 with Allow, TRACE included; an unknown path a JSON 404", async ({ baseURL }) => {
    const trace = await send(baseURL!, "TRACE", "/api/health");
    expect({ status: trace.status, allow: trace.headers.allow }).toEqual({ status: 405, allow: "GET, HEAD, OPTIONS" });
    expect(JSON.parse(trace.text)).toEqual({ error: "TRACE is not allowed on /api/health; use GET, HEAD, OPTIONS", reason: "method_not_allowed" });
    // The discovery documents are API paths too: their Allow lists what they serve.
    for (const discovery of ["/llms.txt", "/.well-known/x402.json"]) {
      const traced = await send(baseURL!, "TRACE", discovery);
      expect({ path: discovery, status: traced.status, allow: traced.headers.allow }).toEqual({ path: discovery, status: 405, allow: "GET, HEAD, OPTIONS" });
    }
    const del = await send(baseURL!, "DELETE", "/api/chat");
    expect({ status: del.status, allow: del.headers.allow, type: del.headers["content-type"] }).toEqual({ status: 405, allow: "OPTIONS, POST", type: "application/json; charset=utf-8" });
    expect(JSON.parse(del.text)).toEqual({ error: "DELETE is not allowed on /api/chat; use OPTIONS, POST", reason: "method_not_allowed" });
    // The paid routes answer their own edge (no proxy run on their unpaid path), the same way.
    for (const method of ["GET", "PATCH", "PROPFIND", "TRACE"]) {
      const refused = await send(baseURL!, method, "/api/literature");
      expect({ method, status: refused.status, allow: refused.headers.allow, type: refused.headers["content-type"] }).toEqual({ method, status: 405, allow: "OPTIONS, POST", type: "application/json; charset=utf-8" });
      expect(JSON.parse(refused.text)).toEqual({ error: `${method} is not allowed on /api/literature; use OPTIONS, POST`, reason: "method_not_allowed" });
    }
    const unknown = await send(baseURL!, "PUT", "/api/nothing-here");
    expect(unknown.status).toBe(404);
    expect(JSON.parse(unknown.text)).toEqual({ error: "No such route: PUT /api/nothing-here", reason: "not_found" });
    // What routes serve still passes: the CORS preflight, and a GET.
    const preflight = await send(baseURL!, "OPTIONS", "/api/chat");
    expect(preflight.status).toBe(204);
    expect(preflight.headers.allow).toBe("OPTIONS, POST");
    expect(preflight.headers["access-control-allow-origin"]).toBe("*");
    expect((await send(baseURL!, "GET", "/api/openapi.json")).status).toBe(200);
  });
});
