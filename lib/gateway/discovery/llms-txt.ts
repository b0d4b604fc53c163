import { buildOpenApiDocument } from "@/lib/gateway/openapi/document";
import { SIGN_IN_WITH_X } from "@x402/extensions/sign-in-with-x";
import { DISCOVERY_PATHS } from "@/lib/shared/http/api-routes.mjs";
import { LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS } from "@modelcontextprotocol/sdk/types.js";
import { MCP_TOOLS } from "@/lib/shared/mcp/catalog";
import { getPaidOperation } from "@/lib/shared/operations";
import { PAID_OPERATIONS, type PaidOperation } from "@/lib/shared/operations";
import type { PaymentSettings } from "@/lib/gateway/payments/requirements";
import { KEY_BYTES, NONCE_BYTES, REQUEST_INFO, RESPONSE_INFO } from "@/lib/shared/sealing/codec";
import { SEALING_PAGE_PATH } from "@/lib/shared/sealing/descriptor";
import { RECOVERY_KEY_PREFIX } from "@/lib/shared/sealing/recovery";
import { offerReceiptLines } from "@/lib/gateway/offer-receipt/describe";
import { HISTORY_PATH } from "@/lib/shared/contracts/history-paths";
import { buildDiscoveryManifest, type DiscoveryManifestItem } from "@/lib/gateway/discovery/manifest";

/**
 * /llms.txt (the llms.txt convention: a markdown file for language models at the site's root):
 * what the service is, each paid route with its price and how its work is followed, the free
 * routes, how a payer reopens what it bought (sign-in-with-x), private mode in one paragraph, and
 * how to let the official x402 client pay this asset.
 * Every price, address and polling figure is read from the discovery manifest, itself read from
 * the live 402s; the free routes and their summaries from the OpenAPI document. Nothing is copied.
 */

const json = (value: unknown) => JSON.stringify(value);

