import { NextResponse, type NextRequest } from "next/server";
import { refuseUnservedApiRequest } from "@/lib/shared/http/api-edge";
import { isApiEdgePath } from "@/lib/shared/http/api-routes.mjs";

/**
 * API requests first pass the API edge (lib/shared/http/api-edge.ts): JSON 400, 404 and 405 for paths
 * and methods no route serves, before Next.js's own plain-text or empty answers. Not the paid
 * routes: a proxy run costs more than their whole unpaid 402, so they answer their own edge
 * (lib/shared/http/own-edge.ts). So do the
 * discovery documents outside /api (/llms.txt, /.well-known/x402.json): documents for programs,
 * which set their own headers and get no page policy.
 *
 * Pages get a strict Content Security Policy, with a fresh nonce per request: scripts run only if
 * Next.js marked them with the nonce (its own bootstrap and chunks, which may load further chunks:
 * 'strict-dynamic'); no inline script of anyone else's, no eval outside development, no plugins,
 * no framing. Text from the literature is rendered by React as text, and this is the net
 * under that. The chain's RPC origin is allowed for balance reads.
 */
export function proxy(request: NextRequest) {
  const { pathname } = request.nextUrl;
  if (isApiEdgePath(pathname)) return refuseUnservedApiRequest(request) ?? NextResponse.next();
  const nonce = btoa(crypto.randomUUID());
  const development = process.env.NODE_ENV === "development";
  const rpc = rpcOrigin();
  // WalletConnect (when configured) talks to its relay and shows its own modal's images and fonts.
  const walletConnect = process.env.WALLETCONNECT_PROJECT_ID ? " https://*.walletconnect.com wss://*.walletconnect.com https://*.walletconnect.org wss://*.walletconnect.org https://*.reown.com wss://*.reown.com" : "";
  const policy = [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${development ? " 'unsafe-eval'" : ""}`,
    `style-src 'self' 'nonce-${nonce}'`,
    `img-src 'self' data: blob:${walletConnect ? " https://*.walletconnect.com https://*.reown.com" : ""}`,
    `font-src 'self'${walletConnect ? " https://fonts.reown.com" : ""}`,
    `connect-src 'self'${rpc ? ` ${rpc}` : ""}${walletConnect}`,
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");

  // Next.js reads the nonce from the request's policy header for its own scripts.
  const headers = new Headers(request.headers);
  headers.set("x-nonce", nonce);
  headers.set("content-security-policy", policy);
  const response = NextResponse.next({ request: { headers } });
  response.headers.set("content-security-policy", policy);
  response.headers.set("x-content-type-options", "nosniff");
  response.headers.set("referrer-policy", "no-referrer");
  return response;
}

/** The payment chain's JSON-RPC origin the page reads balances from (local chain, or Base's public RPC). */
function rpcOrigin(): string | null {
  const network = process.env.X402_NETWORK ?? "eip155:31337";
  if (network === "eip155:8453") return "https://mainnet.base.org";
  if (network === "eip155:84532") return "https://sepolia.base.org";
  try {
    return new URL(process.env.RPC_URL ?? "http://127.0.0.1:8545").origin;
  } catch {
    return null;
  }
}

export const config = {
  // The API, and pages: not static files, not prefetches.
  matcher: [
    // Every API path but the paid routes' fixed paths, which answer their own edge (`ownEdge` in
    // lib/shared/http/api-routes.mjs; tests/unit/api-edge.test.ts holds this list to that table).
    "/api",
    "/api/((?!(?:chat|chat/encrypted|literature|literature/encrypted|deep-research/start|deep-research/encrypted)$).*)",
    // The discovery documents, prefetch headers or not (isApiEdgePath).
    "/llms.txt",
    "/.well-known/x402.json",
    {
      source: "/((?!api|_next/static|_next/image|favicon.ico).*)",
      missing: [
        { type: "header", key: "next-router-prefetch" },
        { type: "header", key: "purpose", value: "prefetch" },
      ],
    },
  ],
};
