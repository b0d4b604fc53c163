import type { PaymentRequired, PaymentRequirements } from "@x402/core/types";
import {
  decodeSignedOffers,
  extractOffersFromPaymentRequired,
  findAcceptsObjectFromSignedOffer,
  isEIP712SignedOffer,
  verifyOfferSignatureEIP712,
  verifyReceiptSignatureEIP712,
  type OfferPayload,
  type ReceiptPayload,
} from "@x402/extensions/offer-receipt";
import { publishedSignersSchema, signedReceiptSchema } from "@/lib/shared/contracts/offer-receipt";
import { isRecord } from "@/lib/shared/narrow";

/**
 * What a paying client checks of x402 offers and receipts (x402 `specs/extensions/
 * extension-offer-and-receipt.md` §4.5, §5.5), with the SDK's helpers: the signature recovers to a
 * key the service publishes at /.well-known/x402.json (its signer authorization, §4.5.1), and the
 * signed payload is exactly what the client pays for, or paid: an offer's terms are the
 * requirement it signs, for the resource it asked; a receipt names this payment's transaction,
 * payer, network and resource. Anything else is refused, with what was wrong in words.
 */

/**
 * Why something was refused: none came, a format this client cannot check, a signature that does
 * not verify, a signer the service does not publish (which fresher signers could change: a key
 * rotated in), or a signed payload that is not what was paid for.
 */
type Refusal = "missing" | "format" | "signature" | "unknown_signer" | "mismatch";
export type Verdict<T> = ({ ok: true; signer: string } & T) | { ok: false; kind: Refusal; problem: string };

const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/**
 * The addresses a service publishes as signers of its offers and receipts (current and previous),
 * read from its /.well-known/x402.json; an empty list when it publishes none.
 * @throws when the manifest cannot be read, or its `offer-receipt` block is malformed
 */
export async function fetchPublishedSigners(baseUrl: string, fetchImpl: typeof fetch = fetch): Promise<string[]> {
  const response = await fetchImpl(`${baseUrl}/.well-known/x402.json`, { signal: AbortSignal.timeout(15_000) });
  if (!response.ok) throw new Error(`${baseUrl}/.well-known/x402.json answered ${response.status}`);
  const manifest: unknown = await response.json();
  if (!isRecord(manifest)) throw new Error(`${baseUrl}/.well-known/x402.json is not a JSON object`);
  if (manifest["offer-receipt"] === undefined) return [];
  return publishedSignersSchema.parse(manifest["offer-receipt"]).signers.map((s) => s.address);
}

/** The keys a service publishes, read once and again only when a receipt names one not among them (a key rotated in). */
export class ServiceSigners {
  private known: Promise<string[]> | null = null;

  constructor(
    private readonly baseUrl: string,
    private readonly fetchImpl: typeof fetch = fetch,
  ) {}

  /** The published keys, as last read. @throws when /.well-known/x402.json cannot be read */
  current(): Promise<string[]> {
    this.known ??= fetchPublishedSigners(this.baseUrl, this.fetchImpl).catch((err: unknown) => {
      this.known = null;
      throw err;
    });
    return this.known;
  }

  /** The published keys, read again. */
  refreshed(): Promise<string[]> {
    this.known = null;
    return this.current();
  }
}

/**
 * Whether `requirements`, about to be signed, are the terms of an offer in `paymentRequired`
 * signed by one of `signers`, for the resource the 402 names. An offer altered in flight (terms,
 * resource or signature), one signed by another key, or none at all is refused.
 */
