import { HISTORY_PAGE_DEFAULT, HISTORY_PAGE_MAX } from "@/lib/shared/contracts/history";
import { HISTORY_PATH, SESSION_PATH } from "@/lib/shared/contracts/history-paths";
import { SESSION_COOKIE } from "@/lib/gateway/history/sessions";
import { agentUnavailable, signedInUnavailable, error, json, pathParam, ref, type Json } from "@/lib/shared/openapi/responses";

/**
 * The OpenAPI document's history routes (lib/gateway/history): what a wallet paid for, listed and
 * reopened once it signs in with x402 sign-in-with-x (free; never paid).
 */

const signInHeader = {
  name: "SIGN-IN-WITH-X",
  in: "header",
  required: false,
  description:
    "A sign-in-with-x proof (CAIP-122 / SIWE, EIP-191 signed), standard base64 of UTF-8 JSON, for the challenge of this route's 402; each proof is used once. `createSIWxClientExtension` of `@x402/extensions/sign-in-with-x`, registered on the official client, signs it.",
  schema: { type: "string" },
};

/** A proof not signed by its address's own key is checked on chain, at most so often per client address (with-sign-in.ts). */
const chainChecksLimited = json("RateLimited", "`rate_limited`: too many proofs from this address checked on chain (contract wallets); wait `retryAfterSeconds`");

const sessionCookie = {
  name: SESSION_COOKIE,
  in: "cookie",
  required: false,
  description: "A browser's sign-in (POST /api/history/session): read instead of a proof when none is sent",
  schema: { type: "string" },
};

const signInRequired: Json = {
  description:
    "Sign in: a fresh sign-in-with-x challenge (`extensions[\"sign-in-with-x\"]`: domain, URI, nonce, issuedAt, expirationTime, the chain to sign for), no payment (`accepts` empty). `reason` is `sign_in_required`, or why the proof sent was refused: `invalid_siwx_header` (not a proof), `invalid_siwx_signature` (not signed by the address it names), `invalid_siwx_nonce` (used already), `invalid_siwx_issued_at_too_old`, `invalid_siwx_issued_at_in_future`, `invalid_siwx_expired`, `invalid_siwx_not_yet_valid`, `invalid_siwx_domain_mismatch`, `invalid_siwx_uri_mismatch` (another origin's), `invalid_siwx_unsupported_chain`.",
  headers: {
    "PAYMENT-REQUIRED": { description: "The same 402, standard base64 of UTF-8 JSON: where the official client reads the challenge", required: true, schema: { type: "string" } },
  },
  content: { "application/json": { schema: ref("SignInRequired") } },
};

const notFound = error("No paid request of the wallet signed in has this id: another wallet's, a forgotten one and none at all alike (`reason: not_found`)");
const tags = ["history"];

export function historyPaths(): Record<string, Record<string, Json>> {
  return {
    [HISTORY_PATH]: {
      get: {
        operationId: "listHistory",
        summary: "The signed-in wallet's paid requests, newest first (free)",
        description:
          "Every chat, literature search and deep-research turn the wallet paid for (settled, or deep research still to settle), newest first, each with its question while it is kept (`HISTORY_RETENTION_DAYS`). A sealed request shows its kind, time and price only: never its question or answer. Sign in with a SIGN-IN-WITH-X proof for this route's 402 challenge, or a browser's session cookie.",
        tags,
        parameters: [
          signInHeader,
          sessionCookie,
          { name: "limit", in: "query", required: false, description: `Items per page, 1 to ${HISTORY_PAGE_MAX} (default ${HISTORY_PAGE_DEFAULT})`, schema: { type: "integer", minimum: 1, maximum: HISTORY_PAGE_MAX } },
          { name: "cursor", in: "query", required: false, description: "The `nextCursor` of the page before", schema: { type: "string" } },
        ],
        responses: {
          "200": json("HistoryPage", "A page of the wallet's paid requests"),
          "400": error("`invalid_limit`, `invalid_cursor`: the query cannot be read"),
          "402": signInRequired,
          "429": chainChecksLimited,
          "500": error("Internal failure"),
          "503": signedInUnavailable,
        },
      },
    },
    [`${HISTORY_PATH}/{id}`]: {
      get: {
        operationId: "reopenHistoryItem",
        summary: "Reopen one of the signed-in wallet's paid requests with what it bought (free)",
        description:
          "`answer`: a chat's ChatResult or a search's LiteratureJobResult (`completed`), kept once the service saw it, so it outlives the agent's own retention; `running` with its status route; `failed`; `in_conversation` for a deep-research turn (read its reply in the conversation, released once settled); `not_kept` past retention or when never kept; `sealed` for a private request.",
        tags,
        parameters: [pathParam("id", "The item's `id`"), signInHeader, sessionCookie],
        responses: {
          "200": json("HistoryEntry", "The request, reopened"),
          "402": signInRequired,
          "404": notFound,
          "429": chainChecksLimited,
          "500": error("Internal failure"),
          "502": agentUnavailable,
          "503": signedInUnavailable,
        },
      },
      delete: {
        operationId: "forgetHistoryItem",
        summary: "Forget a paid request's question and answer (free)",
        description: "The service forgets what it kept of the request and no longer lists it; the payment itself stays on the ledger, an accounting record.",
        tags,
        parameters: [pathParam("id", "The item's `id`"), signInHeader, sessionCookie],
        responses: {
          "204": { description: "Forgotten" },
          "402": signInRequired,
          "404": notFound,
          "429": chainChecksLimited,
          "500": error("Internal failure"),
          "503": signedInUnavailable,
        },
      },
    },
    [SESSION_PATH]: {
      post: {
        operationId: "signIn",
        summary: "A browser signs in once with the wallet that paid (free)",
        description:
          "With a SIGN-IN-WITH-X proof for this route's 402 challenge: a session cookie (HttpOnly, SameSite=Strict, for /api/history only, `SIGN_IN_SESSION_SECONDS`) that reads the wallet's history without signing again. Ten sign-ins per client address per ten minutes.",
        tags,
        parameters: [signInHeader],
        responses: {
          "200": json("SignInSession", "Signed in", {
            headers: { "Set-Cookie": { description: "The session cookie", required: true, schema: { type: "string" } } },
          }),
          "402": signInRequired,
          "429": json("RateLimited", "`rate_limited`: too many sign-ins from this address, or too many proofs from it checked on chain (contract wallets); wait `retryAfterSeconds`"),
          "500": error("Internal failure"),
          "503": signedInUnavailable,
        },
      },
      delete: {
        operationId: "signOut",
        summary: "Sign out (free)",
        description: "The session its cookie names ends, and the cookie is removed.",
        tags,
        parameters: [sessionCookie],
        responses: {
          "204": { description: "Signed out", headers: { "Set-Cookie": { description: "Removes the session cookie", required: true, schema: { type: "string" } } } },
          "500": error("Internal failure"),
          "503": signedInUnavailable,
        },
      },
    },
  };
}
