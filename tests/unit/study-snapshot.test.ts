import { describe, expect, it } from "vitest";
import { isFindingSentence, readFinding } from "@/agent/literature/findings";
import { readQuestion } from "@/agent/literature/reading";
import { stanceOfReference } from "@/agent/literature/verdict";
import { lowerFirst, extractSnapshot, parseCount } from "@/agent/literature/snapshot";
import { studySnapshotSchema } from "@/lib/shared/contracts";

/**
 * The study snapshot, read from abstracts written for these tests (synthetic: none of it is real
 * research), shaped like the abstracts PubMed returns: background, methods, results, conclusion.
 */

const record = (overrides: Partial<Parameters<typeof extractSnapshot>[0]> = {}) => ({
  title: "",
  abstract: "",
  mesh: [] as string[],
  publicationTypes: [] as string[],
  ...overrides,
});

describe("the study snapshot", () => {
  it("reads a randomized trial: humans, the count in words of digits, the intervention from the title, a null finding", () => {
    const snapshot = extractSnapshot(
      record({
        title: "Effects of metformin on all-cause mortality in older adults: a randomized controlled trial",
        abstract:
          "BACKGROUND: Metformin has been proposed as a drug that slows ageing. METHODS: We randomly assigned 1,200 community-dwelling older adults to metformin 1500 mg daily or placebo. The primary outcome was death from any cause. RESULTS: After a median of 4.1 years, mortality did not differ between the groups (hazard ratio 0.97; 95% CI 0.81 to 1.16). CONCLUSIONS: Metformin did not reduce all-cause mortality in older adults without diabetes.",
        mesh: ["Humans", "Aged", "Metformin", "Mortality"],
        publicationTypes: ["Randomized Controlled Trial"],
      }),
      "randomized_controlled_trial",
    );
    expect(studySnapshotSchema.parse(snapshot)).toEqual({
      design: "randomized_controlled_trial",
      species: "human",
      population: "community-dwelling older adults",
      sampleSize: 1200,
      intervention: "metformin",
      direction: "null",
      // The conclusion section's sentence, quoted without its label (issue 25, items 4 and 6).
      finding: "Metformin did not reduce all-cause mortality in older adults without diabetes.",
    });
  });

  it("reads a mouse study from MeSH, and a benefit as positive", () => {
    const snapshot = extractSnapshot(
      record({
        title: "Taurine supplementation extends healthy lifespan in middle-aged mice",
        abstract:
          "Taurine concentrations decline with age. We fed 14-month-old male and female C57BL/6 mice a diet with taurine or a control diet. Taurine-fed mice lived longer: median lifespan increased by 10% in males and 12% in females. Treated mice also had better muscle strength and bone density than controls.",
        mesh: ["Animals", "Mice", "Mice, Inbred C57BL", "Taurine", "Longevity"],
      }),
      "preclinical",
    );
    expect(snapshot).toMatchObject({ design: "preclinical", species: "mouse", intervention: "taurine supplementation", direction: "positive", sampleSize: null });
    expect(snapshot.population).toBe("middle-aged mice");
  });

  it("reads a registered trial's enrollment and interventions, and numbers written as words", () => {
    const snapshot = extractSnapshot(
      record({
        title: "Senolytic dasatinib plus quercetin in idiopathic pulmonary fibrosis",
        abstract: "An open-label pilot trial of intermittent dasatinib plus quercetin in fourteen patients with idiopathic pulmonary fibrosis. Physical function improved after three weeks of treatment.",
        mesh: ["Humans", "Idiopathic Pulmonary Fibrosis"],
        trial: {
          studyType: "INTERVENTIONAL",
          phases: [],
          allocation: "NA",
          interventionModel: "SINGLE_GROUP",
          primaryPurpose: null,
          masking: null,
          hasResults: null,
          overallStatus: null,
          enrollment: 15,
          conditions: [],
          interventions: ["Dasatinib plus quercetin"],
        },
      }),
      "single_arm_trial",
    );
    // The abstract's own count wins over the registry's planned enrollment.
    expect(snapshot).toMatchObject({ species: "human", population: "patients with idiopathic pulmonary fibrosis", sampleSize: 14, direction: "positive" });
    expect(snapshot.intervention).toBe("dasatinib plus quercetin");
    expect(snapshot.finding).toBe("Physical function improved after three weeks of treatment.");
    expect(parseCount("one thousand ninety-nine")).toBe(1099);
    expect(parseCount("2,400")).toBe(2400);
  });

  it("reads an association as positive even when the outcome is bad, and an intervention's harm as negative", () => {
    const cohort = extractSnapshot(
      record({
        title: "Grip strength and mortality in a population cohort",
        abstract: "We followed 5,112 adults aged 60 years and older for ten years. Lower grip strength was associated with higher mortality (hazard ratio 1.31; 95% CI 1.18 to 1.45).",
        mesh: ["Humans", "Aged", "Cohort Studies"],
      }),
      "observational",
    );
    expect(cohort).toMatchObject({ design: "observational", species: "human", sampleSize: 5112, population: "adults", intervention: "grip strength", direction: "positive" });
    const harm = extractSnapshot(
      record({
        title: "High-dose vitamin E supplementation in older women: a randomized trial",
        abstract: "We randomized 800 older women to high-dose vitamin E or placebo for three years. Vitamin E supplementation increased the risk of haemorrhagic stroke and worsened physical function compared with placebo.",
        mesh: ["Humans", "Female", "Aged"],
      }),
      "randomized_controlled_trial",
    );
    expect(harm).toMatchObject({ direction: "negative", sampleSize: 800, population: "older women" });
  });

  it("says mixed when findings go both ways, and unclear when none is stated", () => {
    const mixed = extractSnapshot(
      record({
        title: "Resistance training in nursing home residents",
        abstract:
          "Ninety nursing home residents were assigned to twelve weeks of resistance training or usual care. Training significantly improved leg strength. Gait speed and falls did not differ between the groups.",
      }),
      "controlled_trial",
    );
    expect(mixed).toMatchObject({ direction: "mixed", sampleSize: 90, population: "nursing home residents", species: "human", intervention: "resistance training" });
    const unclear = extractSnapshot(record({ title: "A protocol for a cohort of centenarians", abstract: "This protocol describes the recruitment and follow-up of the cohort. Blood samples will be stored." }), "unknown");
    expect(unclear).toMatchObject({ direction: "unclear", finding: null, sampleSize: null });
  });

  it("knows cells and yeast from text when there is no MeSH", () => {
    expect(extractSnapshot(record({ title: "Spermidine and autophagy in cultured human fibroblasts", abstract: "Spermidine induced autophagy in cultured cells in vitro." }), "preclinical").species).toBe("cells");
    expect(extractSnapshot(record({ title: "Chronological lifespan of yeast under glucose restriction", abstract: "Glucose restriction extended chronological lifespan of yeast." }), "preclinical").species).toBe("yeast");
  });
});

