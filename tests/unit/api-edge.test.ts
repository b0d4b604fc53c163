import fs from "node:fs";
import path from "node:path";
import { NextRequest } from "next/server";
import { describe, expect, it } from "vitest";
import { refuseUnservedApiRequest } from "@/lib/shared/http/api-edge";
import { API_ROUTES, gatewayAllowedMethods } from "@/lib/shared/http/api-routes.mjs";
import { ownEdge } from "@/lib/shared/http/own-edge";
import { buildOpenApiDocument } from "@/lib/gateway/openapi/document";
import { getPaidOperation, PAID_OPERATIONS, type PaidOperation } from "@/lib/shared/operations";
import { proxy } from "@/proxy";
import { proxyRunsFor } from "../support/proxy-matcher";

const root = path.resolve(import.meta.dirname, "../..");
const HTTP_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"];

/**
 * Every route file of the app (the API, and the discovery documents outside it such as
 * app/.well-known/x402.json), as its path template: app/api/chat/status/[requestId] is
 * /api/chat/status/{requestId}.
 */
function routeFiles(dir = path.join(root, "app")): { template: string; file: string }[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return routeFiles(full);
    if (entry.name !== "route.ts") return [];
    const template = "/" + path.relative(path.join(root, "app"), dir).split(path.sep).map((s) => s.replace(/^\[(\w+)\]$/, "{$1}")).join("/");
    return [{ template, file: full }];
  });
}

/**
 * The HTTP methods a route file exports, read from its source (`export const GET`, `export async
 * function POST`, `export { GET }`): importing every route would load the whole gateway, which a
 * busy machine took more than a unit test's five seconds to do. A file exporting `*` cannot be
 * read this way and fails the test.
 */
function exportedMethods(file: string): string[] {
  const source = fs.readFileSync(file, "utf8");
  if (/^export\s*\*/m.test(source)) throw new Error(`${file} re-exports *: list its methods by name`);
  const names = [
    ...[...source.matchAll(/^export\s+(?:const|let|async\s+function|function)\s+([A-Z]+)\b/gm)].map((m) => m[1]!),
    ...[...source.matchAll(/^export\s*\{([^}]*)\}/gm)].flatMap((m) => m[1]!.split(",").map((part) => part.trim().split(/\s+as\s+/).pop()!.trim())),
  ];
  return names.filter((name) => HTTP_METHODS.includes(name)).sort();
}

describe("the gateway's route table", () => {
  it("lists every route file with exactly the methods it exports", () => {
    const served: Record<string, string[]> = {};
    for (const { template, file } of routeFiles()) served[template] = exportedMethods(file);
    expect(served).toEqual(Object.fromEntries(API_ROUTES.map((r) => [r.path, [...r.methods].sort()])));
  });

  it("is what the OpenAPI document describes, path by path and method by method", () => {
    const { paths } = buildOpenApiDocument({ publicUrl: "https://gateway.test", maxBodyBytes: 256 * 1024 }) as { paths: Record<string, Record<string, unknown>> };
    const described = Object.fromEntries(Object.entries(paths).map(([p, ops]) => [p, Object.keys(ops).map((m) => m.toUpperCase()).sort()]));
    expect(described).toEqual(Object.fromEntries(API_ROUTES.map((r) => [r.path, [...r.methods].sort()])));
  });

  it("gives a path its route's methods with HEAD and OPTIONS, a literal segment winning over a parameter", () => {
    expect(gatewayAllowedMethods("/api/chat")).toEqual(["OPTIONS", "POST"]);
    expect(gatewayAllowedMethods("/api/chat/status/abc")).toEqual(["GET", "HEAD", "OPTIONS"]);
    expect(gatewayAllowedMethods("/api/deep-research/encrypted")).toEqual(["OPTIONS", "POST"]);
    expect(gatewayAllowedMethods("/api/deep-research/3f1c")).toEqual(["GET", "HEAD", "OPTIONS"]);
    expect(gatewayAllowedMethods("/api/chat/status/")).toEqual([]);
    expect(gatewayAllowedMethods("/api/chat/status/a/b")).toEqual([]);
    expect(gatewayAllowedMethods("/llms.txt")).toEqual(["GET", "HEAD", "OPTIONS"]);
    expect(gatewayAllowedMethods("/.well-known/x402.json")).toEqual(["GET", "HEAD", "OPTIONS"]);
  });
});

describe("the API edge", () => {
  const answer = async (method: string, url: string) => {
    const response = refuseUnservedApiRequest(new Request(`http://gateway.test${url}`, { method }));
    return response && { status: response.status, allow: response.headers.get("allow"), type: response.headers.get("content-type"), body: await response.json() };
  };

  it.each(["/api/chat/status/%zz", "/api/chat/status/%", "/api/chat/status/%c0%af", "/api/chat/status/%ed%a0%80", "/api/chat/status/%ff%fe", "/api/health%zz"])(
    "answers the undecodable path %s 400 with a JSON error",
    async (url) => {
      expect(await answer("GET", url)).toMatchObject({ status: 400, body: { error: "The request path is not valid percent-encoded UTF-8", reason: "invalid_path" } });
    },
  );

  it("answers a path holding NUL 400, naming it", async () => {
    expect(await answer("POST", "/api/deep-research/encrypted/status/%00")).toMatchObject({ status: 400, body: { error: expect.stringContaining("NUL (U+0000)"), reason: "invalid_path" } });
  });

  it("answers a method the route does not export 405 with Allow, and an unknown path 404", async () => {
    expect(await answer("DELETE", "/api/chat")).toEqual({
      status: 405,
      allow: "OPTIONS, POST",
      type: "application/json; charset=utf-8",
      body: { error: "DELETE is not allowed on /api/chat; use OPTIONS, POST", reason: "method_not_allowed" },
    });
    expect(await answer("POST", "/api/health")).toMatchObject({ status: 405, allow: "GET, HEAD, OPTIONS" });
    expect(await answer("GET", "/api/nope/1")).toMatchObject({ status: 404, allow: null, body: { error: "No such route: GET /api/nope/1", reason: "not_found" } });
    expect(await answer("GET", "/api")).toMatchObject({ status: 404 });
  });

  it("lets through what a route serves, HEAD and the preflight's OPTIONS included", async () => {
    for (const [method, url] of [["POST", "/api/chat"], ["GET", "/api/chat/status/abc"], ["HEAD", "/api/health"], ["OPTIONS", "/api/literature"], ["GET", "/api/chat/status/%E2%80%8F"]]) {
      expect(await answer(method!, url!)).toBeNull();
    }
  });
});

