import { describe, expect, it } from "vitest";
import { judgeRecords } from "@/agent/literature/relevance";
import { extractTerms } from "@/agent/literature/terms";
import { buildRecord } from "../support/records";

/** Each content word of a question with its part and concept, as relevance reads it. */
const read = (question: string) => Object.fromEntries(extractTerms(question).map((t) => [t.term, `${t.part}:${t.concept}`]));

describe("reading a question: subject, outcome, context", () => {
  it.each([
    ["Is telomere length associated with mortality?", { telomere: "exposure:telomere length", length: "exposure:telomere length", mortality: "outcome:mortality" }],
    ["Does blood glucose level affect cognitive decline?", { glucose: "exposure:blood glucose level", cognitive: "outcome:cognitive decline" }],
    ["What is the effect of exercise on muscle mass in older adults?", { exercise: "exposure:exercise", muscle: "outcome:muscle mass", older: "context:older adults" }],
    ["Is there a relationship between deprivation and all-cause mortality?", { deprivation: "exposure:deprivation", "all-cause": "outcome:all-cause mortality" }],
    ["Are obesity and dementia associated?", { obesity: "exposure:obesity", dementia: "outcome:dementia" }],
    ["Appendectomy timing: will delayed surgery increase the complications?", { appendectomy: "topic:appendectomy timing", surgery: "exposure:delayed surgery" }],
    ["Staging laparoscopy in hepatocellular carcinoma: is it useful?", { laparoscopy: "topic:staging laparoscopy", hepatocellular: "context:hepatocellular carcinoma", useful: "predicate:useful" }],
    ["rapamycin lifespan mice", { rapamycin: "main:rapamycin lifespan mice" }],
    ["Does rapamycin extend lifespan? And in dogs?", { rapamycin: "exposure:rapamycin", lifespan: "outcome:lifespan", dogs: "context:dogs" }],
  ])("%s", (question, expected) => {
    expect(read(question)).toMatchObject(expected);
  });

  it("marks generic words, which weigh next to nothing and never make a reference on topic", () => {
    const terms = extractTerms("Is telomere length associated with mortality risk?");
    expect(terms.filter((t) => t.generic).map((t) => t.term)).toEqual(["length", "risk"]);
  });

  it("keeps a several-word synonym together: \"older adults\" for \"elderly\" does not make any adult count", () => {
    const [elderly] = extractTerms("elderly");
    expect(elderly!.stems).not.toContain("adult");
    expect(elderly!.phrases).toContainEqual(["older", "adult"]);
  });

  it("reads a class one way: rapamycin is an mTOR inhibitor, but an mTOR inhibitor is not rapamycin", () => {
    const [rapamycin] = extractTerms("rapamycin");
    expect(rapamycin!.synonyms).toContain("sirolimus");
    expect(rapamycin!.synonyms).not.toContain("mtor inhibitor");
    const [mtor] = extractTerms("mTOR inhibitors");
    expect(mtor!.synonyms).toEqual(expect.arrayContaining(["rapamycin", "everolimus"]));
  });
});

describe("relevance: the vocabulary's names count, a MeSH heading in MeSH terms only", () => {
  it("counts 'older adults' and MeSH 'Aged' for 'elderly', but not 'aged 18 to 65'", () => {
    const terms = extractTerms("elderly falls");
    const [inText, inMesh, young] = judgeRecords(
      [
        buildRecord({ ids: { pmid: "1" }, title: "Falls among older adults living at home", abstract: "A cohort.", mesh: [] }),
        buildRecord({ ids: { pmid: "2" }, title: "Falls at home", abstract: "A cohort.", mesh: ["Aged", "Accidental Falls"] }),
        buildRecord({ ids: { pmid: "3" }, title: "Falls at work", abstract: "Workers aged 18 to 65.", mesh: ["Adult"] }),
      ],
      terms,
    );
    expect(inText!.matchedTerms).toContain("elderly");
    expect(inMesh!.matchedTerms).toContain("elderly");
    expect(young!.matchedTerms).not.toContain("elderly");
  });

  it("finds a broken hip in a fracture of the proximal femur", () => {
    const [judged] = judgeRecords(
      [buildRecord({ ids: { pmid: "1" }, title: "Outcomes on a rehabilitation ward", abstract: "Patients with a fracture of the proximal femur were followed.", mesh: [] })],
      extractTerms("Do people with a broken hip do better in a rehab unit?"),
    );
    expect(judged!.matchedTerms).toEqual(expect.arrayContaining(["broken", "hip", "rehab"]));
    expect(judged!.accepted).toBe(true);
  });
});

describe("relevance: a reference is on topic only when it names the question's subject and outcome", () => {
  const record = (pmid: string, title: string, abstract: string) => buildRecord({ ids: { pmid }, title, abstract, mesh: [] });
  const telomereDeath = record("1", "Leucocyte telomere length and death in older adults", "Shorter telomere length was associated with higher all-cause mortality over nine years.");
  const hospitalStay = record("2", "Length of hospital stay and mortality after hip fracture", "A longer length of stay was associated with lower in-hospital mortality.");
  const cultured = record("3", "Telomere shortening in cultured fibroblasts", "Fibroblasts under oxidative stress lost telomere length faster.");
  const eye = record("4", "Ocular axial length in schoolchildren", "Axial length increased by 0.3 mm per year.");

  it("rejects the records that share only generic words, or miss the outcome others name, saying which concept they miss", () => {
    const judged = judgeRecords([telomereDeath, hospitalStay, cultured, eye], extractTerms("Is telomere length associated with mortality?"));
    expect(judged.map((j) => j.accepted)).toEqual([true, false, false, false]);
    expect(judged[1]).toMatchObject({ reason: "off_topic", missingConcepts: ["telomere length"] });
    expect(judged[2]).toMatchObject({ reason: "off_topic", missingConcepts: ["mortality"] });
    expect(judged[3]!.missingConcepts).toEqual(["telomere length", "mortality"]);
  });

  it("accepts nothing when no candidate names the question's subject at all", () => {
    const judged = judgeRecords([hospitalStay, telomereDeath], extractTerms("Does xylophone practice extend lifespan?"));
    expect(judged.every((j) => !j.accepted && j.reason === "off_topic")).toBe(true);
    expect(judged[0]!.missingConcepts).toEqual(["xylophone practice"]);
  });

  it("keeps the closest evidence on the subject when no candidate names the outcome, and says what it lacks", () => {
    const [judged] = judgeRecords([cultured], extractTerms("Is telomere length associated with mortality?"));
    expect(judged).toMatchObject({ accepted: true, missingConcepts: ["mortality"] });
  });

  it("rejects a record far weaker than the best match even when it names the concepts", () => {
    const strong = record("5", "Rapamycin extends lifespan in genetically heterogeneous male and female mice", "Rapamycin fed late in life extended median and maximal lifespan of male and female mice.");
    const weak = record("6", "Rapamycin in transplant recipients", "Rapamycin was given; lifespan of the graft was recorded, with no data on mice, sex or age at start.");
    const terms = extractTerms("Does rapamycin fed late in life extend lifespan of male and female mice?");
    const [a, b] = judgeRecords([strong, weak], terms);
    expect(a!.accepted).toBe(true);
    expect(b!.score).toBeLessThan(0.7 * a!.score);
    expect(b).toMatchObject({ accepted: false, reason: "off_topic" });
  });
});
