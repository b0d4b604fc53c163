import { x402Client } from "@x402/core/client";
import { decodePaymentRequiredHeader } from "@x402/core/http";
import {
  createSIWxClientExtension,
  createSIWxMessage,
  encodeSIWxHeader,
  SIGN_IN_WITH_X,
  type CompleteSIWxInfo,
  type SIWxExtension,
  type SIWxPayload,
} from "@x402/extensions/sign-in-with-x";
import { wrapFetchWithPayment } from "@x402/fetch";
import type { Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";

/**
 * x402 sign-in-with-x as clients do it: the official client (`createSIWxClientExtension` on an
 * `x402Client`, `wrapFetchWithPayment`) answering a sign-in 402 by signing its challenge; and,
 * for the attacks, proofs written by hand from a real challenge (the SDK's own message format),
 * signed by whichever key the attacker holds, with any field changed first.
 */

/** A fetch that answers a sign-in 402 by signing its challenge with `privateKey` (the official client; it never pays). */
export function signingInFetch(privateKey: Hex, transport: typeof fetch): typeof fetch {
  const client = new x402Client().registerExtension(createSIWxClientExtension({ signers: [privateKeyToAccount(privateKey)] }));
  return wrapFetchWithPayment(transport, client) as typeof fetch;
}

/** The sign-in-with-x challenge of `url`'s 402, from its PAYMENT-REQUIRED header. */
export async function challengeOf(url: string, transport: typeof fetch): Promise<SIWxExtension> {
  const response = await transport(url);
  if (response.status !== 402) throw new Error(`expected a 402 challenge from ${url}, got ${response.status}`);
  const required = decodePaymentRequiredHeader(response.headers.get("payment-required")!);
  const challenge = required.extensions?.[SIGN_IN_WITH_X] as SIWxExtension | undefined;
  if (!challenge) throw new Error(`the 402 of ${url} declares no ${SIGN_IN_WITH_X}`);
  return challenge;
}

/**
 * A SIGN-IN-WITH-X header for `challenge` (its first supported chain), with `changes` made to the
 * message before it is signed by `signer` and `after` to the payload after (a tampered field);
 * `address` is the address the proof claims (the signer's unless an attacker says otherwise).
 */
export async function proofFor(
  challenge: SIWxExtension,
  {
    signer,
    address,
    changes = {},
    after = {},
  }: { signer: Hex; address?: string; changes?: Partial<CompleteSIWxInfo>; after?: Partial<SIWxPayload> },
): Promise<string> {
  const account = privateKeyToAccount(signer);
  const chain = challenge.supportedChains[0]!;
  const info: CompleteSIWxInfo = { ...challenge.info, chainId: chain.chainId, type: chain.type, ...changes };
  const claimed = address ?? account.address;
  const signature = await account.signMessage({ message: createSIWxMessage(info, claimed) });
  const payload: SIWxPayload = {
    domain: info.domain,
    address: claimed,
    statement: info.statement,
    uri: info.uri,
    version: info.version,
    chainId: info.chainId,
    type: info.type,
    nonce: info.nonce,
    issuedAt: info.issuedAt,
    expirationTime: info.expirationTime,
    notBefore: info.notBefore,
    requestId: info.requestId,
    resources: info.resources,
    signature,
    ...after,
  };
  return encodeSIWxHeader(payload);
}
