import "server-only";
import { SIGN_IN_WITH_X } from "@x402/extensions/sign-in-with-x";
import { getConfig, type GatewayConfig } from "@/lib/gateway/config";
import { getDb } from "@/lib/gateway/db";
import { getPaymentsContext } from "@/lib/gateway/payments/context";
import type { Queryable } from "@/lib/shared/db";
import { RateLimitedError, withApi } from "@/lib/shared/http";
import { clientAddress } from "@/lib/shared/http/client-address";
import { countInWindow } from "@/lib/shared/rate-limit/fixed-window";
import { sessionTokenOf, sessionWallet } from "@/lib/gateway/history/sessions";
import { SignInRefusedError, verifySignInProof } from "@/lib/gateway/history/sign-in-proof";
import { HISTORY_PATH } from "@/lib/shared/contracts/history-paths";
import { signInRequiredResponse } from "@/lib/gateway/history/sign-in-with-x";

export type SignedInRequest<P> = { request: Request; params: P; wallet: string; db: Queryable; config: GatewayConfig };

/**
 * Wraps a route read by signing in: the wallet is the one a SIGN-IN-WITH-X proof signs in
 * (sign-in-proof.ts) or, without a proof, the one a browser's session cookie names
 * (sessions.ts; `proofOnly` routes, such as opening a session, take no cookie). No wallet, or a
 * proof refused: 402 with a fresh challenge for the history (a proof is good for any of its
 * routes), and why (sign-in-with-x.ts). A proof that is sent is judged alone: a cookie beside a
 * refused proof signs nobody in.
 */
export function withSignIn<P extends Record<string, string> = Record<string, never>>(
  route: string,
  handler: (args: SignedInRequest<P>) => Promise<Response>,
  {
    proofOnly = false,
    resourcePath = HISTORY_PATH,
  }: {
    proofOnly?: boolean;
    /** What the challenge is for: a fixed path (never the request's own, which a client could make as long as it likes). */
    resourcePath?: string;
  } = {},
) {
  return withApi<P>(route, async ({ request, params }) => {
    const config = getConfig();
    const { publicUrl, payments } = config;
    const challenge = (refusal: { reason?: string; message?: string } = {}) =>
      signInRequiredResponse({ publicUrl, network: payments.network, path: resourcePath, ...refusal });
    const proof = request.headers.get(SIGN_IN_WITH_X);
    const token = proofOnly ? null : sessionTokenOf(request);
    if (proof === null && token === null) return challenge();
    const db = await getDb();
    let wallet: string | null;
    if (proof !== null) {
      try {
        wallet = await verifySignInProof({ db, header: proof, publicUrl, network: payments.network, verifyOnChain: boundedChainCheck({ request, db, config }) });
      } catch (err) {
        if (err instanceof SignInRefusedError) return challenge({ reason: err.reason, message: err.detail });
        throw err;
      }
    } else {
      wallet = await sessionWallet({ db, token: token! });
      if (!wallet) return challenge({ reason: "sign_in_required", message: "this session has ended or never began: sign in again" });
    }
    return handler({ request, params, wallet, db, config });
  });
}

/**
 * A proof that its address's own key did not sign is asked of the chain (a contract wallet's), and
 * anyone can send such proofs without end: the chain is asked at most CHAIN_CHECKS_PER_WINDOW
 * times per CHAIN_CHECK_WINDOW_SECONDS for one client address (or, where none can be trusted, for
 * the address the proof names), then 429 with Retry-After. An account's own signature needs no
 * chain and is never counted.
 */
const CHAIN_CHECKS_PER_WINDOW = 30;
const CHAIN_CHECK_WINDOW_SECONDS = 600;

function boundedChainCheck({ request, db, config }: { request: Request; db: Queryable; config: GatewayConfig }) {
  return async (args: { address: `0x${string}`; message: string; signature: `0x${string}` }): Promise<boolean> => {
    const client = clientAddress(request, config.payments.trustedProxy) ?? `address:${args.address.toLowerCase()}`;
    const counted = await countInWindow({ db, table: "gateway.rate_limits", key: `sign-in-chain:${client}`, windowSeconds: CHAIN_CHECK_WINDOW_SECONDS, anchored: true });
    if (counted.count > CHAIN_CHECKS_PER_WINDOW) {
      throw new RateLimitedError(`At most ${CHAIN_CHECKS_PER_WINDOW} contract-wallet sign-ins checked on chain per ${CHAIN_CHECK_WINDOW_SECONDS / 60} minutes from one address`, counted.retryAfterSeconds);
    }
    return getPaymentsContext().chain.verifyMessage(args);
  };
}
