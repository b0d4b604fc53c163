import type { Metadata } from "next";
import Link from "next/link";
import { getConfig } from "@/lib/gateway/config";
import { PAID_OPERATIONS } from "@/lib/shared/operations";
import { getWebConfig } from "@/lib/gateway/web-config";
import { CodeBlock } from "./code-block";

export const metadata: Metadata = { title: "For developers and AI agents · Longevity Research Agent" };
// The examples name this deployment's origin, network and asset.
export const dynamic = "force-dynamic";

const FREE_ROUTES = [
  { path: "GET /api/chat/status/{requestId}", what: "Poll a chat job" },
  { path: "GET /api/literature/jobs/{jobId}", what: "Poll a literature job" },
  { path: "GET /api/deep-research/{conversationId}", what: "Poll a deep-research conversation" },
  { path: "GET /api/chat/encrypted/status/{requestId}", what: "Poll a sealed chat (the answer stays sealed)" },
  { path: "GET /api/literature/encrypted/status/{requestId}", what: "Poll a sealed literature search (waits up to ?timeout=25 s)" },
  { path: "POST /api/deep-research/encrypted/status/{messageId}", what: "Poll a sealed deep-research run with a sealed recovery key" },
  { path: "GET /api/enclave-key", what: "The enclave key for private (sealed) requests, and the suite to seal to it" },
  { path: "GET /api/sealing", what: "How to seal a private request and open the answer: steps, test vectors, recovery keys (JSON)" },
  { path: "GET /api/history", what: "What a wallet paid for, listed and reopened (GET /api/history/{id}) after signing in with that wallet: x402 sign-in-with-x, no payment" },
  { path: "GET /api/health", what: "Health of the service and its dependencies" },
  { path: "GET /api/openapi.json", what: "OpenAPI 3.1 description with prices, for AI agents" },
];

const POLLING = [
  { start: "POST /api/chat", poll: "GET /api/chat/status/{requestId}", final: "completed (with result), failed (with error)", pace: "every 1 s; an answer takes a few seconds; give up after 60 s" },
  { start: "POST /api/literature", poll: "GET /api/literature/jobs/{jobId}", final: "completed, failed", pace: "every 1–2 s; a search takes 3–30 s" },
  {
    start: "POST /api/deep-research/start",
    poll: "GET /api/deep-research/{conversationId}",
    final: "completed, failed, cancelled, timeout (the authorization expired: nothing charged)",
    pace: "every 2 s; a run takes about a minute, at most 30 minutes; paid when delivered",
  },
];

/**
 * For developers and AI agents: every route with its price, how to follow a paid job, the OpenAPI
 * document, and copy-paste examples with curl and the official x402 client (@x402/fetch).
 */
