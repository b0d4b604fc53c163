import Link from "next/link";
import { ResearchApp } from "@/components/app/research-app";
import { chatResultSchema } from "@/lib/shared/contracts";
import { getWebConfig } from "@/lib/gateway/web-config";
import stored from "@/lib/web/sample-answer.json";

// The page carries this deployment's payment settings (and, in local mode, the test wallet).
export const dynamic = "force-dynamic";

/** The engine's stored answer over the demo library (tests/integration/sample-answer.test.ts makes it), checked against the contract. */
const SAMPLE = { question: stored.question, result: chatResultSchema.parse(stored.result) };

/**
 * The product for researchers: the question first, then who pays, private mode, the thread and a
 * free sample answer. Routes, prices and examples for agents are on /developers; the service's
 * state and the enclave this page trusts, in the operator's terms, on /status.
 */
export default function HomePage() {
  return (
    <main>
      <h1>Longevity Research Agent</h1>
      <p className="lead">
        Ask about aging and longevity: each <code>[N]</code> marker of an answer leads to the study it cites, under a bottom line and an evidence table
        (what kind of study, in whom, what it found, whether it could be verified at its source). Pay per question in USDC; no account.
      </p>

      <ResearchApp config={getWebConfig()} sample={SAMPLE} />

      <footer className="site-footer no-print">
        <Link href="/developers">For developers and AI agents: routes, prices, examples</Link>
        <Link href="/status">Service status</Link>
      </footer>
    </main>
  );
}
