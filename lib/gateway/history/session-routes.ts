import "server-only";
import type { GatewayConfig } from "@/lib/gateway/config";
import type { SignInSession } from "@/lib/shared/contracts/history";
import type { Queryable } from "@/lib/shared/db";
import { jsonResponse, RateLimitedError } from "@/lib/shared/http";
import { clientAddress } from "@/lib/shared/http/client-address";
import { countInWindow } from "@/lib/shared/rate-limit/fixed-window";
import { clearedSessionCookie, closeSession, openSession, sessionCookie, sessionTokenOf } from "@/lib/gateway/history/sessions";

/**
 * Opening and closing a browser's sign-in session. Anyone can make a wallet and sign with it, so
 * the sessions a client address opens are limited (SESSIONS_PER_WINDOW per WINDOW_SECONDS): the
 * table cannot be filled faster than that per address, and each row ends with its session.
 */
const SESSIONS_PER_WINDOW = 10;
const WINDOW_SECONDS = 600;

/** POST /api/history/session, for the wallet a proof signed in: a session cookie, and when it ends. Throws RateLimitedError. */
export async function openSessionResponse({ request, db, wallet, config }: { request: Request; db: Queryable; wallet: string; config: GatewayConfig }): Promise<Response> {
  // Behind a proxy chain that names no address, the wallet stands in: one bucket per signer, never one for all.
  const client = clientAddress(request, config.payments.trustedProxy) ?? `wallet:${wallet}`;
  const counted = await countInWindow({ db, table: "gateway.rate_limits", key: `sign-in-session:${client}`, windowSeconds: WINDOW_SECONDS, anchored: true });
  if (counted.count > SESSIONS_PER_WINDOW) {
    throw new RateLimitedError(`At most ${SESSIONS_PER_WINDOW} sign-ins per ${WINDOW_SECONDS / 60} minutes from one address; a proof still reads the history without a session`, counted.retryAfterSeconds);
  }
  const seconds = config.signIn.sessionSeconds;
  const { token, expiresAt } = await openSession({ db, payer: wallet, seconds });
  const body: SignInSession = { address: wallet, expiresAt: expiresAt.toISOString() };
  return jsonResponse(body, { headers: { "set-cookie": sessionCookie({ token, seconds, publicUrl: config.publicUrl }) } });
}

/** DELETE /api/history/session: the session its cookie names ends, and the cookie goes. */
export async function closeSessionResponse({ request, db, config }: { request: Request; db: () => Promise<Queryable>; config: GatewayConfig }): Promise<Response> {
  const token = sessionTokenOf(request);
  if (token) await closeSession({ db: await db(), token });
  return new Response(null, { status: 204, headers: { "set-cookie": clearedSessionCookie({ publicUrl: config.publicUrl }), "cache-control": "no-store" } });
}
