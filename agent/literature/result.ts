import type {
  EvidenceRole,
  FailedSource,
  LiteratureJobResult,
  LiteratureQuality,
  LiteratureQueryRequest,
  LiteratureResultsByTagEntry,
  ReferenceGrading,
  Verdict,
  VerdictBasis,
} from "@/lib/shared/contracts";
import type { ContextPassage } from "./answer";
import type { SourceName } from "./record";
import type { Judged } from "./relevance";

/**
 * What the literature engine returns to the code that reads it (chat, deep research, the literature
 * job), typed as the engine makes it; the wire shape of section 2.11 (LiteratureJobResult) is made
 * from it only where a literature job's result is stored or sealed (toLiteratureJobResult).
 */

/** How a reference was judged against the question (and its tags); `reason` only on rejected ones, with includeRejected. */
type EngineRelevance = Pick<Judged, "accepted" | "score" | "matchedTerms" | "flags" | "partCoverage" | "partsAddressed"> & {
  reason?: Judged["reason"];
  /** The question's concepts its text does not name, when any. */
  missingConcepts?: string[];
};

/** A reference as the engine returns it: section 2.11's fields, its identifiers, its grading and its evidence role. */
export type EngineReference = ReferenceGrading & {
  /** Its number: the N of the answer's [N] markers. */
  id: number;
  title: string;
  url: string;
  source: SourceName;
  sources: SourceName[];
  year: number | null;
  item_date: string | null;
  journal: string | null;
  authors: string[];
  volume: string | null;
  issue: string | null;
  pages: string | null;
  doi: string | null;
  pmid: string | null;
  pmcid: string | null;
  nct: string | null;
  label: string;
  isPreprint: boolean;
  isRetracted: boolean;
  publishedDoi?: string;
  titleDerived: boolean;
  /** Decided by roles.ts against the question's reading: the page and chat read it, never re-derive it. */
  evidenceRole: EvidenceRole;
  roleReason: string;
  relevance: EngineRelevance;
  /** With `includeAbstracts` (chat and deep research write from them); never on the wire. */
  abstract?: string | null;
};

export type EngineResult = {
  answer: string;
  formattedAnswer: string;
  references: EngineReference[];
  /** With includeRejected. */
  rejectedReferences?: EngineReference[];
  contextPassages: ContextPassage[];
  reasoning: string[];
  quality: LiteratureQuality;
  retrievalBackend: "local-library" | "federated";
  fallbackUsed: boolean;
  verdict: Verdict;
  verdictBasis: VerdictBasis;
  /** The paragraph the answer opens with, stating the verdict (the page shows it once, in its card). */
  bottomLine: string;
  failedSources: FailedSource[];
  effectiveSources: SourceName[];
  sourceProfile: NonNullable<LiteratureQueryRequest["sourceProfile"]>;
  tagMode?: NonNullable<LiteratureQueryRequest["tagMode"]>;
  /** A fanout's tags, and each one's coverage. */
  tags?: string[];
  resultsByTag?: Record<string, LiteratureResultsByTagEntry>;
};

/** The engine's result as a literature job stores or seals it (section 2.11): the references without their abstracts. */
export function toLiteratureJobResult(result: EngineResult): LiteratureJobResult {
  // Each field keeps its place: the references replace themselves, without their abstracts.
  return {
    ...result,
    references: result.references.map(withoutAbstract),
    ...(result.rejectedReferences ? { rejectedReferences: result.rejectedReferences.map(withoutAbstract) } : {}),
  };
}

function withoutAbstract({ abstract: _abstract, ...reference }: EngineReference): Omit<EngineReference, "abstract"> {
  return reference;
}
