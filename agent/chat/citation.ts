import type { GradedReference, LiteratureReference } from "@/lib/shared/contracts";

/**
 * What a reference manager needs to cite a reference, carried from the engine's reference to
 * chat's (and so deep research's): only the fields the engine gave, so references stored before
 * them, and the sources that know none, add nothing.
 */
export function citationOf(ref: Pick<LiteratureReference, "journal" | "authors" | "volume" | "issue" | "pages" | "titleDerived">): Partial<GradedReference> {
  return {
    ...(ref.journal ? { journal: ref.journal } : {}),
    ...(ref.authors && ref.authors.length > 0 ? { authors: ref.authors } : {}),
    ...(ref.volume ? { volume: ref.volume } : {}),
    ...(ref.issue ? { issue: ref.issue } : {}),
    ...(ref.pages ? { pages: ref.pages } : {}),
    ...(ref.titleDerived ? { titleDerived: true } : {}),
  };
}
