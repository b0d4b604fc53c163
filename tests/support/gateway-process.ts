/**
 * The gateway's route handlers in a process of their own, behind the same peer-address step as
 * `npm start` (server.mjs), for the tests that need a real gateway process: two of them settling
 * at the same moment, one killed (SIGKILL) in the middle of a payment, clients told apart by
 * their socket address. Configured by the environment like the gateway; prints `READY <port>`.
 * Run with `node --conditions=react-server --import tsx` (server-only modules load as on a server).
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { appendPeerAddress } from "../../server.mjs";
import { routeFetch } from "./routes";

const server = http.createServer((req, res) => {
  appendPeerAddress(req);
  const chunks: Buffer[] = [];
  req.on("data", (c: Buffer) => chunks.push(c));
  req.on("end", async () => {
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) if (typeof value === "string") headers.set(name, value);
    const body = chunks.length > 0 ? Buffer.concat(chunks) : undefined;
    const response = await routeFetch(`${process.env.PUBLIC_URL}${req.url}`, { method: req.method, headers, ...(body ? { body } : {}) });
    res.writeHead(response.status, Object.fromEntries(response.headers));
    res.end(Buffer.from(await response.arrayBuffer()));
  });
});
server.listen(0, "127.0.0.1", () => console.log(`READY ${(server.address() as AddressInfo).port}`));
process.on("SIGTERM", () => server.close(() => process.exit(0)));
