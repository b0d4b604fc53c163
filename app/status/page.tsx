import type { Metadata } from "next";
import Link from "next/link";
import { EnclaveTrustNote } from "@/components/enclave-trust";
import { HealthPanel } from "@/components/health-panel";
import { PAGE_TRUST } from "@/lib/web/enclave-trust";

export const metadata: Metadata = { title: "Status · Longevity Research Agent" };
export const dynamic = "force-dynamic";

/**
 * The live health report: every component with its latency, each literature source's state (is
 * it answering, skipped for failing, being tried again), the version and the configuration; and
 * which enclave this page trusts (fixed at build, never the server's answer).
 */
export default function StatusPage() {
  return (
    <main>
      <p>
        <Link href="/">← Longevity Research Agent</Link>
      </p>
      <h1 id="health-heading">Status</h1>
      <p className="muted">Refreshed every few seconds from GET /api/health (free, also for AI agents).</p>
      <HealthPanel />
      <h2 id="trust-heading">Which enclave this page trusts</h2>
      <EnclaveTrustNote trust={PAGE_TRUST} />
    </main>
  );
}
