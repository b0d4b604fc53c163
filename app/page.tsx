import Link from "next/link";
import { ResearchApp } from "@/components/app/research-app";
import { EnclaveTrustNote } from "@/components/enclave-trust";
import { getWebConfig } from "@/lib/web/config";
import { PAGE_TRUST } from "@/lib/web/enclave-trust";

// The page carries this deployment's payment settings (and, in local mode, the test wallet).
export const dynamic = "force-dynamic";

/** The product for researchers: ask, search, research. Routes, prices and examples are on /developers. */
export default function HomePage() {
  return (
    <main>
      <h1>Longevity Research Agent</h1>
      <p className="lead">
        An AI research agent for aging, longevity and biomedical questions. Every answer cites the scientific literature:
        each <code>[N]</code> marker leads to the study it cites, with a bottom line and an evidence table saying what kind
        of study it is, in whom, what it found, and whether it could be verified at its source. No accounts: each request
        is paid in USDC with an x402 micropayment. Private mode seals the question end to end to the research enclave.
      </p>
      <EnclaveTrustNote trust={PAGE_TRUST} />

      <ResearchApp config={getWebConfig()} />

      <footer className="site-footer no-print">
        <Link href="/developers">For developers and AI agents: routes, prices, examples</Link>
        <Link href="/status">Service status</Link>
      </footer>
    </main>
  );
}
