import type { ChatQuality, ChatReference } from "@/lib/shared/contracts";
import { PRIMARY_DESIGNS } from "@/lib/shared/contracts/designs";


/** Every [N] marker of an answer, in order; "[1, 3]" and "[2–4]" count each ordinal. */
export function readMarkers(answer: string): number[] {
  const markers: number[] = [];
  for (const match of answer.matchAll(/\[(\d+(?:\s*[-–,]\s*\d+)*)\]/g)) {
    for (const part of match[1]!.split(",")) {
      const [from, to] = part.split(/[-–]/).map((n) => Number(n.trim()));
      if (to === undefined) markers.push(from!);
      else for (let n = from!; n <= to && n - from! < 100; n++) markers.push(n);
    }
  }
  return markers;
}

/**
 * The citation audit of section 2.7, computed from the answer text itself (never assumed):
 * which markers resolve to a reference, which ordinals are skipped or never cited, which roles are
 * cited, and whether the whole obeys the contract: every marker resolves, an answer with references
 * cites at least one, and no cited reference is retracted or merely a lead.
 */
export function computeQuality(answer: string, references: (ChatReference & { isRetracted?: boolean })[]): ChatQuality {
  const markers = readMarkers(answer);
  const byOrdinal = new Map(references.map((r) => [r.ordinal, r]));
  const unique = [...new Set(markers)].sort((a, b) => a - b);
  const outOfRangeOrdinals = unique.filter((n) => !byOrdinal.has(n));
  const max = unique.length ? Math.max(...unique) : 0;
  const missingMarkerOrdinals: number[] = [];
  for (let n = 1; n < max; n++) if (!unique.includes(n)) missingMarkerOrdinals.push(n);
  const uncitedReferenceOrdinals = references.map((r) => r.ordinal).filter((n) => !unique.includes(n)).sort((a, b) => a - b);
  const cited = unique.map((n) => byOrdinal.get(n)).filter((r): r is ChatReference & { isRetracted?: boolean } => r !== undefined);
  const roleCounts: Record<string, number> = { supporting: 0, context: 0, lead_only: 0 };
  for (const r of references) roleCounts[r.evidenceRole] = (roleCounts[r.evidenceRole] ?? 0) + 1;
  const citedWith = (role: ChatReference["evidenceRole"]) => cited.filter((r) => r.evidenceRole === role).map((r) => r.ordinal);
  const allMarkersResolve = outOfRangeOrdinals.length === 0;
  const contractValid =
    allMarkersResolve &&
    (references.length === 0 ? markers.length === 0 : markers.length > 0) &&
    !cited.some((r) => r.isRetracted || r.evidenceRole === "lead_only");
  return {
    citations: {
      markers,
      referenceCount: references.length,
      outOfRangeOrdinals,
      missingMarkerOrdinals,
      uncitedReferenceOrdinals,
      allMarkersResolve,
      contiguousMarkers: missingMarkerOrdinals.length === 0,
    },
    roleCounts,
    citedSupportingOrdinals: citedWith("supporting"),
    citedContextOrdinals: citedWith("context"),
    citedLeadOnlyOrdinals: citedWith("lead_only"),
    primaryEvidencePresent: cited.some((r) => r.evidenceRole === "supporting" && PRIMARY_DESIGNS.includes(r.evidenceType)),
    containsNonSupportingCitations: cited.some((r) => r.evidenceRole !== "supporting"),
    contractValid,
    qualification: null,
  };
}
