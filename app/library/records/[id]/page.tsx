import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { getLibraryRecord, isAgentUnreachable, type LibraryRecord } from "@/lib/gateway/library/get-library-record";
import { referenceLinks } from "@/lib/web/reference-links";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Library record · Longevity Research Agent", robots: { index: false } };

// GET /library/records/[id] – a record of the service's local library (free, read-only): where an answer's "Library record" link leads
export default async function LibraryRecordPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  let record: LibraryRecord | null;
  try {
    record = await getLibraryRecord({ id });
  } catch (err) {
    if (!isAgentUnreachable(err)) throw err;
    return (
      <main>
        <BackHome />
        <h1>Library record</h1>
        <p className="error-note">The research agent that keeps the library cannot be reached right now. Try again in a minute.</p>
      </main>
    );
  }
  if (!record) notFound();
  const links = referenceLinks({ pmid: record.ids.pmid, doi: record.ids.doi, nct: record.ids.nct });
  return (
    <main>
      <BackHome />
      <p className="muted small">A record of this service&apos;s local library</p>
      <h1 data-testid="record-title">{record.title}</h1>
      {record.isRetracted ? <p className="error-note">This paper has been retracted: it is never accepted as evidence.</p> : null}
      <p className="muted">
        {[record.authors.join(", "), record.journal, record.year].filter(Boolean).join(" · ") || "No authors, journal or year recorded."}
      </p>
      {links.length > 0 ? (
        <p className="ref-links">
          {links.map((l) => (
            <a key={l.href} href={l.href} target="_blank" rel="noopener noreferrer">
              {l.text}
            </a>
          ))}
        </p>
      ) : null}
      <h2>Abstract</h2>
      <p data-testid="record-abstract">{record.abstract ?? "No abstract recorded."}</p>
      {record.publicationTypes.length > 0 ? (
        <p className="small">
          <strong>Publication types:</strong> {record.publicationTypes.join(", ")}
        </p>
      ) : null}
      {record.mesh.length > 0 ? (
        <p className="small">
          <strong>MeSH terms:</strong> {record.mesh.join(", ")}
        </p>
      ) : null}
    </main>
  );
}

function BackHome() {
  return (
    <p>
      <Link href="/">← Longevity Research Agent</Link>
    </p>
  );
}