export async function verifyOffer({
  paymentRequired,
  requirements,
  signers,
}: {
  paymentRequired: PaymentRequired;
  requirements: PaymentRequirements;
  signers: readonly string[];
}): Promise<Verdict<{ offer: OfferPayload }>> {
  const offers = extractOffersFromPaymentRequired(paymentRequired);
  if (offers.length === 0) return { ok: false, kind: "missing", problem: "carries no signed offer (x402 offer-and-receipt), though the service signs its offers" };
  const problems: { kind: Refusal; problem: string }[] = [];
  for (const decoded of decodeSignedOffers(offers)) {
    if (!isEIP712SignedOffer(decoded.signedOffer)) {
      problems.push({ kind: "format", problem: `an offer is in the ${decoded.format} format, not the EIP-712 the service publishes keys for` });
      continue;
    }
    if (!findAcceptsObjectFromSignedOffer(decoded.signedOffer, [requirements])) continue;
    if (decoded.resourceUrl !== paymentRequired.resource?.url) {
      problems.push({ kind: "mismatch", problem: `the signed offer is for ${decoded.resourceUrl}, not ${paymentRequired.resource?.url}` });
      continue;
    }
    let signer: string;
    try {
      signer = (await verifyOfferSignatureEIP712(decoded.signedOffer)).signer;
    } catch (err) {
      problems.push({ kind: "signature", problem: `the offer's signature does not verify (${(err instanceof Error ? err.message : String(err)).split("\n")[0]})` });
      continue;
    }
    if (!signers.some((s) => same(s, signer))) {
      problems.push({ kind: "unknown_signer", problem: `the offer for these terms is signed by ${signer}, not by a key the service publishes (${signers.join(", ") || "none"})` });
      continue;
    }
    return { ok: true, signer, offer: decoded.signedOffer.payload };
  }
  if (problems.length === 0) return { ok: false, kind: "mismatch", problem: "asks terms that no offer signed by the service states (altered in flight?)" };
  return { ok: false, kind: problems[0]!.kind, problem: problems.map((p) => p.problem).join("; ") };
}

/** What a receipt must say: the payment the client made, or saw settled. */
export type ExpectedReceipt = { resourceUrl: string; payer: string; network: string; transaction: string };

/**
 * Whether `receipt` is the service's signed receipt for exactly the payment `expected` describes:
 * an EIP-712 signature recovering to one of `signers`, over a payload naming that transaction,
 * payer, network and resource. A tampered payload, another key's signature, or a genuine receipt
 * of another payment or resource is refused.
 */
export async function verifyReceipt({
  receipt,
  signers,
  expected,
}: {
  receipt: unknown;
  signers: readonly string[];
  expected: ExpectedReceipt;
}): Promise<Verdict<{ payload: ReceiptPayload }>> {
  if (receipt === undefined || receipt === null) return { ok: false, kind: "missing", problem: "no signed receipt came with the settlement" };
  const read = signedReceiptSchema.safeParse(receipt);
  if (!read.success) {
    const format = isRecord(receipt) ? receipt.format : undefined;
    if (format !== "eip712") return { ok: false, kind: "format", problem: `the receipt is in the ${String(format)} format, not the EIP-712 the service publishes keys for` };
    const issue = read.error.issues[0];
    return { ok: false, kind: "format", problem: `the receipt is not one the service signs (${issue ? `${issue.path.map(String).join(".")}: ${issue.message}` : "malformed"})` };
  }
  const signed = read.data;
  let recovered: { signer: string; payload: ReceiptPayload };
  try {
    recovered = await verifyReceiptSignatureEIP712(signed);
  } catch (err) {
    return { ok: false, kind: "signature", problem: `the receipt's signature does not verify (${(err instanceof Error ? err.message : String(err)).split("\n")[0]})` };
  }
  const { signer, payload } = recovered;
  if (!signers.some((s) => same(s, signer))) {
    return { ok: false, kind: "unknown_signer", problem: `the receipt is signed by ${signer}, not by a key the service publishes (${signers.join(", ") || "none"}): altered, or forged` };
  }
  const mismatches = [
    payload.version !== 1 ? `version ${String(payload.version)}` : null,
    payload.resourceUrl !== expected.resourceUrl ? `resource ${payload.resourceUrl}, not ${expected.resourceUrl}` : null,
    payload.network !== expected.network ? `network ${payload.network}, not ${expected.network}` : null,
    !same(payload.payer, expected.payer) ? `payer ${payload.payer}, not ${expected.payer}` : null,
    !same(payload.transaction ?? "", expected.transaction) ? `transaction ${payload.transaction || "(none)"}, not ${expected.transaction}` : null,
  ].filter((m): m is string => m !== null);
  if (mismatches.length > 0) return { ok: false, kind: "mismatch", problem: `the receipt is for another payment: ${mismatches.join("; ")}` };
  return { ok: true, signer, payload };
}

/**
 * A receipt checked against the keys `signers` lists, read again once when it names a key they
 * do not list (a key rotated in since they were read).
 */
export async function checkReceipt({ receipt, expected, signers }: { receipt: unknown; expected: ExpectedReceipt; signers: ServiceSigners }): Promise<Verdict<{ payload: ReceiptPayload }>> {
  const verdict = await verifyReceipt({ receipt, signers: await signers.current(), expected });
  if (!verdict.ok && verdict.kind === "unknown_signer") return verifyReceipt({ receipt, signers: await signers.refreshed(), expected });
  return verdict;
}
