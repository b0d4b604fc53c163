import { encodePaymentRequiredHeader } from "@x402/core/http";
import {
  createSIWxResourceServerExtension,
  declareSIWxExtension,
  InMemorySIWxStorage,
  SIGN_IN_WITH_X,
} from "@x402/extensions/sign-in-with-x";
import { X402_VERSION, type SignInRequired, type SignInWithXDeclaration } from "@/lib/shared/contracts";
import { HISTORY_PATH } from "@/lib/shared/contracts/history-paths";
import { jsonResponse } from "@/lib/shared/http";
import { cutForHeader } from "@/lib/gateway/payments/header-text";

/**
 * x402 sign-in-with-x (CAIP-122) as this service declares it, written by the SDK's own helpers:
 * `declareSIWxExtension` for what every paid route's 402 states (where to sign in), and the SDK's
 * server extension for each live challenge (its nonce, issuedAt and expirationTime, domain and URI
 * from the configured public origin, never the Host header). Proofs are checked in
 * sign-in-proof.ts; what they unlock is the wallet's own history (lib/gateway/history).
 */

/** What the wallet shows the person signing. */
const STATEMENT = "Sign in with the wallet that paid to see what it bought. This pays nothing.";

/** A challenge's life: the SDK refuses a proof issued longer ago than this (its default) whatever it says. */
export const CHALLENGE_SECONDS = 300;

/** The SDK's static declaration for this deployment's payment network, with the options its server reads (`_options`). */
function declaration(network: string) {
  return declareSIWxExtension({ network, statement: STATEMENT, expirationSeconds: CHALLENGE_SECONDS })[SIGN_IN_WITH_X]!;
}

/**
 * What a paid route's 402 body (and /.well-known/x402.json) declares: the challenge's static
 * fields, with `uri` where to sign in. The live challenge, with what is new each time (the SDK's
 * `dynamicInfoFields`), is that route's own 402.
 */
export function signInDeclaration({ publicUrl, network }: { publicUrl: string; network: string }): SignInWithXDeclaration {
  const declared = declaration(network);
  const uri = `${publicUrl}${HISTORY_PATH}`;
  return {
    info: { domain: new URL(publicUrl).host, uri, version: declared.info.version, statement: STATEMENT, resources: [uri] },
    supportedChains: declared.supportedChains,
    schema: { ...declared.schema },
  };
}

/**
 * The SDK's server extension, for its challenges only: its hooks never run, so the in-memory
 * storage it requires stays empty (the payment ledger says who paid; sign-in-proof.ts checks
 * proofs and spends their nonces in the database, shared by every gateway process).
 */
const servers = new Map<string, ReturnType<typeof createSIWxResourceServerExtension>>();
function serverFor(publicUrl: string) {
  let server = servers.get(publicUrl);
  if (!server) {
    server = createSIWxResourceServerExtension({ origin: publicUrl, storage: new InMemorySIWxStorage() });
    servers.set(publicUrl, server);
  }
  return server;
}

/** A fresh challenge for `resourceUrl` (a URL on `publicUrl`): a nonce of its own, issued now, for five minutes. */
async function signInChallenge({ publicUrl, network, resourceUrl }: { publicUrl: string; network: string; resourceUrl: string }): Promise<SignInWithXDeclaration> {
  const resourceInfo = { url: resourceUrl, description: "", mimeType: "application/json" };
  const enriched = await serverFor(publicUrl).enrichPaymentRequiredResponse!(declaration(network), {
    requirements: [],
    resourceInfo,
    paymentRequiredResponse: { x402Version: X402_VERSION, resource: resourceInfo, accepts: [] },
  });
  return enriched as SignInWithXDeclaration;
}

/**
 * The 402 of a route read by signing in: a fresh challenge in the body and, base64, in
 * PAYMENT-REQUIRED (where the official client reads it), no payment asked; `reason` and
 * `message` say why a proof sent was refused.
 */
export async function signInRequiredResponse({
  publicUrl,
  network,
  path,
  reason = "sign_in_required",
  message,
}: {
  publicUrl: string;
  network: string;
  /** The request's path: the challenge is for this route, on the configured origin. */
  path: string;
  reason?: string;
  message?: string;
}): Promise<Response> {
  const url = `${publicUrl}${path}`;
  const body: SignInRequired = {
    x402Version: X402_VERSION,
    error: "Sign in: the wallet that paid signs this sign-in-with-x challenge, sent back in SIGN-IN-WITH-X",
    reason,
    ...(message ? { message } : {}),
    resource: { url, description: "What the wallet signed in paid for (free)", mimeType: "application/json" },
    accepts: [],
    extensions: { [SIGN_IN_WITH_X]: await signInChallenge({ publicUrl, network, resourceUrl: url }) },
  };
  // The header repeats the body, a refusal's words cut short (they may quote what the client sent), as a paid route's does.
  const header = { ...body, error: cutForHeader(body.error), ...(body.message ? { message: cutForHeader(body.message) } : {}) };
  return jsonResponse(body, { status: 402, headers: { "payment-required": encodePaymentRequiredHeader(header) } });
}
