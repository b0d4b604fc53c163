import "server-only";
import { parseSIWxHeader, validateSIWxMessage, verifySIWxSignature, type SIWxErrorCode, type SIWxPayload } from "@x402/extensions/sign-in-with-x";
import type { Queryable } from "@/lib/shared/db";
import { ApiError } from "@/lib/shared/http";
import { CHALLENGE_SECONDS } from "@/lib/gateway/history/sign-in-with-x";

/**
 * A SIGN-IN-WITH-X proof, checked with the SDK's own helpers in the spec's order: parsed
 * (`parseSIWxHeader`), its chain one this deployment supports, its fields validated against the
 * configured public origin, never the Host header (`validateSIWxMessage`: domain, URI origin,
 * issued within five minutes and not in the future, not expired, not before its time), its
 * signature verified (`verifySIWxSignature`, EIP-191 by the address it names), and only then its
 * nonce spent, once, by an insert that one request alone can win: a proof sent again, or twice at
 * the same instant, or a challenge signed by two wallets, signs in once. A signature that is not
 * the named address's own key is asked of the chain (`verifyOnChain`, viem's verifyMessage), so a
 * contract wallet signs in as it pays (EIP-1271, and EIP-6492 before it is deployed); an account's
 * own signature needs no RPC.
 */

/** Why a proof was refused: the SDK's codes, and `invalid_siwx_header` for one that is not a proof at all. */
export type SignInRefusalReason = SIWxErrorCode | "invalid_siwx_header";

export class SignInRefusedError extends Error {
  constructor(
    readonly reason: SignInRefusalReason,
    readonly detail: string,
  ) {
    super(`sign-in refused: ${reason}`);
    this.name = "SignInRefusedError";
  }
}

/** A nonce as the SDK makes them is 32 hex digits; CAIP-122 allows 8 or more letters and digits. Longer than this is no nonce of a challenge. */
const NONCE = /^[A-Za-z0-9]{8,64}$/;

/**
 * The wallet a proof signs in, its address lower case (as the ledger keeps payers). Throws
 * SignInRefusedError with the reason.
 */
export async function verifySignInProof({
  db,
  header,
  publicUrl,
  network,
  verifyOnChain,
}: {
  db: Queryable;
  header: string;
  publicUrl: string;
  network: string;
  /** The chain's judgement of a signature (ChainReader.verifyMessage); throws when the chain cannot be reached. */
  verifyOnChain: (args: { address: `0x${string}`; message: string; signature: `0x${string}` }) => Promise<boolean>;
}): Promise<string> {
  let payload: SIWxPayload;
  try {
    payload = parseSIWxHeader(header);
  } catch (err) {
    throw new SignInRefusedError("invalid_siwx_header", err instanceof Error ? err.message : "not a sign-in-with-x proof");
  }
  if (payload.chainId !== network) {
    throw new SignInRefusedError("invalid_siwx_unsupported_chain", `signed for ${payload.chainId}; this service signs in wallets of ${network}`);
  }
  const validation = await validateSIWxMessage(payload, new URL(publicUrl), { maxAge: CHALLENGE_SECONDS * 1000 });
  if (!validation.isValid) throw new SignInRefusedError(validation.invalidReason, validation.invalidMessage);
  if (!NONCE.test(payload.nonce)) throw new SignInRefusedError("invalid_siwx_nonce", "a nonce is 8 to 64 letters or digits");
  let verified: Awaited<ReturnType<typeof verifySIWxSignature>>;
  let unreachable: unknown = null;
  try {
    verified = await verifySIWxSignature(payload);
    if (!verified.isValid) {
      // Not the address's own key: perhaps a contract wallet's. The SDK reads any error of the
      // verifier as a bad signature, so the chain's being out of reach is caught here and said.
      verified = await verifySIWxSignature(payload, {
        evmVerifier: (args) =>
          verifyOnChain(args).catch((err: unknown) => {
            unreachable = err;
            throw err;
          }),
      });
    }
  } catch (err) {
    // The SDK rebuilds the signed message before its own try: a field no message can hold throws.
    throw new SignInRefusedError("invalid_siwx_header", err instanceof Error ? err.message : "the proof's fields make no message");
  }
  if (!verified.isValid && unreachable !== null) {
    // Said as it is (a 429 of the bounded check, with its Retry-After); anything else is the chain out of reach.
    if (unreachable instanceof ApiError) throw unreachable;
    throw new ApiError("unavailable", "The chain could not be reached to check a contract wallet's signature; send the proof again shortly", {
      reason: "chain_unavailable",
      message: unreachable instanceof Error ? unreachable.message.slice(0, 200) : String(unreachable),
      headers: { "retry-after": "5" },
    });
  }
  if (!verified.isValid) throw new SignInRefusedError(verified.invalidReason, verified.invalidMessage);
  await spendNonce({ db, nonce: payload.nonce, issuedAt: payload.issuedAt });
  return verified.payer.toLowerCase();
}

/**
 * Spends a proof's nonce: kept until no proof could carry it any more (five minutes after it was
 * issued, when the SDK's check refuses it anyway), then swept (lib/gateway/lifecycle/sweep.ts).
 */
async function spendNonce({ db, nonce, issuedAt }: { db: Queryable; nonce: string; issuedAt: string }): Promise<void> {
  const expiresAt = new Date(Date.parse(issuedAt) + CHALLENGE_SECONDS * 1000);
  const { rowCount } = await db.query("INSERT INTO gateway.sign_in_nonces (nonce, expires_at) VALUES ($1, $2) ON CONFLICT (nonce) DO NOTHING", [nonce, expiresAt]);
  if (!rowCount) throw new SignInRefusedError("invalid_siwx_nonce", "this proof's nonce was used already: sign a new challenge");
}
