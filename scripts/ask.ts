/**
 * `npm run ask -- <chat|literature|deep-research> "question"`: a paying command-line client for
 * people and agents. It pays with the official x402 client (@x402/fetch), then follows the polling
 * route at the contract's pace and prints the result.
 *
 * Configuration (environment):
 *   GATEWAY_URL          the gateway (default: gatewayUrl of .demo/stack.json, else http://localhost:3000)
 *   PAYER_PRIVATE_KEY    the paying wallet's key (default: the demo's first local test wallet)
 *   MAX_PAYMENT          refuse to pay more than this many base units (default 1000000 = $1.00)
 *   LONGEVITY_MCP_STATE_DIR  where receipts are kept, beside the local MCP server's spend ledger
 *                        (default: the MCP server's state directory, ~/.local/state/longevity-mcp)
 *   TRUSTED_ENCLAVE_REPO         the same as --enclave-repo (private mode)
 *   TRUSTED_ENCLAVE_MEASUREMENT  the same as --enclave-measurement
 *   ENCLAVE_REQUIRE_ATTESTATION=1  the same as --require-attestation
 * Options: --conversation <id> continues a chat or deep-research conversation (one this payer
 * started: the gateway refuses another payer's); --json prints raw JSON;
 * --private seals the request to the enclave's key (GET /api/enclave-key), pays the encrypted
 * route (chat, literature or deep research), follows it and opens the sealed answer locally: the
 * gateway never sees either; --recovery-key <key> (with --private) continues a private chat
 * conversation or names the key of a private deep-research run; `new` creates a key and prints it
 * (keep it: it is the only way back; private deep research creates one when none is given);
 * --enclave-repo owner/name names the GitHub repository whose signed release the enclave must run:
 * the key is then accepted only with Tinfoil attestation that verifies against that repository
 * (whatever repository the server names), and --enclave-measurement <hex> pins one release;
 * without a repository the key is used unattested, and --require-attestation refuses to run.
 * When the service publishes the keys that sign its offers and receipts (x402 offer-and-receipt, at
 * /.well-known/x402.json), nothing is paid but the terms of an offer they signed, and each settled
 * payment's receipt is verified and kept in receipts.json (lib/client/mcp-local/receipt-book.ts), or
 * reported as failing verification and never kept as proof.
 * The command line is read by scripts/lib/ask-options.ts.
 */
import fs from "node:fs";
import path from "node:path";
import { decodePaymentResponseHeader } from "@x402/core/http";
import { extractReceiptFromResponse } from "@x402/extensions/offer-receipt";
import { paymentRequiredBodySchema, recoveryKeySchema } from "../lib/shared/contracts";
import { createRecoveryKey, portablePrimitives, sealRequest } from "../lib/shared/sealing";
import { awaitPrivateChat, awaitPrivateDeepResearch, awaitPrivateLiterature, fetchEnclaveKey, startPrivate } from "../lib/client/sealing/client";
import { PrivateModeError } from "../lib/client/sealing/private-mode-error";
import { defaultStateDir } from "../lib/client/mcp-local/config";
import { ReceiptBook, receiptWords } from "../lib/client/mcp-local/receipt-book";
import { ServiceSigners } from "../lib/client/offer-receipt/verify";
import { createPayingFetch } from "../lib/client/payments/client";
import { poll, sleep } from "../lib/client/poll";
import type { EnclaveTrust } from "../lib/shared/sealing/trust";
import { AskUsageError, parseAskOptions, type AskKind, type AskOptions } from "./lib/ask-options";

const root = path.resolve(import.meta.dirname, "..");
type Kind = AskKind;

function readStack(): { gatewayUrl?: string; testWallets?: { privateKey: `0x${string}` }[] } {
  try {
    return JSON.parse(fs.readFileSync(path.join(path.resolve(root, process.env.DEMO_DIR ?? ".demo"), "stack.json"), "utf8"));
  } catch {
    return {};
  }
}

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