export default function DevelopersPage() {
  const { publicUrl } = getConfig();
  const web = getWebConfig();
  const fetchExample = `import { x402Client } from "@x402/core/client";
import { toClientEvmSigner } from "@x402/evm";
import { ExactEvmScheme } from "@x402/evm/exact/client";
import { wrapFetchWithPayment } from "@x402/fetch";
import { privateKeyToAccount } from "viem/accounts";

const BASE = "${publicUrl}";
const account = privateKeyToAccount(process.env.PAYER_PRIVATE_KEY as \`0x\${string}\`);
const client = new x402Client()
  .register("${web.network}", new ExactEvmScheme(toClientEvmSigner(account)))
  // Pay only in this service's USDC, never more than $1.00 a request.
  .setSpendControls({ allowedAssets: [{ network: "${web.network}", asset: "${web.asset}", maxAmountPerPayment: "1000000" }] });
const payFetch = wrapFetchWithPayment(fetch, client);

// Pays $0.02 when the route answers 402, then sends the request again with the signature.
const started = await payFetch(\`\${BASE}/api/chat\`, {
  method: "POST",
  headers: { "content-type": "application/json" },
  body: JSON.stringify({ message: "Does rapamycin extend lifespan in mice?" }),
});
const { requestId } = await started.json();

// Polling is free: every second until the job is completed or failed.
for (;;) {
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const job = await (await fetch(\`\${BASE}/api/chat/status/\${requestId}\`)).json();
  if (job.status === "completed") { console.log(job.result.answer, job.result.references); break; }
  if (job.status === "failed") throw new Error(job.error);
}`;
  const curlExample = `# The price, asset, network and payee of a route: its 402 (nothing is charged)
curl -si -X POST ${publicUrl}/api/chat \\
  -H 'content-type: application/json' -d '{"message":"Does rapamycin extend lifespan in mice?"}'

# Free: follow a job, the service's health, the OpenAPI document
curl -s ${publicUrl}/api/chat/status/REQUEST_ID
curl -s ${publicUrl}/api/health
curl -s ${publicUrl}/api/openapi.json`;
  return (
    <main>
      <p>
        <Link href="/">← Longevity Research Agent</Link>
      </p>
      <h1>For developers and AI agents</h1>
      <p className="lead">
        The web app uses the same routes as everyone else: there are no accounts and no API keys. Each paid route answers
        a request without payment with <code>402 Payment Required</code> and its price; an x402 client signs a USDC
        authorization ({web.chainName}, <code>{web.network}</code>) and sends the request again. Polling is free.
      </p>
      <p>
        The whole API, with prices, request and response schemas: <a href="/api/openapi.json">OpenAPI 3.1 document</a>. Live health:{" "}
        <Link href="/status">status page</Link>.
      </p>

      <h2 id="operations">Paid routes</h2>
      <table aria-labelledby="operations" data-testid="paid-routes" className="cards-narrow">
        <thead>
          <tr>
            <th scope="col">Operation</th>
            <th scope="col">Route</th>
            <th scope="col">Price</th>
            <th scope="col">Settled</th>
          </tr>
        </thead>
        <tbody>
          {PAID_OPERATIONS.map((op) => (
            <tr key={op.id}>
              <td data-label="Operation">{op.summary}</td>
              <td data-label="Route">
                <code>
                  {op.method} {op.path}
                </code>
              </td>
              <td data-label="Price" className="price">
                {op.price}
              </td>
              <td data-label="Settled">{op.settlement === "immediate" ? "before the job starts" : "when the result is delivered"}</td>
            </tr>
          ))}
        </tbody>
      </table>

      <h2 id="polling">Following a paid job</h2>
      <p>A paid start answers <code>202</code> with an id; poll its route until a final status.</p>
      <ul className="poll-list" aria-labelledby="polling" data-testid="polling">
        {POLLING.map((p) => (
          <li key={p.start}>
            <code>{p.start}</code> → <code>{p.poll}</code>
            <div className="small">
              <strong>Final:</strong> {p.final}. <strong>Pace:</strong> {p.pace}.
            </div>
          </li>
        ))}
      </ul>

      <h2 id="free">Free routes</h2>
      <table aria-labelledby="free" data-testid="free-routes" className="cards-narrow">
        <thead>
          <tr>
            <th scope="col">What</th>
            <th scope="col">Route</th>
          </tr>
        </thead>
        <tbody>
          {FREE_ROUTES.map((r) => (
            <tr key={r.path}>
              <td data-label="What">{r.what}</td>
              <td data-label="Route">
                <code>{r.path}</code>
              </td>
            </tr>
          ))}
        </tbody>
      </table>

      <h2 id="fetch-example">Pay and poll with the official x402 client</h2>
      <p>
        <code>npm install @x402/fetch @x402/core @x402/evm viem</code>, then (Node.js 20 or later, as an ES module):
      </p>
      <CodeBlock code={fetchExample} label="TypeScript example with @x402/fetch" />

      <h2 id="curl-example">With curl</h2>
      <p>curl cannot sign a payment, but it shows every price and follows every job:</p>
      <CodeBlock code={curlExample} label="curl examples" />

      <h2 id="private">Private (sealed) requests</h2>
      <p>
        The encrypted routes take an envelope sealed to the enclave key (<code>GET /api/enclave-key</code>); the
        gateway never sees the question or the answer. Their schemas are in the OpenAPI document. The scheme is not
        standard HPKE: <a href="/api/sealing">the sealing page</a> gives it step by step, with test vectors for every
        intermediate value and the recovery-key format.
      </p>
    </main>
  );
}
