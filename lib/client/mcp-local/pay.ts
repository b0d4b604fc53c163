import { decodePaymentRequiredHeader, decodePaymentResponseHeader } from "@x402/core/http";
import type { PaymentRequired, SettleResponse } from "@x402/core/types";
import { extractReceiptFromResponse, type SignedReceipt } from "@x402/extensions/offer-receipt";
import { asyncPollingSchema, type AsyncPolling } from "@/lib/shared/discovery/polling";
import { paymentRequiredBodySchema, type PaymentRequiredBody } from "@/lib/shared/contracts/payment";
import { exactEvmPayloadSchema } from "@/lib/shared/payments/exact-payload";
import { verifyOffer } from "@/lib/client/offer-receipt/verify";
import { createPayingFetch } from "@/lib/client/payments/client";
import type { PaidOperation } from "@/lib/shared/operations";
import type { LocalMcpConfig } from "@/lib/client/mcp-local/config";
import { requirementProblem, type PaymentTerms } from "@/lib/client/mcp-local/payment-terms";
import { SpendCapError, type ChainFor, type SpendLedger } from "@/lib/client/mcp-local/spend-ledger";
import { isRecord } from "@/lib/shared/narrow";

/**
 * One paid request of the local MCP server: POST the operation's route with the official x402
 * client (`createPayingFetch`: @x402/fetch over @x402/core and the exact EVM scheme), which
 * answers the 402 by signing. Before it signs, the client's own hooks hold it to what the user
 * allowed: a policy drops every requirement for another network, token or payee, above the tool's
 * price or the per-call cap, or valid longer than the tool needs (lib/client/mcp-local/payment-terms.ts),
 * and the last hook before signing reserves the amount in the spend ledger, which refuses it past
 * the daily cap (after asking the chain which earlier authorizations expired unused). The
 * official client's spend controls cap each payment at the per-call cap as well. Once signed, and
 * before it is sent, the authorization is recorded; what the answer says of it is then recorded
 * too (charged, authorized, refused, uncertain), but it counts against the caps until the chain
 * shows it expired unused, whatever the service says. When the service publishes the keys that
 * sign its offers (x402 offer-and-receipt), the requirement must also be the terms of an offer one
 * of them signed, or nothing is signed. A call whose answer was lost after payment asks again under
 * the same payment-identifier (lib/client/payments/named-payments.ts), signing anew: each signature is
 * reserved and recorded, and the service's outcome is the payment it answered for (an answer it
 * replays is the first signature's, else the last's); the others stay `uncertain`, counted, until
 * the chain shows them unused.
 */

/** Seconds between reserving and the scheme's reading of the clock when it signs (validBefore = now + maxTimeoutSeconds). */
const SIGNING_SLACK_SECONDS = 60;

/** A failure to show the caller as the tool's error, its message written for a person. */
export class LocalToolError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "LocalToolError";
  }
}

export type PaidAnswer = {
  /** The route's status and JSON body (an object; `{}` when it sent none). */
  status: number;
  body: Record<string, unknown>;
  /** The decoded PAYMENT-RESPONSE, when the service settled the payment with this answer. */
  settlement: SettleResponse | null;
  /** The polling guidance of the route's 402 (its bazaar extension), when it served one. */
  polling: AsyncPolling | null;
  /** The price asked, in base units (0 when the route answered without a 402). */
  amount: bigint;
  /**
   * What the service said of the payment: `none` (the route answered without asking for one),
   * `charged`, `authorized` (settled on delivery), `refused` (an error saying nothing was charged:
   * the signature still counts against the caps until it expires unused) or `uncertain` (signed
   * and sent, no clear answer).
   */
  outcome: "none" | "charged" | "authorized" | "refused" | "uncertain";
  /** When a signed authorization stops being settleable (seconds since the epoch). */
  validBefore: number | null;
  payer: string;
  /** The resource the 402 named, which the signed offer and the receipt name too. */
  resourceUrl: string | null;
  /** The signed receipt PAYMENT-RESPONSE carried (x402 offer-and-receipt), unverified. */
  receipt: SignedReceipt | null;
  /** The spend ledger's entry of the payment the service answered for. */
  spendEntryId: string | null;
};

async function jsonObject(response: Response): Promise<Record<string, unknown>> {
  const body: unknown = await response.json().catch(() => ({}));
  return isRecord(body) ? body : { value: body };
}

