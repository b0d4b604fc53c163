import { decodePaymentRequiredHeader, decodePaymentResponseHeader } from "@x402/core/http";
import type { PaymentRequired, SettleResponse } from "@x402/core/types";
import { asyncPollingSchema, type AsyncPolling } from "@/lib/discovery/polling";
import { createPayingFetch } from "@/lib/payments/client";
import type { PaidOperation } from "@/lib/operations";
import type { LocalMcpConfig } from "./config";
import { requirementProblem, type PaymentTerms } from "./payment-terms";
import { SpendCapError, type ChainFor, type SpendLedger } from "./spend-ledger";

/**
 * One paid request of the local MCP server: POST the operation's route with the official x402
 * client (`createPayingFetch`: @x402/fetch over @x402/core and the exact EVM scheme), which
 * answers the 402 by signing. Before it signs, the client's own hooks hold it to what the user
 * allowed: a policy drops every requirement for another network, token or payee, above the tool's
 * price or the per-call cap, or valid longer than the tool needs (lib/mcp/local/payment-terms.ts),
 * and the last hook before signing reserves the amount in the spend ledger, which refuses it past
 * the daily cap (after asking the chain which earlier authorizations expired unused). The
 * official client's spend controls cap each payment at the per-call cap as well. Once signed, and
 * before it is sent, the authorization is recorded; what the answer says of it is then recorded
 * too (charged, authorized, refused, uncertain), but it counts against the caps until the chain
 * shows it expired unused, whatever the service says.
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
};

async function jsonObject(response: Response): Promise<Record<string, unknown>> {
  const body: unknown = await response.json().catch(() => ({}));
  return typeof body === "object" && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : { value: body };
}

/**
 * The 402's requirements, from its body where it holds them: the body carries the polling guidance
 * of the bazaar extension, which PAYMENT-REQUIRED leaves out to stay small (docs/payments.md,
 * "Headers that fit"); the header otherwise. What is signed is the official client's reading.
 */
async function readPaymentRequired(response: Response): Promise<PaymentRequired | null> {
  try {
    const body = (await response.clone().json()) as PaymentRequired;
    if (Array.isArray(body?.accepts)) return body;
  } catch {
    // not JSON: the header, if any
  }
  const header = response.headers.get("payment-required");
  try {
    return header ? decodePaymentRequiredHeader(header) : null;
  } catch {
    return null;
  }
}

function pollingOf(required: PaymentRequired | null): AsyncPolling | null {
  const bazaar = required?.extensions?.bazaar as { info?: { output?: { asyncPolling?: unknown } } } | undefined;
  const parsed = asyncPollingSchema.safeParse(bazaar?.info?.output?.asyncPolling);
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
    throw new LocalToolError((err as Error).message);
  }
  const problemOf = (requirement: PaymentRequired["accepts"][number]) =>
    requirementProblem(requirement, { destination, operation, maxPerCall: config.maxPerCall, tool });

  let required: PaymentRequired | null = null;
  const observe: typeof fetch = async (input, init) => {
    const request = new Request(input, init);
    const response = await fetch(request);
    if (response.status === 402 && !request.headers.has("payment-signature")) required = await readPaymentRequired(response);
    return response;
  };
  const paying = createPayingFetch({
    privateKey: config.privateKey,
    network: destination.network,
    asset: destination.asset,
    maxAmount: config.maxPerCall.toString(),
    fetchImpl: observe,
  });
  let reservation: string | null = null;
  let amount = 0n;
  let signed = false;
  let validBefore: number | null = null;
  let refusal: string | null = null;
  paying.client
    .registerPolicy((_version, requirements) => requirements.filter((r) => problemOf(r) === null))
    .onBeforePaymentCreation(async ({ selectedRequirements }) => {
      // The policy already dropped such a requirement; checked again where the signature starts.
      const problem = problemOf(selectedRequirements);
      if (problem) return { abort: true, reason: (refusal = `Refused before signing: the service's payment request ${problem}.`) };
      try {
        amount = BigInt(selectedRequirements.amount);
        await ledger.releaseExpired(chainFor);
        const latest = Math.floor(Date.now() / 1000) + selectedRequirements.maxTimeoutSeconds + SIGNING_SLACK_SECONDS;
        reservation = (await ledger.reserve({ tool, amount, validBefore: latest })).id;
      } catch (err) {
        refusal = err instanceof SpendCapError ? err.message : `Refused before signing: the spend ledger cannot be used: ${(err as Error).message}`;
        return { abort: true, reason: refusal };
      }
    })
    .onAfterPaymentCreation(async ({ paymentPayload, selectedRequirements }) => {
      // Recorded before it is sent (a failure here stops the request): a signature the ledger
      // does not know of could be settled unseen.
      const auth = (paymentPayload.payload as { authorization?: { from?: string; nonce?: string; validBefore?: string } }).authorization;
      const until = Number(auth?.validBefore);
      if (!auth?.from || !auth.nonce || !(until <= Math.floor(Date.now() / 1000) + operation.maxTimeoutSeconds + SIGNING_SLACK_SECONDS)) {
        throw new Error(`the signed authorization is not an EIP-3009 one valid at most ${operation.maxTimeoutSeconds} s`);
      }
      await ledger.signed(reservation!, { payer: auth.from, nonce: auth.nonce, asset: selectedRequirements.asset, network: selectedRequirements.network, validBefore: until });
      validBefore = until;
      signed = true;
    });

  let response: Response;
  try {
    response = await paying.fetch(`${config.baseUrl}${operation.path}`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json" },
      body: JSON.stringify(body),
      signal,
    });
  } catch (err) {
    if (reservation && !signed) await ledger.releaseUnsigned(reservation);
    else if (reservation) await ledger.mark(reservation, { state: "uncertain" });
    if (refusal) throw new LocalToolError(refusal);
    const offered = required as PaymentRequired | null;
    const problems = offered ? offered.accepts.map(problemOf).filter((p): p is string => p !== null) : [];
    if (!signed && problems.length > 0) throw new LocalToolError(`Refused before signing: the service's payment request ${problems.join("; and ")}.`);
    const what = signed ? "The payment was signed and sent, but no answer came back" : "Nothing was paid";
    throw new LocalToolError(`${what} (${config.baseUrl}${operation.path}: ${(err as Error).message}).`);
  }

  const answer = await jsonObject(response);
  const header = response.headers.get("payment-response");
  const settlement = header ? decodePaymentResponseHeader(header) : null;
  let outcome: PaidAnswer["outcome"] = "none";
  if (reservation) {
    if (settlement?.success) outcome = "charged";
    else if (settlement || (response.status >= 400 && response.status < 500) || answer.charged === false) outcome = "refused";
    else if (response.status < 300 && operation.settlement === "deferred") outcome = "authorized";
    else outcome = "uncertain";
    if (outcome === "charged") await ledger.mark(reservation, { state: "charged", transaction: settlement!.transaction, network: settlement!.network });
    else if (outcome === "authorized") await ledger.mark(reservation, { state: "authorized", conversationId: String(answer.conversationId ?? ""), messageId: String(answer.messageId ?? "") });
    else await ledger.mark(reservation, { state: outcome });
  }
  return { status: response.status, body: answer, settlement, polling: pollingOf(required), amount, outcome, validBefore: validBefore as number | null, payer: paying.address };
}