async function main(): Promise<void> {
  let options: AskOptions;
  try {
    options = parseAskOptions(process.argv.slice(2), process.env);
  } catch (err) {
    if (err instanceof AskUsageError) fail(err.message);
    throw err;
  }
  const { kind, question, json, isPrivate, conversationId, trust, requireAttestation } = options;
  let recoveryKey = options.recoveryKey;
  if (recoveryKey === "new" || (isPrivate && kind === "deep-research" && recoveryKey === undefined)) {
    recoveryKey = createRecoveryKey(portablePrimitives);
    console.error(`Recovery key (keep it secret; pass it again with --recovery-key to continue): ${recoveryKey}`);
  }
  if (recoveryKey !== undefined && !recoveryKeySchema.safeParse(recoveryKey).success) fail("--recovery-key must be a longevity_key_v1_ key, or `new`.");

  const stack = readStack();
  const gateway = (process.env.GATEWAY_URL ?? stack.gatewayUrl ?? "http://localhost:3000").replace(/\/+$/, "");
  const privateKey = (process.env.PAYER_PRIVATE_KEY ?? stack.testWallets?.[0]?.privateKey) as `0x${string}` | undefined;
  if (!privateKey) fail("No paying key: set PAYER_PRIVATE_KEY, or start `npm run demo`, which funds local test wallets.");

  if (isPrivate) return askPrivately({ kind, question, recoveryKey, gateway, privateKey, json, trust, requireAttestation });

  const path_ = kind === "chat" ? "/api/chat" : kind === "literature" ? "/api/literature" : "/api/deep-research/start";
  const body = kind === "literature" ? { question } : { message: question, ...(conversationId ? { conversationId } : {}) };

  const payFetch = await payingFetch(gateway, path_, body, privateKey);
  const response = await payFetch(`${gateway}${path_}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  const answer = (await response.json().catch(() => ({}))) as Record<string, unknown>;
  if (response.status >= 300) fail(`${response.status}: ${JSON.stringify(answer)}`);
  await reportPayment(response);
  const result = await follow(gateway, kind, answer);
  if (kind === "deep-research") await keepTurnReceipt(result);
  if (json) console.log(JSON.stringify(result, null, 2));
  else console.log(render(kind, result));
}

/**
 * Reads the price first (the client must know the network and token it may pay in), refuses one
 * above MAX_PAYMENT, and returns the official x402 client's paying fetch for it.
 */
async function payingFetch(gateway: string, path_: string, body: unknown, privateKey: `0x${string}`): Promise<typeof fetch> {
  const probe = await fetch(`${gateway}${path_}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) }).catch(
    (err: unknown) => fail(`Cannot reach ${gateway}: ${(err as Error).message}`),
  );
  if (probe.status !== 402) fail(`Expected a 402 with the price, got ${probe.status}: ${await probe.text()}`);
  const required = paymentRequiredBodySchema.parse(await probe.json());
  const requirement = required.accepts[0]!;
  const maxAmount = process.env.MAX_PAYMENT ?? "1000000";
  if (BigInt(requirement.amount) > BigInt(maxAmount)) fail(`The price ${requirement.amount} is above MAX_PAYMENT ${maxAmount}.`);
  console.error(`Paying ${Number(requirement.amount) / 1e6} USDC on ${requirement.network} for ${required.resource.description}…`);
  signers = new ServiceSigners(gateway);
  const keys = await signers.current().catch((err: unknown) => {
    console.error(`Note: the service's published keys could not be read (${(err as Error).message}): its offer is not checked, and its receipt cannot be verified.`);
    return [];
  });
  const paying = createPayingFetch({ privateKey, network: requirement.network, asset: requirement.asset, maxAmount, ...(keys.length > 0 ? { offerSigners: keys } : {}) });
  payer = paying.address;
  resourceUrl = required.resource.url;
  // A refusal before signing (an offer that is not the service's), or an answer lost for good, is said as it is, not as a crash.
  return (input, init) => paying.fetch(input, init).catch((err: unknown) => fail(`Paying failed: ${(err as Error).message}`));
}

