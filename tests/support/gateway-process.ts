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
import { relayToRoutes } from "./routes";

const server = http.createServer(relayToRoutes(() => process.env.PUBLIC_URL ?? "", { before: appendPeerAddress }));
server.listen(0, "127.0.0.1", () => console.log(`READY ${(server.address() as AddressInfo).port}`));
process.on("SIGTERM", () => server.close(() => process.exit(0)));