/** One paid route: what it costs, what it answers and how to follow it. */
function paidRouteLines(item: DiscoveryManifestItem, op: PaidOperation): string[] {
  const poll = item.output.asyncPolling;
  const atOnce = poll.synchronousStatus ? ` (or ${poll.synchronousStatus} with the final result at once)` : "";
  return [
    `- [${op.method} ${op.path}](${item.resource.url}): ${op.summary}, ${op.price} (${item.accepts[0]!.amount} base units) per request. Answers ${poll.acceptedStatus} ${json(item.output.example)}${atOnce}.`,
    `  Poll (free): ${poll.pollMethod} ${poll.pollUrlTemplate}${poll.pollUrlField ? ` (the 202's \`${poll.pollUrlField}\`)` : ""}${poll.longPollQuery ? `; add \`?${poll.longPollQuery}\` to wait up to that many seconds in one poll` : ""}${poll.pollBody ? `, sending ${poll.pollBody}` : ""}.`,
    `  Keep polling while ${poll.pendingStatuses.join(", ")}; stop at ${poll.finalStatuses.join(", ")}. Every ${poll.intervalSeconds} s; usually done in ${poll.typicalSeconds} s; give up after ${poll.maxSeconds} s.`,
  ];
}

/**
 * How a payer lists and reopens what it bought, from any client: x402 sign-in-with-x, which every
 * paid route's 402 body declares (lib/gateway/history).
 */
function historyLines({ publicUrl, network }: { publicUrl: string; network: string }): string[] {
  const history = `${publicUrl}${HISTORY_PATH}`;
  return [
    "## Your results, from any client (sign-in-with-x)",
    "",
    `A wallet that paid lists and reopens what it bought, free, from any client. GET ${history} answers 402 with \`extensions["${SIGN_IN_WITH_X}"]\` (x402 sign-in-with-x, CAIP-122) and no payment (\`accepts\` empty): a challenge for this origin (\`domain\`, \`uri\`, a \`nonce\`, \`issuedAt\`, \`expirationTime\`) to sign on ${network}; every paid route's 402 body declares it too, pointing there. Sign it with the wallet that paid (a SIWE message, EIP-191) and send the same request with the proof, base64 JSON, in the SIGN-IN-WITH-X header: \`createSIWxClientExtension({ signers: [account] })\` of \`@x402/extensions/sign-in-with-x\`, registered on the x402Client (\`client.registerExtension(…)\`), does both through wrapFetchWithPayment. A proof is good once, for five minutes from its challenge; a refused one is answered 402 with a new challenge and its \`reason\` (\`invalid_siwx_signature\`, \`invalid_siwx_nonce\`, \`invalid_siwx_expired\`, …).`,
    `The answer lists the wallet's paid requests newest first (\`limit\`, and \`cursor\`: the page's \`nextCursor\`), each with its question while it is kept; GET ${history}/{id} reopens one with what it bought (a chat's or a search's answer; a deep-research turn's conversation), DELETE forgets its question and answer. A sealed (private-mode) request is listed with its kind, time and price only: its words stay sealed.`,
    "",
  ];
}

const MCP_PATH = "/api/mcp";

/** Where the service describes itself, listed first, and the MCP endpoint, its own section: not again among the free routes. */
const DOCUMENTS = ["/api/openapi.json", ...DISCOVERY_PATHS, MCP_PATH];

/** The free routes of the OpenAPI document: neither paid nor behind a bearer token. */
function freeRouteLines(publicUrl: string, maxBodyBytes: number): string[] {
  const { paths } = buildOpenApiDocument({ publicUrl, maxBodyBytes });
  return Object.entries(paths)
    .filter(([path]) => !DOCUMENTS.includes(path))
    .flatMap(([path, operations]) =>
      Object.entries(operations)
        .filter(([, operation]) => !operation["x-payment-info"] && !operation.security)
        .map(([method, operation]) => `- ${method.toUpperCase()} ${publicUrl}${path}: ${typeof operation.summary === "string" ? operation.summary : ""}`),
    );
}

/** The MCP endpoint: its tools (lib/shared/mcp/catalog.ts) with their prices, and how a paid tool is paid over MCP (docs/mcp.md). */
function mcpLines(publicUrl: string): string[] {
  const tools = MCP_TOOLS.map((t) => `${t.name} (${t.kind === "paid" ? getPaidOperation(t.operation).price : "free"})`).join(", ");
  return [
    `The same work as Model Context Protocol tools: POST ${publicUrl}${MCP_PATH} (Streamable HTTP, stateless; send \`Accept: application/json, text/event-stream\`; initialize with MCP protocol version ${LATEST_PROTOCOL_VERSION} or an earlier one the official SDK supports: ${SUPPORTED_PROTOCOL_VERSIONS.join(", ")}). Tools: ${tools}; tools/list gives their arguments, the paid routes' bodies.`,
    'A paid tool is paid per the x402 MCP transport, through the same route, ledger and settlement as over HTTP: called without payment it returns the route\'s PaymentRequired (`isError: true` with it in `structuredContent` and, as JSON, in `content[0].text`; or `resultType: "payment_required"` with `paymentRequired` when the call advertises the `org.x402/payment` extension in `params._meta["io.modelcontextprotocol/clientCapabilities"].extensions`, or did at initialize). Sign it and call again with the PaymentPayload in `params._meta["x402/payment"]`; the settlement comes back in `result._meta["x402/payment-response"]`. chat and literature_search wait for the final result (up to 55 s, with progress notifications) or return `next`, the free status tool to call; deep_research_start returns at once and is settled when delivered (deep_research_status then carries the settlement).',
  ];
}

const cache = new Map<string, string>();

/** The llms.txt of the deployment at `publicUrl` taking `settings`' payments. */
export function buildLlmsTxt({ settings, publicUrl, maxBodyBytes }: { settings: PaymentSettings; publicUrl: string; maxBodyBytes: number }): string {
  const key = `${publicUrl}|${settings.network}|${settings.asset}|${settings.payTo}|${maxBodyBytes}`;
  const cached = cache.get(key);
  if (cached) return cached;
  const { items } = buildDiscoveryManifest({ settings, publicUrl });
  const highest = PAID_OPERATIONS.reduce((max, op) => (BigInt(op.amount) > BigInt(max.amount) ? op : max));
  const spendControls = { allowedAssets: [{ network: settings.network, asset: settings.asset, maxAmountPerPayment: highest.amount }] };
  const text = [
    "# Longevity Research Agent",
    "",
    `> An AI research agent for aging, longevity and biomedical questions that answers with citations from the scientific literature. Chat, literature search and deep research are paid per request with x402 v2, in ${settings.assetName} (6 decimals, asset ${settings.asset}) on network ${settings.network}, paid to ${settings.payTo}: no account, no API key.`,
    "",
    `- OpenAPI 3.1 document, every route with its schemas and prices: ${publicUrl}/api/openapi.json`,
    `- x402 discovery manifest, the payment requirements of every paid route as its 402 states them: ${publicUrl}/.well-known/x402.json`,
    "",
    "## Pay, then poll",
    "",
    "1. Send the request without PAYMENT-SIGNATURE: the answer is 402 with the payment requirements in the body and, base64, in the PAYMENT-REQUIRED header (`accepts[0]`: scheme `exact`, network, amount, asset, payTo). The body's `extensions.bazaar` describes the body, the 202 and where to poll (`info.output.asyncPolling`); the header carries the same requirements with only what a client echoes and a facilitator catalogs, to stay small.",
    "2. Sign the requirements (an EIP-3009 authorization of the token; the official x402 client does it) and send the same request again with PAYMENT-SIGNATURE.",
    "3. The answer is 202 with an id. Chat and literature are settled before that answer (its PAYMENT-RESPONSE header carries the transaction); deep research when its result is delivered. An answer of 400 or more is never charged.",
    "4. Poll the status route, free, until a final status; a completed poll carries the result.",
    "",
    'Retrying: send the same request with the same PAYMENT-SIGNATURE (a 503 asks for it), and it is answered once and charged at most once. A client that may lose its signature names its payment instead: the 402 declares `extensions["payment-identifier"]` (x402 payment-identifier); put an id of 16 to 128 letters, digits, `-` or `_` in the payment payload\'s `extensions["payment-identifier"].info.id` (`appendPaymentIdentifierToExtensions` of `@x402/extensions/payment-identifier` does it). The same id with the same request is answered once, whatever the signature, charged once; with another request it is refused 409 `payment_identifier_conflict`.',
    "",
    "## Signed offers and receipts",
    "",
    ...offerReceiptLines(publicUrl),
    "",
    ...historyLines({ publicUrl, network: settings.network }),
    "## Paid routes",
    "",
    ...items.flatMap((item) => paidRouteLines(item, PAID_OPERATIONS.find((op) => item.resource.url === `${publicUrl}${op.path}`)!)),
    "",
    "## Free routes",
    "",
    ...freeRouteLines(publicUrl, maxBodyBytes),
    "",
    "## MCP",
    "",
    ...mcpLines(publicUrl),
    "",
    "## Private mode",
    "",
    `The routes ending in /encrypted take \`{"hpke_ciphertext", "hpke_ephemeral_public_key"}\` sealed to the enclave's X25519 key, served free by GET ${publicUrl}/api/enclave-key; the gateway never reads the plaintext (the Encrypted*Plaintext schemas of the OpenAPI document), and payment works as for the other routes. The scheme is not standard HPKE: with a fresh ${KEY_BYTES}-byte ephemeral key e (public E), key = HKDF-SHA256(ikm = X25519(e, enclave key), salt = E, info = "${REQUEST_INFO}"), and hpke_ciphertext = base64(${NONCE_BYTES}-byte random nonce ‖ XChaCha20-Poly1305 of the UTF-8 JSON plaintext, no associated data). A sealed answer (hpke_response_ciphertext, hpke_response_ephemeral_key R) opens with HKDF-SHA256(ikm = X25519(e, R) ‖ the request's X25519 shared secret, salt = R, info = "${RESPONSE_INFO}"), same layout. A persistent conversation sends a recoveryKey (\`${RECOVERY_KEY_PREFIX}\` + ${KEY_BYTES} random bytes in unpadded base64url) inside the sealed plaintext only. Step by step, with test vectors for every intermediate value: ${publicUrl}${SEALING_PAGE_PATH}.`,
    "",
    "## Spend controls of the official x402 client",
    "",
    `The official client (x402Client of @x402/core, wrapped by wrapFetchWithPayment of @x402/fetch) pays only assets it recognises unless told otherwise, and at most $1 per payment (\`spendControls.maxAmountPerPayment\`). Allow this service's asset with \`spendControls.allowedAssets\`, capped in base units at the highest price here (${highest.price}, ${highest.summary.toLowerCase()}):`,
    "",
    "```ts",
    'import { x402Client } from "@x402/core/client";',
    'import { toClientEvmSigner } from "@x402/evm";',
    'import { ExactEvmScheme } from "@x402/evm/exact/client";',
    'import { wrapFetchWithPayment } from "@x402/fetch";',
    'import { privateKeyToAccount } from "viem/accounts";',
    "",
    "const client = new x402Client()",
    `  .register(${json(settings.network)}, new ExactEvmScheme(toClientEvmSigner(privateKeyToAccount(process.env.PRIVATE_KEY as \`0x\${string}\`))))`,
    `  .setSpendControls(${json(spendControls)});`,
    "const payingFetch = wrapFetchWithPayment(fetch, client);",
    "```",
    "",
  ].join("\n");
  cache.set(key, text);
  return text;
}
