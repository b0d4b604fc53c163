import Link from "next/link";
import { ResearchApp } from "@/components/app/research-app";
import { EnclaveTrustNote } from "@/components/enclave-trust";
import { HealthPanel } from "@/components/health-panel";
import { PAID_OPERATIONS } from "@/lib/payments/prices";
import { getWebConfig } from "@/lib/web/config";
import { PAGE_TRUST } from "@/lib/web/enclave-trust";

// The page carries this deployment's payment settings (and, in local mode, the test wallet).
export const dynamic = "force-dynamic";

const FREE_ROUTES = [
  { path: "GET /api/chat/status/{requestId}", what: "Poll a chat job" },
  { path: "GET /api/deep-research/{conversationId}", what: "Poll a deep-research conversation" },
  { path: "GET /api/literature/jobs/{jobId}", what: "Poll a literature job" },
  { path: "GET /api/chat/encrypted/status/{requestId}", what: "Poll a sealed chat (the answer stays sealed)" },
  { path: "GET /api/literature/encrypted/status/{requestId}", what: "Poll a sealed literature search (waits up to ?timeout=25 s)" },
  { path: "POST /api/deep-research/encrypted/status/{messageId}", what: "Poll a sealed deep-research run with a sealed recovery key" },
  { path: "GET /api/enclave-key", what: "The enclave key for private (sealed) requests" },
  { path: "GET /api/health", what: "Health of the service and its dependencies" },
  { path: "GET /api/openapi.json", what: "OpenAPI 3.1 description with prices, for AI agents" },
];

export default function HomePage() {
  return (
    <main>
      <h1>Longevity Research Agent</h1>
      <p className="lead">
        An AI research agent for aging, longevity and biomedical questions. Every answer cites the scientific
        literature, and every <code>[N]</code> marker resolves to a real, verified reference with its evidence graded.
        No accounts: each request is paid in USDC with an x402 micropayment, by a person with a wallet or by an AI agent
        with its own key. Private mode seals the question end to end to the research enclave.
      </p>
      <EnclaveTrustNote trust={PAGE_TRUST} />

      <ResearchApp config={getWebConfig()} />

      <h2 id="operations">Operations and prices</h2>
      <table aria-describedby="operations">
        <thead>
          <tr>
            <th scope="col">Operation</th>
            <th scope="col" className="hide-narrow">
              Route
            </th>
            <th scope="col">Price</th>
          </tr>
        </thead>
        <tbody>
          {PAID_OPERATIONS.map((op) => (
            <tr key={op.id}>
              <td>{op.summary}</td>
              <td className="hide-narrow">
                <code>
                  {op.method} {op.path}
                </code>
              </td>
              <td className="price">{op.price}</td>
            </tr>
          ))}
        </tbody>
      </table>

      <h2 id="free">Free routes</h2>
      <table aria-describedby="free">
        <thead>
          <tr>
            <th scope="col">What</th>
            <th scope="col">Route</th>
          </tr>
        </thead>
        <tbody>
          {FREE_ROUTES.map((r) => (
            <tr key={r.path}>
              <td>{r.what}</td>
              <td>
                <code>{r.path}</code>
              </td>
            </tr>
          ))}
        </tbody>
      </table>

      <h2 id="health-heading">Service health</h2>
      <HealthPanel />
      <p>
        <Link href="/status">Full status page</Link>
      </p>
    </main>
  );
}
