import type { Metadata } from "next";
import Link from "next/link";
import { HealthPanel } from "@/components/health-panel";

export const metadata: Metadata = { title: "Status · Longevity Research Agent" };
export const dynamic = "force-dynamic";

/** The live health report: every component with its latency, the version and the configuration. */
export default function StatusPage() {
  return (
    <main>
      <p>
        <Link href="/">← Longevity Research Agent</Link>
      </p>
      <h1 id="health-heading">Status</h1>
      <p className="muted">Refreshed every few seconds from GET /api/health (free, also for AI agents).</p>
      <HealthPanel />
    </main>
  );
}