describe("reading a finding", () => {
  it.each([
    ["Rapamycin extended median lifespan of male and female mice.", "found", "benefit"],
    ["Exercise was associated with lower all-cause mortality.", "found", "benefit"],
    ["Smoking was associated with a higher risk of dementia.", "found", "harm"],
    ["Metformin did not reduce all-cause mortality.", "none", "neutral"],
    ["There was no significant difference in gait speed between groups (p = 0.42).", "none", "neutral"],
    ["The odds ratio was 1.12 (95% CI 0.91 to 1.38).", "none", "neutral"],
    ["No serious adverse events occurred during treatment.", "found", "benefit"],
    ["Blood samples were stored at minus eighty degrees.", "unclear", "neutral"],
    // Read the wrong way round before: a gain of muscle is good, a benefit said to be unlikely is none.
    ["Testosterone significantly increased lean muscle mass in older men.", "found", "benefit"],
    ["Resistance training increased muscle strength and bone mineral density.", "found", "benefit"],
    ["Vitamin E supplementation is unlikely to benefit patients with mild cognitive impairment.", "none", "neutral"],
    ["Aspirin failed to improve disability-free survival.", "none", "neutral"],
    // Negated or falling-short statements that read as findings before (measured on PubMedQA's
    // conclusions: docs/literature.md, "Answer quality").
    ["Grip strength was not found to be a predictor of later falls in this cohort.", "none", "neutral"],
    ["A single blood test is not a clinically useful predictor of frailty.", "none", "neutral"],
    ["Current dosing guidelines are inadequate for correcting vitamin D deficiency.", "none", "neutral"],
    ["These results suggest little need to repeat the scan after surgery.", "none", "neutral"],
    ["Routine screening of younger patients may not be necessary.", "none", "neutral"],
    ["None of the proposed markers of early sarcopenia were validated in this study.", "none", "neutral"],
    // An absence stated outright, a statement held unlikely, and a harm named without being negated.
    ["In conclusion, there is no awareness of drug costs among the doctors in our area.", "none", "neutral"],
    ["Subtle edits to a scan are unlikely to be detected by the radiologists reading it.", "none", "neutral"],
    ["Overall, there was a poor knowledge of the side effects of ACE inhibitors.", "none", "neutral"],
    ["The treatment did not increase complications after hip surgery.", "found", "benefit"],
    ["Rapamycin was well tolerated without drug-related toxicity in older dogs.", "found", "benefit"],
    // More cancers detected is better detection, not more cancer; a tool said suitable is a benefit.
    ["Fusion biopsy had a higher prostate cancer detection rate than ultrasound-guided biopsy.", "found", "neutral"],
    ["The scaled questionnaire measures depressive symptoms and is suitable for use in a vision impaired population.", "found", "neutral"],
    // "Similar" is a finding said of outcomes, not of a subject it describes.
    ["Gait speed was similar in the two groups after a year.", "none", "neutral"],
    ["Patients with impaired fasting glucose, a group of similar size, had a higher risk of death.", "found", "harm"],
  ] as const)("%s → %s, %s", (sentence, effect, valence) => {
    expect(readFinding(sentence)).toMatchObject({ effect, valence });
  });

  it("takes a sentence saying something falls short for a finding, not for background", () => {
    const sentence = "Current guidelines appear insufficient to ensure prompt diagnosis of anorectal malformations.";
    expect(isFindingSentence(sentence)).toBe(true);
    expect(readFinding(sentence)).toMatchObject({ effect: "none" });
  });

  it("reads a structured abstract's conclusion section as the authors' answer", () => {
    const claim = readQuestion("Does grip strength predict falls in older adults?");
    const abstract =
      "BACKGROUND: Falls are common in older adults. RESULTS: Weaker grip strength predicted falls in older adults (HR 1.8, p < 0.001). " +
      "Grip strength was associated with falls in older adults in every subgroup (p = 0.01). " +
      "CONCLUSIONS: Grip strength is not a useful predictor of falls in clinical practice.";
    expect(stanceOfReference({ text: abstract, claim }).stance).toBe("contradicts");
    // Without a conclusion that says anything on the claim, the rest of the abstract decides.
    const unlabelled = "In univariate analysis, weaker grip strength was associated with more falls in older adults (p = 0.03). CONCLUSIONS: More studies are planned.";
    expect(stanceOfReference({ text: unlabelled, claim }).stance).toBe("supports");
  });

  it.each([
    ["Is tumour expression of VEGF associated with venous invasion and survival in pT3 renal cell carcinoma?", false],
    ["Stage I non-small cell lung carcinoma: really an early stage?", false],
    ["Does a febrile reaction to platelets predispose recipients to red blood cell alloimmunization?", false],
    ["Does rapamycin delay senescence in cultured human fibroblast cells?", true],
    ["Does metformin extend replicative lifespan in cell lines?", true],
    ["Does resveratrol activate SIRT1 in vitro?", true],
  ] as const)("a question names cells as its subjects only for work on cells: %s → %s", (question, cells) => {
    expect(readQuestion(question).species.includes("cells")).toBe(cells);
  });

  it("never takes a background, aim or methods section's sentence for the finding", () => {
    const snapshot = extractSnapshot(
      record({
        abstract:
          "BACKGROUND: Statins reduced mortality in earlier trials. OBJECTIVE: To show that statins reduce falls. METHODS: We randomized 400 older adults to a statin or placebo. RESULTS: Falls did not differ between the groups (p = 0.62).",
      }),
      "randomized_controlled_trial",
    );
    expect(snapshot.finding).toBe("Falls did not differ between the groups (p = 0.62).");
    expect(snapshot.direction).toBe("null");
  });

  it("weighs hedged findings less", () => {
    expect(readFinding("Rapamycin may extend lifespan in mice.").certainty).toBeLessThan(1);
    expect(readFinding("Rapamycin extended lifespan in mice.").certainty).toBe(1);
  });
});

