import { describe, expect, it } from "vitest";
import { bareDoi, libraryRecordId, publicReferenceUrl, referenceLinks } from "@/lib/web/reference-links";

const LOCAL_ID = "0b6f1c9e-1111-4222-9333-444455556666";

describe("where a reference links", () => {
  it("links PubMed, then the DOI, then the trial registry, each once", () => {
    expect(
      referenceLinks({ pmid: "19587680", doi: "10.1038/nature08221", url: "https://pubmed.ncbi.nlm.nih.gov/19587680/", source: "pubmed" }).map((l) => [l.kind, l.href]),
    ).toEqual([
      ["pubmed", "https://pubmed.ncbi.nlm.nih.gov/19587680/"],
      ["doi", "https://doi.org/10.1038/nature08221"],
    ]);
    expect(referenceLinks({ url: "https://clinicaltrials.gov/study/nct09000003", source: "clinicaltrials" })).toEqual([
      { kind: "trial", href: "https://clinicaltrials.gov/study/NCT09000003", text: "ClinicalTrials.gov NCT09000003" },
    ]);
  });

  it("turns the agent's library record address, whatever its origin, into this gateway's record page", () => {
    for (const url of [`http://127.0.0.1:3001/api/library/records/${LOCAL_ID}`, `https://agent.internal/api/library/records/${LOCAL_ID.toUpperCase()}`]) {
      expect(referenceLinks({ url, source: "local" })).toEqual([{ kind: "record", href: `/library/records/${LOCAL_ID}`, text: "Library record" }]);
    }
    expect(publicReferenceUrl({ url: `http://127.0.0.1:3001/api/library/records/${LOCAL_ID}` }, "https://research.example/")).toBe(`https://research.example/library/records/${LOCAL_ID}`);
    expect(libraryRecordId(`http://localhost:3001/api/library/records/not-a-uuid`)).toBeNull();
  });

  it("never links a URL that is not http(s), and reads DOIs given with a resolver prefix", () => {
    expect(referenceLinks({ url: "javascript:alert(1)" })).toEqual([]);
    expect(referenceLinks({ doi: "javascript:alert(1)" })).toEqual([]);
    expect(bareDoi("https://doi.org/10.5555/SYNTH.0001")).toBe("10.5555/SYNTH.0001");
    expect(referenceLinks({ doi: "10.1002/(sici)1097#x" })[0]?.href).toBe("https://doi.org/10.1002/(sici)1097%23x");
  });
});
