import type { IncomingMessage, ServerResponse } from "node:http";

/** Appends the socket's address to X-Forwarded-For (the hop the gateway trusts). See server.mjs. */
export declare function appendPeerAddress(req: IncomingMessage): void;

/** Answers TRACE and TRACK (which Next.js cannot represent) with a JSON 405 or 404. See server.mjs. */
export declare function answerUnrepresentableMethod(req: IncomingMessage, res: ServerResponse): boolean;