/** What this module reads of a 402: its requirements, its resource and its extensions. */
type Offered = Pick<PaymentRequired | PaymentRequiredBody, "accepts" | "resource" | "extensions">;

/**
 * The 402's requirements, from its body where it holds them (read as the contract's 402 body):
 * the body carries the polling guidance of the bazaar extension, which PAYMENT-REQUIRED leaves out
 * to stay small (docs/payments.md, "Headers that fit"); the header otherwise. What is signed is
 * the official client's reading.
 */
async function readPaymentRequired(response: Response): Promise<Offered | null> {
  const body = paymentRequiredBodySchema.safeParse(await response.clone().json().catch(() => null));
  if (body.success) return body.data;
  const header = response.headers.get("payment-required");
  try {
    return header ? decodePaymentRequiredHeader(header) : null;
  } catch {
    return null;
  }
}

function pollingOf(required: Offered | null): AsyncPolling | null {
  const bazaar = required?.extensions?.bazaar;
  const output = isRecord(bazaar) && isRecord(bazaar.info) && isRecord(bazaar.info.output) ? bazaar.info.output : {};
  const parsed = asyncPollingSchema.safeParse(output.asyncPolling);
  return parsed.success ? parsed.data : null;
}

/**
 * Pays for `body` at `operation`'s route and returns the route's answer. Throws LocalToolError
 * when nothing could be paid: no key, untrusted terms, a refused requirement or a cap (each
 * before anything is signed), or the service unreachable.
 */