describe("the snapshot stays with what the text says", () => {
  it("keeps names and acronyms capitalised, and leaves an age out of the population", () => {
    const snapshot = extractSnapshot(
      record({
        title: "Effects of NmU on insulin secretion",
        abstract: "We surveyed 5,563 Norwegian nurses about childhood smoke exposure. We also studied 292 subjects with a mean age of 47 years. Sick leave was more frequent among exposed nurses (OR 1.29; 95% CI 1.08 to 1.54).",
      }),
      "observational",
    );
    expect(snapshot).toMatchObject({ population: "Norwegian nurses", sampleSize: 5563, intervention: "NmU" });
    const older = extractSnapshot(record({ abstract: "We studied 292 subjects with a mean age of 47 years. Asthma control was worse with higher body mass index." }), "observational");
    expect(older.population).toBe("subjects");
  });

  it("does not take a clause for the intervention", () => {
    const snapshot = extractSnapshot(
      record({
        title: "Early migraine treatment and time to headache peak",
        titleDerived: true,
        abstract: "This secondary analysis aimed to explore whether early treatment shortens the time to headache peak. The effects of treatment were compared separately for each attack. A separate model indicated that the timing of medication was not associated with headache duration.",
      }),
      "unknown",
    );
    expect(snapshot.intervention).toBeNull();
    expect(snapshot.direction).toBe("null");
  });

  it.each([
    ["Mice were treated with maximal feasible dosages of acarbose from sixteen months of age. Acarbose extended median lifespan of male mice."],
    ["Participants were treated with the highest tolerated doses of the drug. Frailty scores improved."],
    ["Adults were treated with increasing amounts of vitamin D and calcium. Falls were fewer."],
    ["Rats received supplementation with a mixture of (2S)-naringenin and. Survival improved."],
  ])("leaves an intervention it could only cut mid-phrase empty: %s", (abstract) => {
    const snapshot = extractSnapshot(record({ title: "Late-life survival of genetically heterogeneous mice: an interventions testing program report", abstract }), "preclinical");
    const intervention = snapshot.intervention;
    if (intervention !== null) {
      expect(intervention).not.toMatch(/\b(of|with|to|and|or|the|a|an|in|for|on|by|at|from|as|than|per|plus)$/i);
      expect(intervention).not.toMatch(/[-/+(]$/);
      expect((intervention.match(/\(/g) ?? []).length).toBe((intervention.match(/\)/g) ?? []).length);
    }
  });

  it("cuts a title that is a sentence at its verb: 'Metformin blunts muscle hypertrophy …' tests metformin", () => {
    const snapshot = extractSnapshot(
      record({ title: "Creatine blunts bone loss in response to bed rest in older men", abstract: "Older men on bed rest were randomized to creatine or placebo. Bone loss was smaller with creatine." }),
      "randomized_controlled_trial",
    );
    expect(snapshot.intervention).toBe("creatine");
  });

  it("writes the article opening a quoted sentence in lower case after a comma", () => {
    expect(lowerFirst("A minimal clinically important difference was stated in 6 trials.", "A review. We found a difference.")).toBe("a minimal clinically important difference was stated in 6 trials.");
    expect(lowerFirst("A1c fell by 0.5%.", "HbA1c and A1c.")).toBe("A1c fell by 0.5%.");
  });

  it("keeps an intervention that is a whole phrase", () => {
    const snapshot = extractSnapshot(record({ title: "Late-life survival of mice: a report", abstract: "Mice were treated with acarbose from sixteen months of age. Acarbose extended median lifespan." }), "preclinical");
    expect(snapshot.intervention).toBe("acarbose");
  });
});
