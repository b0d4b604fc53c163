import http from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A JSON-RPC proxy in front of the suite's chain, so a test can stand between the gateway and
 * the node: see every call, refuse one, never answer one, or act (kill a process) right after a
 * transaction was really sent. Batches are split into their calls for the hook and joined again.
 */
type RpcCall = { method: string; params: unknown[] };
type RpcAction =
  | { kind: "forward" }
  /** Answer with a JSON-RPC error without forwarding. */
  | { kind: "error"; code: number; message: string }
  /** Forward, then run `after` before answering (the answer may then never be read). */
  | { kind: "forward-then"; after: (result: unknown) => Promise<void> }
  /** Never answer and never forward. */
  | { kind: "swallow" }
  /** Drop the connection without forwarding (a network failure mid-request). */
  | { kind: "hang-up" };

export type RpcProxy = { url: string; calls: RpcCall[]; setHook: (hook: (call: RpcCall) => RpcAction) => void; close: () => Promise<void> };

export async function startRpcProxy(target: string): Promise<RpcProxy> {
  let hook: (call: RpcCall) => RpcAction = () => ({ kind: "forward" });
  const calls: RpcCall[] = [];
  const held = new Set<http.ServerResponse>();
  const forward = async (body: unknown) => {
    const response = await fetch(target, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    return response.json() as Promise<{ id: unknown; result?: unknown; error?: unknown }>;
  };
  const answer = async (request: { id: unknown; method: string; params?: unknown[] }): Promise<unknown> => {
    const call = { method: request.method, params: request.params ?? [] };
    calls.push(call);
    const action = hook(call);
    if (action.kind === "swallow" || action.kind === "hang-up") return action.kind;
    if (action.kind === "error") return { jsonrpc: "2.0", id: request.id, error: { code: action.code, message: action.message } };
    const result = await forward(request);
    if (action.kind === "forward-then") await action.after(result.result);
    return result;
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", async () => {
      const parsed = JSON.parse(Buffer.concat(chunks).toString()) as { id: unknown; method: string; params?: unknown[] } | { id: unknown; method: string; params?: unknown[] }[];
      const results = await Promise.all((Array.isArray(parsed) ? parsed : [parsed]).map(answer));
      if (results.includes("hang-up")) {
        req.socket.destroy();
        return;
      }
      if (results.includes("swallow")) {
        held.add(res);
        return;
      }
      if (res.destroyed) return;
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify(Array.isArray(parsed) ? results : results[0]));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    calls,
    setHook: (h) => (hook = h),
    close: () =>
      new Promise((resolve) => {
        for (const res of held) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
