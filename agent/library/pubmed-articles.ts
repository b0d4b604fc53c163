/**
 * Where each article of a PubmedArticleSet starts, and its PMID, read from the raw text. The XML
 * parser gives records without positions; this lets an import report a rejected article by line,
 * as it does for JSON Lines.
 */
export type LocatedArticles = {
  articles: { line: number; pmid: string | null }[];
  /** Start lines of <PubmedBookArticle> elements, which the library does not import. */
  books: number[];
};

/** Finds the articles of a PubmedArticleSet (1-based line numbers). Pure; never throws. */
export function locatePubmedArticles(xml: string): LocatedArticles {
  const lineStarts = [0];
  for (let i = xml.indexOf("\n"); i !== -1; i = xml.indexOf("\n", i + 1)) lineStarts.push(i + 1);
  const lineAt = (offset: number) => {
    let low = 0;
    let high = lineStarts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if ((lineStarts[mid] ?? 0) <= offset) low = mid;
      else high = mid - 1;
    }
    return low + 1;
  };
  const articles: LocatedArticles["articles"] = [];
  const books: number[] = [];
  const opening = /<(PubmedArticle|PubmedBookArticle)[\s>]/g;
  for (let match = opening.exec(xml); match; match = opening.exec(xml)) {
    if (match[1] === "PubmedBookArticle") {
      books.push(lineAt(match.index));
      continue;
    }
    const end = xml.indexOf("</PubmedArticle>", match.index);
    const body = xml.slice(match.index, end === -1 ? undefined : end);
    // The citation's own PMID comes first; later ones belong to comments and corrections.
    const pmid = /<PMID[^>]*>\s*(\d+)\s*<\/PMID>/.exec(body)?.[1] ?? null;
    articles.push({ line: lineAt(match.index), pmid });
  }
  return { articles, books };
}