describe("the proxy", () => {
  const run = (method: string, url: string) => proxy(new NextRequest(`http://gateway.test${url}`, { method }));

  it("puts the discovery documents behind the API edge: a JSON 405 with Allow, and no page policy", async () => {
    for (const url of ["/llms.txt", "/.well-known/x402.json"]) {
      const refused = run("POST", url);
      expect(refused.status, url).toBe(405);
      expect(refused.headers.get("allow")).toBe("GET, HEAD, OPTIONS");
      expect(await refused.json()).toEqual({ error: `POST is not allowed on ${url}; use GET, HEAD, OPTIONS`, reason: "method_not_allowed" });
      const served = run("GET", url);
      expect(served.headers.get("x-middleware-next"), url).toBe("1");
      expect(served.headers.get("content-security-policy"), url).toBeNull();
    }
  });

  it("still gives pages, and other paths under /.well-known, the page policy", () => {
    for (const url of ["/", "/.well-known/other.json", "/llms.txt/"]) {
      expect(run("GET", url).headers.get("content-security-policy"), url).toContain("default-src 'self'");
    }
  });
});

describe("the paid routes' own edge (no proxy run on their unpaid path)", () => {
  const concrete = (template: string) => template.replace(/\{\w+\}/g, "3f1c9a");

  it("is where the proxy does not run: every API path but the ownEdge routes' has it", () => {
    for (const route of API_ROUTES) expect(proxyRunsFor(concrete(route.path)), route.path).toBe(!route.ownEdge);
    for (const other of ["/api", "/api/", "/api/nope", "/api/chat/", "/api/chatx", "/api/chat/x", "/api/literatures", "/api/deep-research/start/x", "/api/chat/status/%zz", "/"]) {
      expect(proxyRunsFor(other), other).toBe(true);
    }
  });

  it("is spread into exactly the ownEdge routes' files, each with the path of the operation its POST pays for", () => {
    const spread = Object.fromEntries(
      routeFiles().flatMap(({ template, file }) => {
        const text = fs.readFileSync(file, "utf8");
        const edge = /^export const \{ GET, HEAD, PUT, PATCH, DELETE, OPTIONS \} = ownEdge\((\w+)\.path\);$/m.exec(text);
        if (!edge) return [];
        // The same definition names the edge's path and the payment: the route file's own operation.
        expect(/^export const POST = withPayment\((\w+),/m.exec(text)?.[1], file).toBe(edge[1]);
        return [[template, getPaidOperation(edge[1] as PaidOperation["id"]).path]];
      }),
    );
    expect(spread).toEqual(Object.fromEntries(API_ROUTES.filter((r) => r.ownEdge).map((r) => [r.path, r.path])));
  });

  it("is every paid operation's, and the route table lists each operation's status route with its poll method", () => {
    expect(API_ROUTES.filter((r) => r.ownEdge).map((r) => r.path).sort()).toEqual(PAID_OPERATIONS.map((op) => op.path).sort());
    for (const op of PAID_OPERATIONS) {
      expect(API_ROUTES.find((r) => r.path === op.path)?.methods, op.path).toEqual([op.method]);
      expect(API_ROUTES.find((r) => r.path === op.polling.path)?.methods, op.polling.path).toEqual([op.polling.method]);
    }
  });

  it.each(API_ROUTES.filter((r) => r.ownEdge).map((r) => [r.path] as const))("answers %s's other methods as the edge answers them, and OPTIONS as Next.js did", async (path) => {
    const handlers = ownEdge(path);
    for (const method of ["GET", "HEAD", "PUT", "PATCH", "DELETE"] as const) {
      const request = () => new Request(`http://gateway.test${path}`, { method });
      const own = await handlers[method](request());
      const edge = refuseUnservedApiRequest(request())!;
      expect({ status: own.status, allow: own.headers.get("allow"), type: own.headers.get("content-type"), body: await own.json() }, method).toEqual({
        status: edge.status,
        allow: edge.headers.get("allow"),
        type: edge.headers.get("content-type"),
        body: await edge.json(),
      });
    }
    const preflight = await handlers.OPTIONS(new Request(`http://gateway.test${path}`, { method: "OPTIONS" }));
    expect({ status: preflight.status, allow: preflight.headers.get("allow") }).toEqual({ status: 204, allow: gatewayAllowedMethods(path).join(", ") });
  });

  it("is refused for a route that keeps the proxy", () => {
    expect(() => ownEdge("/api/health")).toThrow(/not a POST route with its own edge/);
    expect(() => ownEdge("/api/mcp")).toThrow(/not a POST route with its own edge/);
  });
});