let payer = "";
/** The resource the 402 named (its signed offer's, and its receipt's). */
let resourceUrl = "";
let signers: ServiceSigners | null = null;
const receipts = new ReceiptBook({ stateDir: path.resolve(process.env.LONGEVITY_MCP_STATE_DIR ?? defaultStateDir({ XDG_STATE_HOME: process.env.XDG_STATE_HOME, LOCALAPPDATA: process.env.LOCALAPPDATA })) });

async function reportPayment(response: Response): Promise<void> {
  const header = response.headers.get("payment-response");
  if (!header) {
    console.error(`Authorized from ${payer}; settled when the result is delivered.`);
    return;
  }
  const settlement = decodePaymentResponseHeader(header);
  console.error(`Paid from ${payer}: transaction ${settlement.transaction}`);
  await keepReceipt(extractReceiptFromResponse(response), { transaction: settlement.transaction, network: settlement.network });
}

/** A delivered deep-research turn's receipt (its `settlement`), once it is paid. */
async function keepTurnReceipt(conversation: Record<string, unknown>): Promise<void> {
  const settlement = ((conversation.turns ?? []) as { settlement?: { transaction: string; network: string; receipt?: unknown } }[]).at(-1)?.settlement;
  if (!settlement) return;
  console.error(`Paid on delivery from ${payer}: transaction ${settlement.transaction}`);
  await keepReceipt(settlement.receipt, settlement);
}

/** Verifies the service's receipt for this payment and keeps it (receipts.json), or says plainly that it failed. */
async function keepReceipt(receipt: unknown, { transaction, network }: { transaction: string; network: string }): Promise<void> {
  if (!signers || (await signers.current().catch(() => [])).length === 0) return;
  const verdict = await receipts.keep({ receipt, expected: { resourceUrl, payer, network, transaction }, signers });
  console.error(verdict.ok ? receiptWords(verdict, receipts.file) : `WARNING: ${receiptWords(verdict, receipts.file)}`);
}

/**
 * Private mode: fetch (and, when served, verify) the enclave key, seal, pay, follow, open. The
 * question, the answer and the recovery key exist in clear only in this process.
 */
async function askPrivately({
  kind,
  question,
  recoveryKey,
  gateway,
  privateKey,
  json,
  trust,
  requireAttestation,
}: {
  kind: Kind;
  question: string;
  recoveryKey: string | undefined;
  gateway: string;
  privateKey: `0x${string}`;
  json: boolean;
  trust: EnclaveTrust | null;
  requireAttestation: boolean;
}): Promise<void> {
  try {
    const enclave = await fetchEnclaveKey({ gateway }, { trust, requireAttestation });
    if (enclave.attested) {
      console.error(`The enclave's attestation verified against ${enclave.repo}${enclave.measurement ? ` (measurement ${enclave.measurement})` : ""} and binds this key.`);
    } else if (enclave.unverifiedAttestation) {
      console.error(
        "Note: the server sent attestation material, but this client trusts no enclave repository (--enclave-repo or TRUSTED_ENCLAVE_REPO), so it was not verified: this key is only as trustworthy as the server that serves it.",
      );
    } else {
      console.error("Note: this enclave key is not attested; it is only as trustworthy as the server that serves it.");
    }
    const plaintext =
      kind === "literature" ? { question, ...(recoveryKey ? { recoveryKey } : {}) } : { message: question, ...(recoveryKey ? { recoveryKey } : {}) };
    // The probe carries a throwaway sealed body: it only reads the price.
    const probeBody = sealRequest({ enclavePublicKey: enclave.publicKey, plaintext: {} }).envelope;
    const path_ = kind === "chat" ? "/api/chat/encrypted" : kind === "literature" ? "/api/literature/encrypted" : "/api/deep-research/encrypted";
    const payFetch = await payingFetch(gateway, path_, probeBody, privateKey);
    const onStatus = (status: string) => console.error(`… ${status}`);
    let result: unknown;
    let text: string;
    if (kind === "chat") {
      const started = await startPrivate("chat", { gateway, payFetch, enclave, plaintext });
      await reportPayment(started.response);
      const chat = await awaitPrivateChat(started, { gateway, onStatus });
      result = chat;
      text = renderPrivate(chat);
    } else if (kind === "literature") {
      const started = await startPrivate("literature", { gateway, payFetch, enclave, plaintext });
      await reportPayment(started.response);
      const literature = await awaitPrivateLiterature(started, { gateway, onStatus });
      result = literature;
      text = render("literature", literature);
    } else {
      const started = await startPrivate("deep-research", { gateway, payFetch, enclave, plaintext });
      await reportPayment(started.response);
      // The poll that releases the sealed answer carries its PAYMENT-RESPONSE, the receipt with it.
      let delivered: Response | null = null;
      const watching: typeof fetch = async (input, init) => {
        const response = await fetch(input, init);
        if (response.headers.has("payment-response")) delivered = response;
        return response;
      };
      const research = await awaitPrivateDeepResearch(started, { gateway, fetch: watching, onStatus, enclave, recoveryKey: recoveryKey! });
      if (delivered) await reportPayment(delivered);
      result = research;
      text = renderPrivate({ answer: research.reply, references: research.citations });
    }
    console.log(json ? JSON.stringify(result, null, 2) : text);
  } catch (err) {
    if (err instanceof PrivateModeError) fail(`${err.code}: ${err.message}`);
    throw err;
  }
}

