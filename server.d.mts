import type { IncomingMessage } from "node:http";

/** Appends the socket's address to X-Forwarded-For (the hop the gateway trusts). See server.mjs. */
export declare function appendPeerAddress(req: IncomingMessage): void;