export async function payForOperation({
  config,
  ledger,
  terms,
  chainFor,
  offerSigners,
  tool,
  operation,
  body,
  signal,
}: {
  config: LocalMcpConfig;
  ledger: SpendLedger;
  terms: PaymentTerms;
  /** Where to ask which earlier authorizations expired unused. */
  chainFor: ChainFor;
  /** The keys the service publishes as signers of its offers; null when it publishes none (or they cannot be read). */
  offerSigners: readonly string[] | null;
  tool: string;
  operation: PaidOperation;
  body: unknown;
  signal?: AbortSignal;
}): Promise<PaidAnswer> {
  if (!config.privateKey) {
    throw new LocalToolError(
      `${tool} costs ${operation.price}, and this MCP server has no key to pay with: set LONGEVITY_MCP_PRIVATE_KEY in its configuration (the free status tools work without it).`,
    );
  }
  let destination;
  try {
    destination = await terms.destination();
  } catch (err) {
    throw new LocalToolError(err instanceof Error ? err.message : String(err));
  }
  const problemOf = (requirement: Offered["accepts"][number]) =>
    requirementProblem(requirement, { destination, operation, maxPerCall: config.maxPerCall, tool });

  // Held in an object: the fetch below sets it, out of the compiler's sight.
  const seen: { required: Offered | null } = { required: null };
  const observe: typeof fetch = async (input, init) => {
    const request = new Request(input, init);
    const response = await fetch(request);
    if (response.status === 402 && !request.headers.has("payment-signature")) seen.required = await readPaymentRequired(response);
    return response;
  };
  const paying = createPayingFetch({
    privateKey: config.privateKey,
    network: destination.network,
    asset: destination.asset,
    maxAmount: config.maxPerCall.toString(),
    fetchImpl: observe,
  });
  // Every payment this call reserved, in order, and those it signed (more than one only when an answer was lost).
  const reservations: string[] = [];
  const signedOnes: { id: string; validBefore: number }[] = [];
  let amount = 0n;
  let refusal: string | null = null;
  paying.client
    .registerPolicy((_version, requirements) => requirements.filter((r) => problemOf(r) === null))
    .onBeforePaymentCreation(async ({ paymentRequired, selectedRequirements }) => {
      // The policy already dropped such a requirement; checked again where the signature starts.
      const problem = problemOf(selectedRequirements);
      if (problem) return { abort: true, reason: (refusal = `Refused before signing: the service's payment request ${problem}.`) };
      if (offerSigners && offerSigners.length > 0) {
        const offer = await verifyOffer({ paymentRequired, requirements: selectedRequirements, signers: offerSigners });
        if (!offer.ok) return { abort: true, reason: (refusal = `Refused before signing: the service's payment request ${offer.problem}.`) };
      }
      try {
        amount = BigInt(selectedRequirements.amount);
        await ledger.releaseExpired(chainFor);
        const latest = Math.floor(Date.now() / 1000) + selectedRequirements.maxTimeoutSeconds + SIGNING_SLACK_SECONDS;
        reservations.push((await ledger.reserve({ tool, amount, validBefore: latest })).id);
      } catch (err) {
        refusal = err instanceof SpendCapError ? err.message : `Refused before signing: the spend ledger cannot be used: ${err instanceof Error ? err.message : String(err)}`;
        return { abort: true, reason: refusal };
      }
    })
    .onAfterPaymentCreation(async ({ paymentPayload, selectedRequirements }) => {
      // Recorded before it is sent (a failure here stops the request): a signature the ledger
      // does not know of could be settled unseen.
      const signed = exactEvmPayloadSchema.safeParse(paymentPayload.payload);
      const auth = signed.success ? signed.data.authorization : undefined;
      const until = Number(auth?.validBefore);
      if (!auth || !(until <= Math.floor(Date.now() / 1000) + operation.maxTimeoutSeconds + SIGNING_SLACK_SECONDS)) {
        throw new Error(`the signed authorization is not an EIP-3009 one valid at most ${operation.maxTimeoutSeconds} s`);
      }
      const id = reservations.at(-1)!;
      await ledger.signed(id, { payer: auth.from, nonce: auth.nonce, asset: selectedRequirements.asset, network: selectedRequirements.network, validBefore: until });
      signedOnes.push({ id, validBefore: until });
    });
  const unsigned = () => reservations.filter((id) => !signedOnes.some((s) => s.id === id));

  let response: Response;
  try {
    response = await paying.fetch(`${config.baseUrl}${operation.path}`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json" },
      body: JSON.stringify(body),
      signal,
    });
  } catch (err) {
    for (const id of unsigned()) await ledger.releaseUnsigned(id);
    for (const { id } of signedOnes) await ledger.mark(id, { state: "uncertain" });
    if (refusal) throw new LocalToolError(refusal);
    const problems = seen.required ? seen.required.accepts.map(problemOf).filter((p): p is string => p !== null) : [];
    if (signedOnes.length === 0 && problems.length > 0) throw new LocalToolError(`Refused before signing: the service's payment request ${problems.join("; and ")}.`);
    const what = signedOnes.length > 0 ? "The payment was signed and sent, but no answer came back" : "Nothing was paid";
    throw new LocalToolError(`${what} (${config.baseUrl}${operation.path}: ${err instanceof Error ? err.message : String(err)}).`);
  }

  const answer = await jsonObject(response);
  const header = response.headers.get("payment-response");
  const settlement = header ? decodePaymentResponseHeader(header) : null;
  for (const id of unsigned()) await ledger.releaseUnsigned(id);
  // The payment the service answered for: a replayed answer is the first signature's (the id named it), else the last's.
  const answered = response.headers.get("x-payment-replayed") === "true" ? signedOnes[0] : signedOnes.at(-1);
  for (const { id } of signedOnes.filter((s) => s !== answered)) await ledger.mark(id, { state: "uncertain" });
  let outcome: PaidAnswer["outcome"] = "none";
  if (answered) {
    if (settlement?.success) outcome = "charged";
    else if (settlement || (response.status >= 400 && response.status < 500) || answer.charged === false) outcome = "refused";
    else if (response.status < 300 && operation.settlement === "deferred") outcome = "authorized";
    else outcome = "uncertain";
    if (outcome === "charged") await ledger.mark(answered.id, { state: "charged", transaction: settlement!.transaction, network: settlement!.network });
    else if (outcome === "authorized") {
      await ledger.mark(answered.id, { state: "authorized", conversationId: String(answer.conversationId ?? ""), messageId: String(answer.messageId ?? ""), ...(resourceUrl() ? { resourceUrl: resourceUrl()! } : {}) });
    } else await ledger.mark(answered.id, { state: outcome });
  }
  return {
    status: response.status,
    body: answer,
    settlement,
    polling: pollingOf(seen.required),
    amount,
    outcome,
    validBefore: answered?.validBefore ?? null,
    payer: paying.address,
    resourceUrl: resourceUrl(),
    receipt: settlement?.success ? (extractReceiptFromResponse(response) ?? null) : null,
    spendEntryId: answered?.id ?? null,
  };

  function resourceUrl(): string | null {
    return seen.required?.resource?.url ?? null;
  }
}