/** Polls the free status route: every second (chat: give up after 60 s, as the contract says). */
async function follow(gateway: string, kind: Kind, accepted: Record<string, unknown>): Promise<Record<string, unknown>> {
  const url =
    typeof accepted.pollUrl === "string"
      ? accepted.pollUrl
      : kind === "chat"
      ? `${gateway}/api/chat/status/${encodeURIComponent(String(accepted.requestId))}`
      : kind === "literature"
        ? `${gateway}/api/literature/jobs/${encodeURIComponent(String(accepted.jobId))}`
        : `${gateway}/api/deep-research/${encodeURIComponent(String(accepted.conversationId))}`;
  if (kind === "literature" && accepted.status === "completed") return accepted;
  const limitMs = kind === "chat" ? 60_000 : kind === "literature" ? 300_000 : 3_600_000;
  const pauseMs = kind === "deep-research" ? 2_000 : 1_000;
  let lastStage = "";
  // The start has just answered that it is not done: the first read waits one interval.
  await sleep(pauseMs);
  const polled = await poll({
    read: async () => {
      const response = await fetch(url);
      const status = (await response.json().catch(() => ({}))) as Record<string, any>;
      if (response.status >= 400) fail(`${response.status} from ${url}: ${JSON.stringify(status)}`);
      return status;
    },
    isFinal: (status) => ["completed", "failed", "timeout", "cancelled"].includes(status.status),
    onRead: (status) => {
      const stage = status.progress ? `${status.progress.stage} ${status.progress.percent}%` : String(status.status);
      if (stage !== lastStage) console.error(`… ${stage}`);
      lastStage = stage;
    },
    pauseMs,
    limitMs,
  });
  if (!polled.final) fail(`Gave up after ${limitMs / 1000} s; poll ${url} to see it later.`);
  const status = polled.value;
  if (status.status !== "completed") fail(`The ${kind} ended ${status.status}: ${status.error ?? status.sessionStatus ?? ""}`);
  return status;
}

function renderPrivate(result: { answer: string; references: { title?: string | null; url?: string | null }[] }): string {
  const references = result.references.map((r, i) => `[${i + 1}] ${r.title ?? ""} ${r.url ?? ""}`.trim());
  return [result.answer, ...(references.length ? ["", ...references] : [])].join("\n");
}

function render(kind: Kind, result: Record<string, any>): string {
  if (kind === "chat") return `${String(result.result?.text ?? JSON.stringify(result.result))}\n\nconversationId: ${result.result?.conversationId} (continue with --conversation)`;
  if (kind === "literature") return String(result.formattedAnswer ?? result.answer ?? JSON.stringify(result));
  const turns = (result.turns ?? []) as { reply?: string }[];
  return `${turns.at(-1)?.reply ?? ""}\n\nconversationId: ${result.conversationId} (continue with --conversation)`;
}

void main();
