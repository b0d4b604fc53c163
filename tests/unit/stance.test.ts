import { describe, expect, it } from "vitest";
import { comparedByNumbers, gradedQuality, intervalSpansNull, isAimSentence, isFindingSentence, isMethodSentence, readFinding } from "@/agent/literature/findings";
import { readStance, readStanceByRules, stanceOfReference, verdictOfStudy } from "@/agent/literature/stance";
import { readClaim } from "@/agent/literature/stance/claim";
import { stanceFeatures } from "@/agent/literature/stance/features";
import { MODEL, predict } from "@/agent/literature/stance/model";
import { readParts } from "@/agent/literature/stance";
import { sectionsOf } from "@/agent/literature/stance/sections";
import { readQuestion } from "@/agent/literature/reading";
import weights from "@/agent/literature/stance/weights.json";
import { examplesDigest, tuningExamples } from "@/scripts/bench/stance-training";

/**
 * The stance of one study toward a question (issue 25, item 4), on sentences and abstracts written
 * for these tests (none of them is taken from the evaluation sets, and none is real research).
 */

const claimOf = (question: string) => readQuestion(question);
const stance = (question: string, text: string) => stanceOfReference({ text, claim: claimOf(question) }).stance;
const byRules = (question: string, text: string) => readStanceByRules({ text, claim: claimOf(question) }).stance;
/** One test per row: the rules read the text's stance toward the question as expected. */
const readsAs = (rows: [question: string, text: string, expected: string][]) =>
  it.each(rows)("%s → %s", (question, text, expected) => {
    expect(byRules(question, text)).toBe(expected);
  });

describe("negations and shortfalls read as what they say", () => {
  it.each([
    ["Creatine did not affect bone density in postmenopausal women over two years."],
    ["The protective effect of green tea on memory could not be confirmed in the older cohort."],
    ["Our registry shows an absence of a winter effect on mortality after hip fracture."],
    ["The frailty checklist had low diagnostic efficiency in community clinics."],
    ["Memory games produced no general gains in cognition among retired teachers."],
    ["Repeat imaging rarely changed management after a minor head injury."],
    ["The value of routine chest films before cataract surgery remains questionable."],
  ])("%s → no effect", (sentence) => {
    expect(isFindingSentence(sentence)).toBe(true);
    expect(readFinding(sentence).effect).toBe("none");
  });

  it("reads risks said to outweigh benefits as a harm, and the converse as a benefit", () => {
    expect(readFinding("In frail patients the risks of the operation outweigh its benefits.")).toMatchObject({ effect: "found", valence: "harm" });
    expect(readFinding("In fit patients the benefits of the operation clearly outweigh its risks.")).toMatchObject({ effect: "found", valence: "benefit" });
  });

  it.each([
    ["Strength training counteracts the gradual loss of muscle fibres seen with age.", "benefit"],
    ["Hormone therapy prevented bone loss after menopause.", "benefit"],
    ["Walking slowed the decline in gait speed over five years.", "benefit"],
    ["Steroids accelerated the loss of bone density.", "harm"],
    ["The new regimen reduced the rise in pain scores after surgery.", "benefit"],
    ["Coaching increased the gain in grip strength.", "benefit"],
    ["The diuretic blunted the gain in muscle mass.", "harm"],
  ])("composes a change of a change (a loss of something good is bad): %s → %s", (sentence, valence) => {
    expect(readFinding(sentence)).toMatchObject({ effect: "found", valence });
  });

  it("reads a finding that exercise counters an effect of age as support that it slows aging (issue 25's exercise example)", () => {
    const abstract =
      "RESULTS: Fatigue did not differ between the younger and older skaters. CONCLUSIONS: It appears possible that ageing muscles subjected to continuous exercise develop an adaptive response that counteracts the selective loss of fast muscle fibres usually seen in sedentary older people.";
    expect(byRules("Does exercise slow aging?", abstract)).toBe("supports");
  });

  it.each([
    ["Can CT replace colonoscopy for detecting polyps?", "CONCLUSIONS: CT colonography cannot yet replace colonoscopy for detecting small polyps."],
    ["Does statin therapy lower mortality in sepsis?", "CONCLUSIONS: Mortality remained high in sepsis despite statin therapy, and did not differ from that of patients not taking statins."],
    ["Is surgery needed for all patients with small kidney stones?", "CONCLUSIONS: Most small kidney stones passed spontaneously; surgery can be reserved for those that do not."],
  ])("reads an indirect no as no: %s", (question, abstract) => {
    // "cannot yet": "yet" is an adverb, not a contrast; "remained high despite X": X changed nothing;
    // a clause naming only the claim's setting does not restate a claim that something is needed.
    expect(byRules(question, abstract)).toBe("contradicts");
  });

  it("does not take a plainly stated negative for a hedge", () => {
    expect(readFinding("The protective effect of green tea on memory could not be confirmed.").certainty).toBe(1);
    expect(readFinding("Routine screening of the second knee may not be necessary.").certainty).toBeLessThan(1);
  });

  it.each([
    ["Does creatine improve bone density in postmenopausal women?", "RESULTS: Creatine did not affect bone density in postmenopausal women over two years."],
    ["Does green tea protect memory in older adults?", "CONCLUSIONS: The protective effect of green tea on memory in older adults could not be confirmed."],
    ["Is there a winter effect on mortality after hip fracture?", "CONCLUSIONS: Our registry shows an absence of a winter effect on mortality after hip fracture."],
    ["Is the frailty checklist accurate for diagnosing frailty?", "CONCLUSIONS: The frailty checklist had low diagnostic efficiency for diagnosing frailty in community clinics."],
    ["Do memory games improve cognition in retired teachers?", "CONCLUSIONS: Memory games produced no general gains in cognition among retired teachers."],
  ])("a study concluding the negative contradicts the question: %s", (question, abstract) => {
    expect(byRules(question, abstract)).toBe("contradicts");
    expect(stance(question, abstract)).toBe("contradicts");
  });
});

describe("aims, objectives and methods are never findings", () => {
  it.each([
    ["The aim of this study was to show that tai chi reduces falls in older adults."],
    ["To determine whether tai chi reduces falls, we followed 300 residents for a year."],
    ["This study was undertaken to test if tai chi reduces falls in nursing homes."],
    ["We sought to establish that tai chi reduces falls."],
  ])("%s", (sentence) => {
    expect(isAimSentence(sentence)).toBe(true);
    expect(isFindingSentence(sentence)).toBe(false);
  });

  it.each([["The charts of 40 patients who underwent knee replacement were reviewed."], ["Residents were randomized to tai chi or stretching."]])(
    "a method sentence is not a finding: %s",
    (sentence) => {
      expect(isMethodSentence(sentence)).toBe(true);
      expect(isFindingSentence(sentence)).toBe(false);
    },
  );

  it("reads no stance from an abstract whose only words on the claim are its aim and methods", () => {
    const question = "Does tai chi reduce falls in older adults?";
    const abstract =
      "OBJECTIVE: To show that tai chi reduces falls in older adults. METHODS: We enrolled 300 older adults and randomized them to tai chi or stretching; falls were recorded for a year.";
    expect(byRules(question, abstract)).toBe("unclear");
    expect(verdictOfStudy({ stance: byRules(question, abstract) })).toBe("insufficient");
  });

  it("does not let a stated aim decide the stance when the results say otherwise", () => {
    const question = "Does tai chi reduce falls in older adults?";
    const abstract =
      "OBJECTIVE: To show that tai chi reduces falls in older adults. METHODS: We randomized 300 older adults to tai chi or stretching. RESULTS: The rate of falls in older adults did not differ between the groups (p = 0.41).";
    expect(byRules(question, abstract)).toBe("contradicts");
    expect(stance(question, abstract)).toBe("contradicts");
  });

  it("in an unlabelled abstract, reads what comes before the stated aim as background", () => {
    const question = "Does vitamin K slow arterial calcification?";
    const abstract =
      "Vitamin K is thought to slow arterial calcification. Earlier trials suggested that it reduces calcification scores. We aimed to test whether vitamin K slows arterial calcification in dialysis patients. We randomized 120 dialysis patients to vitamin K or placebo. Arterial calcification scores did not differ between the groups after 18 months.";
    expect(byRules(question, abstract)).toBe("contradicts");
  });
});

describe("the authors' conclusion is the finding", () => {
  it("reads the conclusion section over the results before it", () => {
    const question = "Does omega-3 supplementation lower triglycerides in older adults?";
    const abstract =
      "BACKGROUND: Triglycerides rise with age. RESULTS: In the unadjusted analysis, omega-3 lowered triglycerides in older adults (p = 0.01). CONCLUSIONS: After adjustment for diet, omega-3 supplementation did not lower triglycerides in older adults.";
    expect(byRules(question, abstract)).toBe("contradicts");
    expect(stance(question, abstract)).toBe("contradicts");
  });

  it("reads a conclusion labelled without a colon, as some sources write it", () => {
    const question = "Does omega-3 supplementation lower triglycerides in older adults?";
    const abstract = "RESULTS Omega-3 lowered triglycerides in the unadjusted analysis. CONCLUSIONS Omega-3 supplementation did not lower triglycerides in older adults once diet was accounted for.";
    expect(sectionsOf(abstract).map((s) => s.role)).toEqual(["results", "conclusion"]);
    expect(byRules(question, abstract)).toBe("contradicts");
  });

  it("takes a conclusion recommending the practice as support, hedged or not", () => {
    const question = "Can resistance exercise counteract the loss of muscle strength with age?";
    const abstract =
      "RESULTS: Strength rose in the trained group. CONCLUSIONS: Our results suggest that resistance exercise could be prescribed to counteract the loss of muscle strength with age.";
    expect(byRules(question, abstract)).toBe("supports");
    expect(stance(question, abstract)).toBe("supports");
  });
});

describe("what the claim says", () => {
  it("turns the stance round for a negated claim", () => {
    const text = "RESULTS: Metformin extended median lifespan of male mice by 6% (p < 0.01).";
    expect(stance("Metformin extends lifespan in mice.", text)).toBe("supports");
    expect(byRules("Metformin does not extend lifespan in mice.", text)).toBe("contradicts");
    expect(stance("Metformin does not extend lifespan in mice.", text)).toBe("contradicts");
  });

  it("reads the claim's words from `question` as well as `text` (the shared question reading names it so)", () => {
    const claim = claimOf("Metformin does not extend lifespan in mice.");
    expect(claim).not.toHaveProperty("text");
    const text = "RESULTS: Metformin extended median lifespan of male mice by 6% (p < 0.01).";
    expect(readStanceByRules({ text, claim }).stance).toBe("contradicts");
  });

  it("does not take a genotype or a modifier for a negated claim", () => {
    expect(readClaim(claimOf("Mice lacking klotho age faster.")).negated).toBe(false);
    expect(readClaim(claimOf("Is surgery safe in patients with no prior stroke?")).negated).toBe(false);
    expect(readClaim(claimOf("Is the drug effective in case of insufficient response to metformin?")).negated).toBe(false);
    expect(readClaim(claimOf("Cognitive training is an ineffective treatment for insomnia.")).negated).toBe(true);
  });

  it("reads a claim that something can be left out as a claim that it is not needed", () => {
    const question = "Can the second knee scan be omitted after arthroplasty?";
    expect(byRules(question, "CONCLUSIONS: There is no need for a second knee scan after arthroplasty.")).toBe("supports");
    expect(byRules(question, "CONCLUSIONS: A second knee scan after arthroplasty changed management in a third of patients and is needed.")).toBe("contradicts");
  });

  it("supports an equivalence only with an absence of difference, not with another negation", () => {
    const alike = "Is home blood pressure monitoring as accurate as clinic monitoring?";
    expect(byRules(alike, "CONCLUSIONS: Home and clinic blood pressure monitoring readings were similar in accuracy.")).toBe("supports");
    const same = "Should all patients receive the same preoperative iron dose?";
    expect(byRules(same, "CONCLUSIONS: Not all patients need the same preoperative iron dose; weight and haemoglobin should guide it.")).toBe("contradicts");
  });

  it("compares which way the claim and the finding move the same quantity", () => {
    const question = "Does cold exposure decrease brown adipose tissue activity?";
    expect(byRules(question, "RESULTS: Two hours of cold exposure increased BAT activity in healthy men (p < 0.001).")).toBe("contradicts");
    expect(byRules(question, "RESULTS: Two hours of cold exposure lowered brown adipose tissue activity in healthy men (p < 0.001).")).toBe("supports");
  });

  it("answers a claim that one is better than the other no when the two were found alike", () => {
    const question = "Is nasal spray superior to oral tablets for hay fever symptoms?";
    const alike = "CONCLUSIONS: Nasal spray and oral tablets were equally effective for hay fever symptoms.";
    expect(byRules(question, alike)).toBe("contradicts");
    expect(byRules(question, "CONCLUSIONS: Nasal spray was as effective as oral tablets for hay fever symptoms.")).toBe("contradicts");
    // Not a comparison: the same words read as the benefit they state.
    expect(byRules("Is nasal spray effective for hay fever symptoms?", alike)).toBe("supports");
    expect(byRules(question, "CONCLUSIONS: Nasal spray was not as effective as oral tablets for hay fever symptoms.")).toBe("contradicts");
  });

  it("reads a claim of change with no way named as holding whichever way the finding moves", () => {
    const text = "CONCLUSIONS: Having a dietitian on the ward was associated with a substantially lower rate of adverse feeding events.";
    expect(byRules("A dietitian on the ward does not alter the rate of adverse feeding events.", text)).toBe("contradicts");
    expect(byRules("A dietitian on the ward alters the rate of adverse feeding events.", text)).toBe("supports");
  });

  it("reads what a change moves up to the means it works by, and a hyphenated word's parts (their initials too)", () => {
    // "reduces proliferation by inducing DSB accumulation": the breaks rise; proliferation is what falls.
    const text = "Remarkably, compound Q reduces proliferation of HR-defective cells by inducing DSB accumulation.";
    expect(byRules("Compound Q prevents double-strand break accumulation.", text)).toBe("contradicts");
    expect(byRules("Compound Q encourages double-strand break accumulation.", text)).toBe("supports");
    expect(byRules("Compound Q prevents tumour growth.", "Compound Q reduced tumour growth by inducing cell death.")).toBe("supports");
  });

  it("reads \"encourages\" as a change upward", () => {
    expect(byRules("Antibodies to protein K encourage castration resistance.", "Antibodies to protein K markedly delayed the emergence of castration resistance.")).toBe("contradicts");
  });

  it("reads a quantity named by a change word as one quantity, and an agent's name or a compound modifier as no change", () => {
    const text = "In mice on a Western diet, blocking protein K reduces body weight gain.";
    // "weight gain" is what is reduced; "blocking protein K" is what claim and study both did.
    expect(byRules("Blocking protein K leads to increased weight gain in mice.", text)).toBe("contradicts");
    expect(byRules("Blocking protein K leads to decreased weight gain in a mouse model of diet-induced obesity.", text)).toBe("supports");
    // "inhibitor" names the drug; "small-molecule" is not "survival of mice" by its initials.
    const survival = "Inhibition of kinase R activity using an oral small-molecule inhibitor significantly improved the survival of mice bearing lymphoma.";
    expect(byRules("Inhibiting kinase R increases survival of mice with lymphoma.", survival)).toBe("supports");
  });

  it("answers a question whether something can be done yes when it did as well as the accepted way", () => {
    const alike = "CONCLUSIONS: Scores given by examiners joining by video were comparable to those of examiners in the room.";
    expect(byRules("Can examiners take part in clinical examinations by video?", alike)).toBe("supports");
    // A test must tell cases apart: alike is a no.
    expect(byRules("Can serum marker Q diagnose appendicitis?", "CONCLUSIONS: Serum marker Q levels were comparable in patients with and without appendicitis.")).toBe("contradicts");
    // A change asked for: alike is a no.
    expect(byRules("Can video visits reduce readmissions?", "CONCLUSIONS: Readmissions were comparable with video visits and usual care.")).toBe("contradicts");
  });

  it("reads a procedure done well without what the claim says is needed as a finding that it is not needed", () => {
    const text = "CONCLUSIONS: The valve can be implanted safely without balloon predilatation, with early results like those of the standard procedure.";
    expect(byRules("Can balloon predilatation be omitted in valve implantation?", text)).toBe("supports");
    expect(byRules("Is balloon predilatation necessary in valve implantation?", text)).toBe("contradicts");
  });

  it("never takes a sentence reporting a statistic for an aim, whatever its words (\"whether expressed as …\")", () => {
    const text =
      "Grip strength was greater after eight weeks of training in the older women relative to untrained controls. Peak force was also greater in trained than in untrained women, whether expressed as absolute force (+12 versus +3 N, P=0.02) or relative to body mass (P=0.03).";
    expect(byRules("Training increases grip strength in older women.", text)).toBe("supports");
  });

  it("knows that more resistance is less susceptibility", () => {
    expect(byRules("The K12 mutation reduces resistance to drug Z.", "The K12 mutation increased susceptibility to drug Z eightfold.")).toBe("supports");
    expect(byRules("The K12 mutation reduces resistance to drug Z.", "The K12 mutation decreased susceptibility to drug Z eightfold.")).toBe("contradicts");
  });

  it("reads a finding that something does not matter, when that is the claim's own subject, as no effect", () => {
    const question = "Does the type of reminder influence screening attendance?";
    expect(byRules(question, "CONCLUSIONS: Screening attendance was low regardless of the type of reminder sent.")).toBe("contradicts");
  });

  it("reads a comparator in the subject as a comparator, not a negation: X rather than Y was associated with less Z", () => {
    const question = "Does drug K lower the risk of gout in people with kidney disease?";
    expect(byRules(question, "CONCLUSIONS: Starting drug K rather than drug M was associated with a lower incidence of gout.")).toBe("supports");
    // After the finding, "rather than" still says what it is not.
    expect(byRules("Is the benefit of drug K linked to weight loss?", "CONCLUSIONS: The benefit of drug K was linked to blood pressure rather than to weight loss.")).toBe("contradicts");
  });

  it("does not take a relative clause describing whom the claim is about for a negated claim", () => {
    const question = "Do statins prevent heart attacks in people over 75 who do not have diabetes?";
    expect(byRules(question, "CONCLUSIONS: In adults over 75 without diabetes, statins were not associated with fewer heart attacks.")).toBe("contradicts");
    expect(readClaim(claimOf(question)).negated).toBe(false);
  });

  it("reads safety said beside a finding as an aside, not as the absence of the effect", () => {
    const question = "Does drug Q improve heart function in dogs?";
    expect(byRules(question, "CONCLUSIONS: Ten weeks of drug Q improved heart function in middle-aged dogs without side effects.")).toBe("supports");
    expect(byRules(question, "CONCLUSIONS: Drug Q did not improve heart function, with no serious adverse events.")).toBe("contradicts");
  });

  it("reads a finding for one group and not another for the group the claim names", () => {
    const text = "CONCLUSIONS: Drug C extended the lifespan of male, but not female, mice.";
    expect(byRules("Drug C extends lifespan in female mice.", text)).toBe("contradicts");
    expect(byRules("Drug C extends lifespan in male mice.", text)).toBe("supports");
  });

  it("reads idioms, formulations and what a change changes as no change of their own", () => {
    // "fall asleep" is no fall, "prolonged-release" no prolonging; "shortened the time to fall asleep" is faster sleep.
    expect(byRules("I'm 70 and it takes me ages to fall asleep. Will drug M help me get to sleep faster?", "CONCLUSIONS: Prolonged-release drug M shortened the time to fall asleep in older adults with insomnia.")).toBe("supports");
    // "prevented more strokes than aspirin": more prevention, not more strokes.
    expect(byRules("Is drug W better than aspirin at preventing strokes?", "CONCLUSIONS: Drug W prevented more strokes than aspirin, with no increase in major bleeding.")).toBe("supports");
    // An exclusion between commas is an aside: the sentence goes on with the first.
    expect(byRules("Does a daily multivitamin improve cognition in older adults?", "CONCLUSIONS: Daily multivitamin supplementation, but not cocoa extract, improved cognition in older adults.")).toBe("supports");
  });

  it("lets the findings on the claim's outcome decide when the conclusion never names it", () => {
    const text =
      "RESULTS: Adverse events occurred at similar rates. Fasting glucose and HbA1c did not differ between groups. CONCLUSIONS: Low-dose drug R for 48 weeks was safe and well tolerated in older adults.";
    expect(byRules("Does low-dose drug R raise blood sugar in older people?", text)).toBe("contradicts");
  });
});

describe("rules of English found on the blind conclusions set (tests/fixtures/eval, its tuning half; sentences written here)", () => {
  // Each failed before: a non-inferiority conclusion for an equivalence, "did not harm" for
  // "harmless", a withholding denied ("should not be withheld", "need not be avoided") as a
  // recommendation, "did not reduce complications" as no benefit (not safety), "no more effective
  // than placebo", "associated with similar use", "fell short of the target", "can be omitted" for
  // a claim of need, "lower, not higher,", "the need for" as an outcome, "the same nurse" as no
  // equivalence, "work as well as" as one.
  readsAs([
    ["Are oral and intravenous antibiotics equally effective for lung infection?", "CONCLUSIONS: Oral antibiotics were non-inferior to intravenous antibiotics for lung infection.", "supports"],
    ["Is it safe to continue aspirin before dental extraction?", "CONCLUSIONS: Continuing aspirin before dental extraction was not associated with excess bleeding.", "supports"],
    ["Is swimming during pregnancy harmless for the baby?", "CONCLUSIONS: Swimming during pregnancy did not harm the baby.", "supports"],
    ["Does a splint stop arthritis from getting worse?", "CONCLUSIONS: The splint decreased the progression of arthritis.", "supports"],
    ["Does statin treatment prevent heart attacks in people over 80?", "CONCLUSIONS: Statin treatment reduced heart attacks in people over 80 and should not be withheld on the basis of age.", "supports"],
    ["Are antivirals effective against hepatitis B in prisoners?", "CONCLUSIONS: Antivirals were highly effective against hepatitis B in prisoners, and imprisonment should not be a barrier to treatment.", "supports"],
    ["Does fasting before surgery make no difference to complications?", "CONCLUSIONS: Fasting before surgery did not affect complications.", "supports"],
    ["Does citalopram improve depression after stroke?", "CONCLUSIONS: Citalopram was no more effective than placebo for depression after stroke.", "contradicts"],
    ["Does hypnosis reduce the need for analgesia during labour?", "CONCLUSIONS: Hypnosis was associated with similar analgesia use to standard care during labour.", "contradicts"],
    ["Do clinics vaccinate children within a week of birth?", "CONCLUSIONS: Vaccination timing fell well short of the one-week target in most clinics.", "contradicts"],
    ["Is a catheter needed after hernia repair?", "CONCLUSIONS: Catheters can be omitted after hernia repair.", "contradicts"],
    ["Do older mothers have more preterm births than younger women?", "CONCLUSIONS: Older mothers had lower, not higher, rates of preterm birth than younger women.", "contradicts"],
    ["Does walking daily reduce falls in older people?", "CONCLUSIONS: Our hypothesis was confirmed: daily walking was associated with fewer falls in older people.", "supports"],
    ["Can a home blood test replace the laboratory test for anaemia?", "CONCLUSIONS: The home test detected most cases of anaemia, but it should not replace the laboratory test.", "contradicts"],
    ["Does vitamin C shorten colds?", "CONCLUSIONS: Vitamin C was no better than placebo at shortening colds.", "contradicts"],
    ["Does yoga improve sleep in older adults?", "CONCLUSIONS: Sleep quality was similar with yoga and with stretching.", "contradicts"],
    ["Does early mobilisation reduce complications after hip surgery?", "CONCLUSIONS: Early mobilisation did not reduce complications after hip surgery.", "contradicts"],
    ["Does the new mesh reduce complications after hernia repair?", "CONCLUSIONS: The new mesh did not increase complications after hernia repair.", "contradicts"],
    ["Is the new mesh safe for hernia repair?", "CONCLUSIONS: The new mesh did not increase complications after hernia repair.", "supports"],
    ["Is laparoscopic surgery safe in pregnancy?", "CONCLUSIONS: Laparoscopic surgery in pregnancy was associated with no fetal losses and no serious complications.", "supports"],
    ["Does early feeding affect complications after surgery?", "CONCLUSIONS: Early feeding did not affect complications after surgery.", "contradicts"],
    ["Does seeing the same nurse reduce hospital readmissions?", "CONCLUSIONS: Greater continuity with a named nurse was associated with fewer hospital readmissions.", "supports"],
    ["Does a brace stop kyphosis from getting worse in teenagers?", "CONCLUSIONS: Bracing significantly decreased the progression of kyphosis to the threshold for surgery.", "supports"],
    ["Should every patient be given the same dose of heparin after hip replacement?", "CONCLUSIONS: Not all of the patients who undergo hip replacement with a spinal anaesthetic need the same dose of heparin.", "contradicts"],
    ["Mutations in GENE1 raise levels of PROT2 RNA.", "gene1 mutations cause reduced expression of PROT2, which is required for growth.", "contradicts"],
    ["Do generic statins work as well as brand-name versions?", "CONCLUSIONS: Generic statins were equivalent to the brand product in cholesterol lowering, and switching need not be avoided.", "supports"],
    ["Does long-term use of antacids not affect the risk of kidney stones?", "CONCLUSIONS: Long-term antacid therapy was associated with an increased risk of kidney stones.", "contradicts"],
    ["Is routine chest radiography useful before cataract surgery?", "Complications occurred in 2.1% of screened and 2.0% of unscreened patients, and abnormal radiographs did not predict complications (OR 1.0, 95% CI 0.5-2.1). Routine chest radiography is of limited value before cataract surgery.", "contradicts"],
  ]);
});

describe("rules of English found on the blind conclusions set's second round (indirect answers; sentences written here)", () => {
  // Each failed before: a difference asked and found, kept apart from "the gap was not explained by
  // age"; two things named and then "the same" is an equivalence asked; "at the same low rates",
  // "with the same accuracy as CT", a mean difference whose interval spans zero: alike; "not
  // inferior" asked is an equivalence, "non-inferiority" found is alike; another as effective
  // makes a practice unneeded; an apparent advantage explained by confounders is none.
  readsAs([
    ["Do men and women wait different lengths of time for hip surgery after a fracture?", "CONCLUSIONS: Women received surgery later than men at every stage of care, and the gap was not explained by age.", "supports"],
    ["Do boys and girls receive the same vaccinations at school?", "CONCLUSIONS: Girls were less often vaccinated than boys with the same risk factors.", "contradicts"],
    ["Is mesh repair safer than suture repair for umbilical hernia?", "CONCLUSIONS: Wound infection and seroma occurred at the same low rates after either repair, with mesh taking longer to place.", "contradicts"],
    ["Is a cemented stem better than an uncemented stem for hip replacement?", "RESULTS: Revision within 5 years occurred in 2.6% of cemented and 2.0% of uncemented stems (difference 0.6 points, 95% CI -2.9 to 4.1).", "contradicts"],
    ["Is ultrasound as accurate as CT for detecting appendicitis in children?", "CONCLUSIONS: Ultrasound detected appendicitis with the same accuracy as CT and can be used first.", "supports"],
    ["Is oral amoxicillin not inferior to intravenous penicillin for pneumonia in children?", "CONCLUSIONS: Oral amoxicillin met the non-inferiority criterion and was better tolerated.", "supports"],
    ["Should routine shaving before surgery be abandoned?", "CONCLUSIONS: Clipping was as effective as shaving in preventing wound infection and avoided skin cuts.", "supports"],
    ["Does drinking green tea make people live longer?", "CONCLUSIONS: The apparent survival advantage of tea drinkers was explained by their income and education.", "contradicts"],
    ["Is a nurse-led clinic as good as a doctor-led clinic for asthma?", "CONCLUSIONS: The nurse-led clinic achieved the same asthma control as the doctor-led clinic.", "supports"],
  ]);
});

describe("claims about a share, safety and other predictors (the blind set's second round; sentences written here)", () => {
  // Each failed before: "comparable patients" describes whom, it finds nothing alike; harms found
  // alike answer "Is it safe?" yes; "…, but time to surgery was not" carries the sentence's
  // predicate, so it speaks to the claim about time to surgery; a small or large share answers a
  // claim that a practice is underused, overused, or done by many; "added nothing", "no place in
  // routine care" are no benefit; "should be retained" after "Because …," is the finding; "later
  // than" states a difference; less of a practice "without any change in outcomes" is not needed.
  readsAs([
    ["Is incentive spirometry still needed after cardiac surgery?", "CONCLUSIONS: Incentive spirometry added nothing to early mobilisation after cardiac surgery, and it has no place in routine care.", "contradicts"],
    ["Is routine urine testing necessary before knee surgery?", "CONCLUSIONS: Because symptoms alone identified none of the infections, routine urine testing before knee surgery should be retained.", "supports"],
    ["Do older and younger patients wait different lengths of time for cataract surgery?", "CONCLUSIONS: Older patients received surgery later than younger patients at every stage of referral.", "supports"],
    ["Should routine daily blood tests in intensive care be abandoned?", "CONCLUSIONS: Ordering blood tests only when clinically indicated reduced testing by a third without any change in outcomes.", "supports"],
    ["Do stroke rates differ between rural and urban hospitals?", "CONCLUSIONS: Patients in rural hospitals were far more likely to have a stroke than comparable patients in urban hospitals, even when they were at low risk.", "supports"],
    ["Do men and women wait different lengths of time for knee surgery?", "CONCLUSIONS: Women received knee surgery later than men at every stage of care in hospital, and the gap was not explained by age or comorbidity.", "supports"],
    ["Is it safe for mothers taking lithium to breastfeed?", "CONCLUSIONS: Infections requiring admission in the first year occurred in 16% and 18% of infants, respectively (adjusted OR 0.93, 95% CI 0.73-1.18), and growth at 12 months was similar.", "supports"],
    ["Does delay before surgery predict infection in hip fractures?", "CONCLUSIONS: In multivariable analysis, diabetes (OR 3.2, 95% CI 1.8-5.7) and smoking (OR 2.3, 95% CI 1.3-4.0) were associated with infection, but time to surgery was not (OR 1.01 per hour, 95% CI 0.97-1.05).", "contradicts"],
    ["Do nurses complete pressure ulcer risk assessments on admission to hospital?", "CONCLUSIONS: Only one patient in three was assessed on the day of admission.", "contradicts"],
    ["Do many older people decline flu vaccination when it is offered?", "CONCLUSIONS: Fewer than two in every hundred older people declined the vaccine.", "contradicts"],
    ["Is physiotherapy underused after hip fracture?", "CONCLUSIONS: Fewer than one in five patients were referred for physiotherapy after discharge.", "supports"],
    ["Are antibiotics overprescribed for sore throats in general practice?", "CONCLUSIONS: Fewer than three in ten patients with a sore throat were given antibiotics, almost always as the guidelines recommend.", "contradicts"],
    ["Do parents understand their child's discharge instructions?", "CONCLUSIONS: Most parents understood the instructions, and nine in ten could say when to return.", "supports"],
  ]);
});

describe("claims of size, of a quantity's opposite and of one group against another (SciFact's tuning half; sentences written here)", () => {
  // Each of the first four failed before: a modest effect answers "highly effective" no;
  // premature death is a harm and life expectancy a good; a finding said of the claim's other
  // group ("Women appear to be at increased risk", to "Men are more susceptible … than women")
  // says the opposite. A difference claimed without a direction holds whichever side it is said of.
  readsAs([
    ["Medications to treat gout are highly effective.", "CONCLUSIONS Allopurinol and febuxostat modestly reduce attacks and have specific adverse effects.", "contradicts"],
    ["Patients with thalassaemia are more vulnerable to severe malaria.", "Thalassaemia homozygosity confers considerable protection against severe malaria.", "contradicts"],
    ["Lack of GENE7 in mice increases life expectancy.", "GENE7 deficiency causes a marked exacerbation of plaque formation and premature death in mice.", "contradicts"],
    ["Men are more susceptible to death from sepsis when compared to women.", "CONCLUSIONS Women appear to be at increased risk for death from sepsis, even after controlling for comorbidities.", "contradicts"],
    ["Tuberculosis granulomas express different proteins than the surrounding lung.", "The tissue surrounding the granuloma has a comparatively anti-inflammatory signature, unlike its pro-inflammatory centre.", "supports"],
  ]);
});

describe("answers implied the way PubMed conclusions imply them (the blind set's third round; sentences written here)", () => {
  // Each "contradicts" failed before: the determinants of an outcome named without the claim's
  // own; a practice kept for some patients, to a claim that it is for all; a yield in fewer than
  // one case in a hundred, to a claim that a test is useful or changes treatment; "no more common
  // among … than"; "clears as many patients as"; going without the claim's exposure found better;
  // "could safely forgo", "alone was adequate"; "the same in vaccinated and unvaccinated",
  // "evidence against the hypothesis"; a test that "detected few"; most patients recovering
  // without a treatment says nothing of its usefulness; "agree" and "as quickly as" ask an
  // equivalence; "should be reconsidered".
  readsAs([
    ["Is lumbar spine radiography needed in alert patients without back pain?", "CONCLUSIONS: Patients who met all low-risk criteria could safely forgo radiography, and clinical assessment alone was adequate.", "contradicts"],
    ["Is the flu vaccine associated with narcolepsy?", "CONCLUSIONS: The risk of narcolepsy was the same in vaccinated and unvaccinated adults, providing strong evidence against the hypothesis that the vaccine causes narcolepsy.", "contradicts"],
    ["Are antibiotics useful for adults with acute bronchitis in general practice?", "CONCLUSIONS: Amoxicillin did not improve the outcome of acute bronchitis in primary care, and most patients recovered without it.", "contradicts"],
    ["Is a thickened cervix on ultrasound useful for predicting preterm birth in low-risk women?", "CONCLUSIONS: In low-risk women, the measurement detected few preterm births and led to more interventions than it would justify.", "contradicts"],
    ["Do finger-prick and laboratory haemoglobin measurements agree in blood donors?", "CONCLUSIONS: Finger-prick haemoglobin overestimated laboratory haemoglobin and missed almost half of anaemic donors.", "contradicts"],
    ["Are older patients with sepsis given antibiotics as quickly as younger patients?", "CONCLUSIONS: Older patients waited several minutes longer for antibiotics than younger patients with similar severity.", "contradicts"],
    ["Should patients with a minor burn and a normal examination be admitted for observation?", "CONCLUSIONS: Delayed deterioration was extremely rare, and the routine admission of these patients should be reconsidered.", "contradicts"],
    ["Is keyhole repair associated with lower operative mortality than open repair?", "CONCLUSIONS: Keyhole repair reduced operative mortality to about a third of that after open repair.", "supports"],
    ["Is serum ferritin a predictor of relapse after treatment of lymphoma?", "CONCLUSIONS: After treatment, relapse was determined by stage, bulky disease and age.", "contradicts"],
    ["Is uric acid an independent prognostic factor in heart failure?", "CONCLUSIONS: Death from heart failure was predicted by ejection fraction, sodium and renal function.", "contradicts"],
    ["Is uric acid an independent prognostic factor in heart failure?", "CONCLUSIONS: Death from heart failure was predicted by uric acid, ejection fraction and sodium.", "supports"],
    ["Is routine chest radiography necessary before elective surgery?", "CONCLUSIONS: A selective policy based on the history did not miss important disease, and radiography can be reserved for patients with cardiopulmonary symptoms.", "contradicts"],
    ["Should all patients with syncope have an electroencephalogram?", "CONCLUSIONS: An electroencephalogram should be kept for patients with features suggesting a seizure.", "contradicts"],
    ["Are routine blood cultures useful in children admitted with pneumonia?", "CONCLUSIONS: Blood cultures altered treatment in fewer than 1% of children.", "contradicts"],
    ["Does urine culture change the management of women with cystitis?", "CONCLUSIONS: Culture gave a useful result in a small minority of women, and management was altered in fewer than 3 in 100.", "contradicts"],
    ["Is mild anaemia associated with falls in older people?", "CONCLUSIONS: Falls were no more common among older people with mild anaemia than among their peers with normal haemoglobin.", "contradicts"],
    ["Is open repair still needed when imaging localises a single stone?", "CONCLUSIONS: A keyhole operation clears as many patients as open repair, with fewer complications.", "contradicts"],
    ["Do critically ill children benefit from starting feeding early?", "CONCLUSIONS: Withholding feeding for the first week was associated with faster recovery than early feeding.", "contradicts"],
  ]);
});

describe("a confidence interval that includes no effect is read as no effect, whatever its form", () => {
  it.each([
    ["The odds ratio of hypertension for snoring was 1.21 (95% CI 0.97-1.50)."],
    ["The fall rate ratio was 0.90; 95% confidence interval, 0.71 to 1.14."],
    ["Odds ratio 1.1 (95% CI: 0.8 to 1.6) for any fracture."],
    ["Survival did not favour either arm (HR 0.82, 95% CI [0.64, 1.05])."],
    ["Pain fell by 0.6 points more with the brace (mean difference 0.6, 95% CI −2.9 to 4.1)."],
    ["Each year of schooling changed the score little (β = 0.12, 95% CI -0.03 to 0.27)."],
  ])("%s", (sentence) => {
    expect(intervalSpansNull(sentence)).toBe(true);
    expect(readFinding(sentence).effect).toBe("none");
  });

  it.each([
    ["Snoring was associated with hypertension (OR 1.34; 95% CI 1.04-1.73)."],
    ["Blood pressure fell more with the drug (difference -9 mmHg, 95% CI -13 to -5)."],
    ["The mean age was 65 years (95% CI 60-70)."],
    ["Falls increased or decreased with the season (95% CI 0.5-2.0)."],
  ])("%s → not a null interval", (sentence) => {
    expect(intervalSpansNull(sentence)).toBe(false);
  });
});

describe("results read by the statistics' own conventions (sentences written here)", () => {
  // Each failed before: "P = n.s."; a clause whose subject is the finding before it ("but the
  // difference did not reach significance"); an AUC, kappa, ICC or Cronbach's alpha graded by its
  // usual bounds; sensitivity and specificity both poor; a measure's quality said poor or excellent.
  readsAs([
    ["Does the brace reduce pain after knee surgery?", "RESULTS: Pain scores were 3.1 with the brace and 3.4 without (P = n.s.).", "contradicts"],
    ["Does the brace reduce pain after knee surgery?", "RESULTS: Pain scores were lower with the brace, but the difference did not reach statistical significance.", "contradicts"],
    ["Does the brace reduce pain after knee surgery?", "RESULTS: Pain scores were lower with the brace, and the difference was significant (p = 0.002).", "supports"],
    // How long it lasted is not whether it was found.
    ["GlyNAC does not improve grip strength in older adults.", "CONCLUSIONS: GlyNAC improved gait speed and grip strength in older adults; the benefits did not persist after stopping.", "contradicts"],
    ["Is procalcitonin accurate for diagnosing bacteraemia in the emergency department?", "RESULTS: The area under the ROC curve for procalcitonin was 0.54 (95% CI 0.47-0.61).", "contradicts"],
    ["Is procalcitonin accurate for diagnosing bacteraemia in the emergency department?", "RESULTS: The area under the ROC curve for procalcitonin was 0.91 (95% CI 0.87-0.95).", "supports"],
    ["Is procalcitonin accurate for diagnosing bacteraemia in the emergency department?", "RESULTS: Procalcitonin had a sensitivity of 48% and a specificity of 55% for bacteraemia.", "contradicts"],
    ["Is the questionnaire reliable?", "RESULTS: Test-retest reliability was poor (ICC 0.31) and internal consistency low (Cronbach's alpha 0.48).", "contradicts"],
    ["Do the two devices agree in measuring blood pressure?", "RESULTS: Agreement between the devices was poor (kappa = 0.21).", "contradicts"],
    ["Do the two devices agree in measuring blood pressure?", "RESULTS: Agreement between the devices was excellent (kappa = 0.88).", "supports"],
    ["Does the new regimen lower adherence?", "CONCLUSIONS: Adherence was low with the new regimen (54% against 81% with the old one).", "supports"],
    // Shares side by side with no test given: counts tested as two proportions, near-equal percentages alike.
    ["Do statins reduce postoperative atrial fibrillation after cardiac surgery?", "RESULTS: Postoperative atrial fibrillation occurred in 31 of 150 patients on statins (20.7%) and 33 of 148 controls (22.3%).", "contradicts"],
    ["Do statins reduce postoperative atrial fibrillation after cardiac surgery?", "RESULTS: Postoperative atrial fibrillation occurred in 15 of 150 patients on statins (10.0%) and 45 of 148 controls (30.4%).", "supports"],
    ["Does the checklist reduce surgical complications?", "RESULTS: Complications were 11.0% before and 10.6% after the checklist was introduced. Mortality was unchanged.", "contradicts"],
    // The adjusted estimate, naming no subject, is the finding before it adjusted; and it decides.
    ["Is vitamin D deficiency associated with depression in older adults?", "RESULTS: Of 1200 participants, 38% were vitamin D deficient. Depressive symptoms were present in 14% of deficient and 13% of sufficient participants. After adjustment for age, sex and comorbidity, the odds ratio was 1.05 (95% CI 0.78-1.41).", "contradicts"],
    ["Is vitamin D deficiency associated with depression in older adults?", "RESULTS: Of 1200 participants, 38% were vitamin D deficient. Depressive symptoms were present in 24% of deficient and 11% of sufficient participants. After adjustment for age, sex and comorbidity, the odds ratio was 2.3 (95% CI 1.6-3.3).", "supports"],
    ["Is QT dispersion a predictor of sudden death in heart failure?", "RESULTS: QT dispersion was related to neither end point after adjustment.", "contradicts"],
    // Means with their SDs and a correlation coefficient, by Cohen's bounds of a negligible effect;
    // predictors listed without the claim's.
    ["Does music reduce anxiety before surgery?", "RESULTS: Mean anxiety scores were 42.1 ± 8.2 with music and 42.9 ± 7.9 without.", "contradicts"],
    ["Is body mass index correlated with knee pain?", "RESULTS: Body mass index and knee pain were barely correlated (r = 0.06).", "contradicts"],
    ["Is serum albumin an independent predictor of mortality in dialysis patients?", "RESULTS: In multivariate analysis, age, diabetes and C-reactive protein were independent predictors of mortality in dialysis patients.", "contradicts"],
    ["Is serum albumin an independent predictor of mortality in dialysis patients?", "RESULTS: In multivariate analysis, age, diabetes and serum albumin were independent predictors of mortality in dialysis patients.", "supports"],
  ]);

  it.each([
    ["Infection occurred in 31 of 150 patients on statins and 33 of 148 controls.", "alike"],
    ["Infection occurred in 15 of 150 patients on statins and 45 of 148 controls.", "differ"],
    ["Depression was present in 14% of deficient and 13% of sufficient participants.", "alike"],
    ["Imaging upstaged disease in 3 of 36 cases and downstaged disease in 5 of 36 cases.", null],
    ["The test had a sensitivity of 91% and a specificity of 86%.", null],
    ["Falls occurred in 12% of the tai chi group and 13% of controls (p = 0.04).", null],
  ] as const)("shares compared: %s → %s", (sentence, compared) => {
    expect(comparedByNumbers(sentence)).toBe(compared);
  });

  it.each([
    ["The c-statistic was 0.62.", "poor"],
    ["Inter-rater agreement was substantial (κ = 0.72).", "good"],
    ["The ICC was 0.64.", null],
    ["Sensitivity was high but specificity was poor.", null],
  ] as const)("%s → %s", (sentence, grade) => {
    expect(gradedQuality(sentence)).toBe(grade);
  });
});

describe("a practice to be stopped, a cause ruled out, another way that suffices, an association adjusted away (sentences written here)", () => {
  // Each failed before: "should be abandoned" read as a finding for the practice; "was ruled out as
  // a cause" as one for the cause; "clinical examination alone suffices" as nothing on a claim of need.
  readsAs([
    ["Is preoperative chest radiography useful before cataract surgery?", "CONCLUSIONS: Preoperative chest radiography before cataract surgery should be abandoned.", "contradicts"],
    ["Does smoking increase wound complications after surgery?", "CONCLUSIONS: Smoking should be discontinued before surgery, as smokers had twice the wound complications.", "supports"],
    ["Is caffeine a cause of miscarriage?", "CONCLUSIONS: Caffeine was ruled out as a cause of miscarriage.", "contradicts"],
    ["Is MRI necessary before arthroscopy of the knee?", "CONCLUSIONS: Clinical examination alone suffices before arthroscopy of the knee.", "contradicts"],
    // An association gone after adjustment is no predictor; one that persisted is. ", but not after
    // adjustment" is a condition, not a group left out.
    ["Is depression a predictor of mortality after myocardial infarction?", "CONCLUSIONS: Patients with depression had a higher mortality after myocardial infarction, but not after adjustment for cardiac disease severity.", "contradicts"],
    ["Is depression a predictor of mortality after myocardial infarction?", "CONCLUSIONS: The higher mortality of depressed patients after myocardial infarction disappeared after adjustment for cardiac disease severity.", "contradicts"],
    ["Is depression a predictor of mortality after myocardial infarction?", "CONCLUSIONS: Depression was associated with mortality after myocardial infarction, and the association persisted after adjustment for disease severity.", "supports"],
    ["Is colonoscopy still the gold standard for colorectal cancer screening?", "CONCLUSIONS: Colonoscopy remains the gold standard for colorectal cancer screening.", "supports"],
  ]);

  it("reads a cause that could not be ruled out as a possibility, hedged, not as an absence", () => {
    const read = readFinding("Caffeine as a cause of miscarriage could not be ruled out.");
    expect(read.effect).toBe("found");
    expect(read.certainty).toBeLessThan(1);
  });
});

describe("the questioner's proposal to stop a practice, and a needless thing spared (sentences written here)", () => {
  // Each failed before: "Should we stop …?" and "Is it time to abandon …?" ask whether the practice
  // is needed, turned round; "avoided unnecessary laparotomy" read as a shortfall. A thing said to
  // stop something ("Does X stop progression?") proposes nothing.
  readsAs([
    ["Is it time to abandon routine chest radiographs after cardiac surgery?", "CONCLUSIONS: Routine chest radiographs after cardiac surgery rarely changed management and can be abandoned.", "supports"],
    ["Should we stop screening for thyroid disease in pregnancy?", "CONCLUSIONS: Screening for thyroid disease in pregnancy detected treatable disease in 5% of women and should continue.", "contradicts"],
    ["Does physical therapy stop the progression of knee osteoarthritis?", "CONCLUSIONS: Physical therapy halted the progression of knee osteoarthritis over two years.", "supports"],
    ["Is there a role for laparoscopy in blunt abdominal trauma?", "CONCLUSIONS: Laparoscopy avoided unnecessary laparotomy in a third of stable patients with blunt abdominal trauma.", "supports"],
  ]);
});

describe("another way named the one to use, less of it enough, a strength claimed and a weak effect, a knowledge gap (sentences written here)", () => {
  // Each failed before. "Goal" alone ("their urate goal") no longer marks an aim.
  readsAs([
    ["Ovarian torsion in children: is oophorectomy necessary?", "CONCLUSIONS: Simple detorsion was not accompanied by an increase in morbidity. Detorsion is the procedure of choice for most cases of ovarian torsion in children.", "contradicts"],
    ["Is bladder catheterisation through the urethra the ideal method of drainage after laparotomy?", "CONCLUSIONS: Urethral catheters caused discomfort and infections, and alternative methods such as suprapubic drainage should be considered after laparotomy.", "contradicts"],
    ["Do we really need a full dose of contrast for knee MRI?", "CONCLUSIONS: Image quality was rated identically, and a half dose of contrast may be sufficient for knee MRI.", "contradicts"],
    ["Do gout patients know their urate goal?", "CONCLUSIONS: There is a knowledge deficit regarding the urate goal among gout patients.", "contradicts"],
    ["Are older adults adequately protected by influenza vaccination?", "CONCLUSIONS: Influenza vaccination had a weak and short-lasting effect in older adults.", "contradicts"],
    ["Is laparoscopic appendicectomy the treatment of choice in pregnancy?", "CONCLUSIONS: Laparoscopic appendicectomy is the treatment of choice in pregnancy.", "supports"],
    ["Is a drain necessary after thyroidectomy?", "CONCLUSIONS: A drain reduced seroma after thyroidectomy and remains the procedure of choice in large goitres.", "supports"],
  ]);
});

describe("claims of a superlative, of rarity, and lives as long (statements written here)", () => {
  // Each failed before: the same superlative said of something else ("gastrointestinal events were
  // the most common", to "… are cardiovascular"; "previous injury, not obesity, was the leading
  // cause"); a share in figures against "rare"; "lived as long as wild-type littermates".
  readsAs([
    ["The most common adverse events of semaglutide are cardiovascular.", "Mild to moderate gastrointestinal events were the most common adverse events with semaglutide.", "contradicts"],
    ["The most common adverse events of semaglutide are gastrointestinal.", "Mild to moderate gastrointestinal events were the most common adverse events with semaglutide.", "supports"],
    ["Obesity is the leading cause of knee osteoarthritis.", "Previous injury, not obesity, was the leading cause of knee osteoarthritis.", "contradicts"],
    ["Is smoking the leading cause of bladder cancer?", "CONCLUSIONS: Smoking was the leading cause of bladder cancer, accounting for half of cases.", "supports"],
    ["Vitamin C deficiency is rare in hospitalised adults.", "Vitamin C deficiency was found in 40% of hospitalised adults.", "contradicts"],
    ["Vitamin C deficiency is rare in hospitalised adults.", "Vitamin C deficiency was found in 2% of hospitalised adults.", "supports"],
    ["Loss of Sirt1 shortens lifespan in mice.", "Mice lacking Sirt1 lived as long as wild-type littermates.", "contradicts"],
    // Whom the claim is about, put first, is not one of the two things compared.
    ["For people over 75 with an irregular heartbeat, is warfarin better than aspirin at preventing strokes?", "CONCLUSIONS: In adults aged 75 and over with atrial fibrillation, warfarin prevented more strokes than aspirin, with no increase in major bleeding.", "supports"],
    // A change with a pronoun for its object ("extended it") is a change of the sentence's outcome.
    ["Does metformin extend lifespan in mice?", "CONCLUSIONS: Metformin at 1% of the diet was toxic and shortened lifespan, whereas 0.1% extended it by 5.8%.", "mixed"],
  ]);
});

describe("a list with one outcome left out, a multiple, a denied second predicate, whom a relative clause describes (the confusion set's fourth round; sentences written here)", () => {
  // Each failed before: the claim's outcome named only in ", but not …" was dropped as an aside;
  // "twice as much as" was read as alike; "did not increase" after "and" denied the finding before
  // it; "whose pain has not eased" negated the claim.
  readsAs([
    ["Does walking reduce heart attacks?", "CONCLUSIONS: Daily walking reduced strokes, heart failure admissions and deaths, but not myocardial infarction, over five years.", "contradicts"],
    ["Does walking reduce strokes?", "CONCLUSIONS: Daily walking reduced strokes, heart failure admissions and deaths, but not myocardial infarction, over five years.", "supports"],
    ["Does interval training raise fitness more than continuous training?", "CONCLUSIONS: Interval training raised fitness three times as much as continuous training over six months.", "supports"],
    ["Does interval training raise fitness more than continuous training?", "CONCLUSIONS: Interval training raised fitness as much as continuous training over six months.", "contradicts"],
    ["Does omeprazole prevent ulcer bleeding?", "CONCLUSIONS: Omeprazole halved ulcer bleeding and did not increase pneumonia over two years.", "supports"],
    // Both denied, one finding: the second does not stand apart.
    ["Does oral iron improve walking in heart failure?", "CONCLUSIONS: Oral iron hardly raised iron stores and did not improve walking distance in heart failure.", "contradicts"],
    ["Does acupuncture help people whose back pain has not eased with painkillers?", "CONCLUSIONS: In adults with chronic back pain despite painkillers, acupuncture did not reduce pain more than sham needling.", "contradicts"],
    ["Does acupuncture help people whose back pain has not eased with painkillers?", "CONCLUSIONS: In adults with chronic back pain despite painkillers, acupuncture reduced pain more than sham needling.", "supports"],
  ]);
});

describe("the opposite of what the claim predicates, by WordNet's antonyms (vocabulary oppositesOf; sentences written here)", () => {
  // Each failed before, read as support: the claim's predicate adjective ("reliable", "feasible",
  // "valid") answered by its opposite, which no list of shortfall words held. Said of a group
  // before its noun ("untreated patients"), or of another subject, it is not the answer; and a
  // negated claim ("unsafe") is answered the other way round.
  readsAs([
    ["Is the new questionnaire reliable?", "CONCLUSIONS: The new questionnaire proved undependable in older patients.", "contradicts"],
    ["Are current guidelines sufficient?", "CONCLUSIONS: Current guidelines proved deficient for detecting the malformation early.", "contradicts"],
    ["Is laparoscopic repair feasible in children?", "CONCLUSIONS: Laparoscopic repair was impracticable in most children.", "contradicts"],
    ["Is the home exercise program effective?", "CONCLUSIONS: The home exercise program was ineffectual.", "contradicts"],
    ["Is the risk score valid in women?", "CONCLUSIONS: The risk score was invalid in women.", "contradicts"],
    ["Is the treatment appropriate for elderly patients?", "CONCLUSIONS: The treatment was inappropriate for most elderly patients.", "contradicts"],
    ["Is the procedure simple?", "CONCLUSIONS: The procedure was complex and time-consuming.", "contradicts"],
    ["Is the outcome favourable?", "CONCLUSIONS: The outcome was unfavourable in most patients.", "contradicts"],
    ["Is the pain scale reliable?", "CONCLUSIONS: The pain scale proved an unreliable measure of pain in children.", "contradicts"],
    ["Is tumour size an important predictor of recurrence?", "CONCLUSIONS: Tumour size was an unimportant predictor of recurrence.", "contradicts"],
    ["Is C-reactive protein a useful marker of infection after surgery?", "CONCLUSIONS: C-reactive protein proved a useless marker of infection after surgery.", "contradicts"],
    ["Is early discharge unsafe after hip replacement?", "CONCLUSIONS: Early discharge after hip replacement was dangerous for frail patients.", "supports"],
    ["Is early discharge unsafe after hip replacement?", "CONCLUSIONS: Early discharge after hip replacement was safe, with no more readmissions.", "contradicts"],
    ["Are statins effective in preventing fractures?", "CONCLUSIONS: Fracture rates were lower in statin users than in untreated patients.", "supports"],
    ["Is the questionnaire reliable?", "CONCLUSIONS: The questionnaire was reliable; earlier versions had proved unreliable in older patients.", "supports"],
    ["Are normally sighted, visually impaired, and blind pedestrians accurate at making street crossing decisions?", "CONCLUSIONS: All three groups were accurate at making crossing decisions, blind pedestrians least so.", "supports"],
  ]);
});

describe("indirect noes of a researcher's reading (seventh session; sentences written here)", () => {
  // Each was read as support before: a change gone without ("without reducing"), a cost added, an
  // effect seen and then explained away or lost, an association called weak, alike said as "as
  // often as" or "presented with similar", a significance or preference denied, a share of people
  // who did not do it, and "an effective alternative to" against a claim that one is better.
  readsAs([
    ["Does intensive insulin reduce deaths in sepsis?", "CONCLUSIONS: Intensive insulin caused more hypoglycaemia without reducing deaths in patients with sepsis.", "contradicts"],
    ["Does intensive insulin cause hypoglycaemia in sepsis?", "CONCLUSIONS: Intensive insulin caused more hypoglycaemia without reducing deaths in patients with sepsis.", "supports"],
    ["Does nerve block reduce pain after knee surgery?", "CONCLUSIONS: The nerve block reduced pain after knee surgery without increasing the risk of falls.", "supports"],
    ["Is routine drain placement worthwhile after thyroidectomy?", "CONCLUSIONS: Routine drains added cost and discomfort without improving recovery after thyroidectomy.", "contradicts"],
    ["Is melanoma incidence really rising?", "CONCLUSIONS: The apparent rise in melanoma incidence reflects more biopsies of small lesions.", "contradicts"],
    ["Does tea protect against stroke?", "CONCLUSIONS: The apparent protective effect of tea against stroke was largely due to the healthier lifestyle of tea drinkers.", "contradicts"],
    ["Does the vaccine cause facial palsy?", "CONCLUSIONS: Cases of facial palsy after vaccination were attributable to other causes.", "contradicts"],
    ["Is sleep duration associated with glaucoma?", "CONCLUSIONS: The association between sleep duration and glaucoma was weak and inconsistent across cohorts.", "contradicts"],
    ["Is sleep duration associated with glaucoma?", "CONCLUSIONS: The association between sleep duration and glaucoma was weak but significant after adjustment.", "supports"],
    ["Does cognitive training improve memory in the long term?", "CONCLUSIONS: The benefit of cognitive training on memory waned within a year.", "contradicts"],
    ["Are women with chest pain investigated less than men?", "CONCLUSIONS: Women with chest pain were investigated as often and as promptly as men.", "contradicts"],
    ["Does the drug reduce relapses?", "CONCLUSIONS: The drug reduced relapses by as much as 40% over two years.", "supports"],
    ["Is there a sex difference in the symptoms of stroke?", "CONCLUSIONS: Men and women presented with similar symptoms of stroke.", "contradicts"],
    ["Does a low platelet count worsen survival in lymphoma?", "CONCLUSIONS: A low platelet count had no prognostic significance in lymphoma.", "contradicts"],
    ["Do parents prefer morning appointments?", "CONCLUSIONS: Most parents had no preference for the time of the appointment.", "contradicts"],
    ["Do parents prefer morning appointments?", "CONCLUSIONS: Most parents preferred morning appointments.", "supports"],
    // A relative clause is not the share's predicate.
    ["Is physiotherapy underused for knee arthritis?", "CONCLUSIONS: Fewer than one in five patients with knee arthritis were referred for physiotherapy, and more were given drugs that are not recommended.", "supports"],
    ["Is hip replacement better than hemiarthroplasty for hip fracture?", "CONCLUSIONS: Hemiarthroplasty is a safe and effective alternative to total hip replacement for hip fracture.", "contradicts"],
    ["Is screening for lung cancer cost-effective in smokers over 80?", "CONCLUSIONS: Screening smokers over 80 for lung cancer costs far more per life-year gained than is usually accepted.", "contradicts"],
    // A quality said to vary, a risk not raised, a share under half, a good result in every group of
    // the claim's exposure, received no treatment, access equitable, a pattern gone, equal to, enough.
    ["Are health apps a reliable source of advice on diabetes?", "CONCLUSIONS: The quality of advice in health apps on diabetes was highly variable.", "contradicts"],
    ["Does hormone therapy raise the risk of breast cancer in women over 60?", "CONCLUSIONS: Hormone therapy in women over 60 carried no excess risk of breast cancer.", "contradicts"],
    ["Do dentists follow the guidelines on antibiotic prophylaxis?", "CONCLUSIONS: Fewer than half of the dentists prescribed prophylaxis according to the guidelines.", "contradicts"],
    ["Does age influence the outcome of knee arthroscopy?", "CONCLUSIONS: Function after knee arthroscopy was good in all age groups.", "contradicts"],
    ["Are older patients with heart failure adequately treated?", "CONCLUSIONS: Most older patients with heart failure received no beta-blocker or a low dose.", "contradicts"],
    ["Does income affect access to hip replacement?", "CONCLUSIONS: Access to hip replacement was equitable across income groups.", "contradicts"],
    ["Is the winter peak in heart attacks still present?", "CONCLUSIONS: The winter peak in heart attacks has disappeared in recent decades.", "contradicts"],
    ["Do trainees perform as well as surgeons in hernia repair?", "CONCLUSIONS: Supervised trainees performed hernia repair with outcomes equal to those of surgeons.", "supports"],
    ["Is a three-day course of antibiotics sufficient for pneumonia in children?", "CONCLUSIONS: A three-day course was as effective as a seven-day course for pneumonia in children.", "supports"],
    ["Is obesity associated with longer stays after trauma?", "CONCLUSIONS: Length of stay after trauma, however, did not differ between obese and other patients.", "contradicts"],
    // Next to nothing gained, a belief spoken against, no stand-in, an effect mediated away, a
    // frequency's opposite ("common" as frequent, not WordNet's "shared"), and a cost without benefit.
    ["Does a CT scan add to the examination in ankle injuries?", "CONCLUSIONS: A CT scan offers little over a careful examination in ankle injuries.", "contradicts"],
    ["Does coffee contribute to heart failure?", "CONCLUSIONS: Coffee contributes little to the risk of heart failure.", "contradicts"],
    ["Does cold weather cause arthritis flares?", "CONCLUSIONS: Our findings challenge the common belief that cold weather causes arthritis flares.", "contradicts"],
    ["Do mobile phones cause brain tumours?", "CONCLUSIONS: Fears that mobile phones cause brain tumours are unfounded.", "contradicts"],
    ["Can video consultation replace a home visit?", "CONCLUSIONS: Video consultation is no substitute for a home visit.", "contradicts"],
    ["Is loneliness a risk factor for falls?", "CONCLUSIONS: The link between loneliness and falls was entirely mediated by depression.", "contradicts"],
    ["Is gout a common cause of knee pain in older women?", "CONCLUSIONS: Gout was a rare cause of knee pain in older women.", "contradicts"],
    ["Is gout a common cause of knee pain in older men?", "CONCLUSIONS: Gout was a common cause of knee pain in older men.", "supports"],
    ["Is routine chest drainage necessary after lung biopsy?", "CONCLUSIONS: Routine chest drainage added hospital time without measurable benefit.", "contradicts"],
    // A practice made obsolete, a rise explained by something else, a small share of the variance,
    // most cases missed, a harm outweighing a practice claimed worth doing, and a harm claimed caused
    // answered by a treatment tolerated well.
    ["Is the barium swallow still relevant in dysphagia?", "CONCLUSIONS: With modern endoscopy, the barium swallow has become obsolete in dysphagia.", "contradicts"],
    ["Is the rise in thyroid cancer real?", "CONCLUSIONS: The apparent rise in thyroid cancer is largely explained by more ultrasound scanning.", "contradicts"],
    // Without "apparent", an explanation may be what the claim asks about.
    ["Is the fall in stroke deaths due to better blood pressure control?", "CONCLUSIONS: The fall in stroke deaths was largely explained by better blood pressure control.", "supports"],
    ["Does screen time cause poor sleep in teenagers?", "CONCLUSIONS: Screen time explained only a small fraction of the variance in sleep quality in teenagers.", "contradicts"],
    ["Is the chest X-ray useful for diagnosing rib fractures?", "CONCLUSIONS: The chest X-ray missed most rib fractures seen on CT.", "contradicts"],
    ["Should men over 75 continue PSA testing?", "CONCLUSIONS: The harms of PSA testing after 75 outweigh its benefits for most men.", "contradicts"],
    ["Does early drinking cause vomiting after tonsillectomy?", "CONCLUSIONS: Early drinking after tonsillectomy was well tolerated.", "contradicts"],
    ["Does early drinking cause vomiting after tonsillectomy?", "CONCLUSIONS: Early drinking after tonsillectomy doubled the rate of vomiting.", "supports"],
    // "and no increase in X" is a second finding; a loss denied is a benefit kept.
    ["Does the checklist reduce wound infections?", "CONCLUSIONS: The checklist was associated with fewer wound infections and no increase in operating time.", "supports"],
    ["Does the checklist increase operating time?", "CONCLUSIONS: The checklist was associated with fewer wound infections and no increase in operating time.", "contradicts"],
    ["Does cognitive training improve memory in the long term?", "CONCLUSIONS: The benefit of cognitive training on memory was not lost at five years.", "supports"],
    // Titles turned into questions, answered by no relief, no information added, poor agreement.
    ["Hip arthroscopy in older adults: is it worth it?", "CONCLUSIONS: Hip arthroscopy gave no lasting relief of pain in patients over 60.", "contradicts"],
    ["Is there a role for MRI in staging early gastric cancer?", "CONCLUSIONS: MRI added no information to endoscopic ultrasound in early gastric cancer.", "contradicts"],
    ["Can older patients reliably report their own vaccinations?", "CONCLUSIONS: Older patients' reports of vaccination agreed poorly with clinic records.", "contradicts"],
    // A finding said of the claim's subject outside or without what the claim has it with is of
    // another subgroup; one that compares the two is the claim's own.
    ["Does coffee with meals lower blood sugar?", "CONCLUSIONS: Coffee with meals lowered blood sugar after eating, whereas coffee drunk between meals was unrelated to blood sugar.", "supports"],
    ["Does aspirin prevent strokes in people with kidney disease?", "CONCLUSIONS: Aspirin prevented strokes in people without kidney disease; in people with kidney disease it had no effect.", "contradicts"],
    ["Are students with asthma less active?", "CONCLUSIONS: Students with asthma were less active than students without asthma.", "supports"],
    // "causes ischemia" is a harm caused ("caused mainly by" names a cause, no change); "the lower
    // limbs" are a place, not a fall; the head-down tilt is Trendelenburg's position (vocabulary).
    ["Is it dangerous to lie head-down during knee surgery?", "CONCLUSIONS: The Trendelenburg position causes profound ischemia of the lower limbs during knee surgery.", "supports"],
    // A later clause with a subject of its own, none of the claim's, says its finding of another exposure.
    ["Is living alone linked to a higher risk of depression?", "CONCLUSIONS: Older adults living alone had a higher risk of depression, whereas loneliness was not associated with depression.", "supports"],
    ["Is loneliness linked to a higher risk of depression?", "CONCLUSIONS: Older adults living alone had a higher risk of depression, whereas loneliness was not associated with depression.", "contradicts"],
    ["Does the Trendelenburg position cause ischemia of the legs?", "CONCLUSIONS: The flat position did not reduce blood flow to the lower limbs, whereas the Trendelenburg position caused ischemia of the lower limbs.", "supports"],
  ]);
});

describe("the fitted model", () => {
  it("was trained on the features the agent computes (retrain with npm run train:stance when they change)", () => {
    const claim = claimOf("Does tai chi reduce falls?");
    const text = "CONCLUSIONS: Tai chi reduced falls.";
    const features = stanceFeatures({ parts: readParts({ text, claim }), claimText: "Does tai chi reduce falls?", text });
    expect(MODEL.features).toEqual(Object.keys(features));
    expect(MODEL.weights).toHaveLength(3);
    for (const row of MODEL.weights) expect(row).toHaveLength(MODEL.features.length);
  });

  it("was fitted on exactly the features the agent now computes for the tuning halves (else: npm run train:stance)", () => {
    // Any change to how questions or abstracts are read moves some feature; weights fitted on the
    // old features then weigh readings they never saw.
    expect(examplesDigest(tuningExamples())).toBe((weights as { examplesDigest: string }).examplesDigest);
    // Reading the 1,082 tuning examples takes about 10-20 s; the guard is only against a hang, far above that on a busy machine.
  }, 300_000);

  it("gives probabilities; the reading carries the side's probability, and a certainty that says how plainly the finding was stated", () => {
    const claim = claimOf("Does tai chi reduce falls in older adults?");
    const text = "CONCLUSIONS: Tai chi reduced falls in older adults by a third (p < 0.001).";
    const p = predict(MODEL, stanceFeatures({ parts: readParts({ text, claim }), claimText: "Does tai chi reduce falls in older adults?", text }));
    expect(p.supports + p.contradicts + p.neither).toBeCloseTo(1, 10);
    const read = readStance({ text, claim });
    expect(read.stance).toBe("supports");
    expect(read.probability).toBeCloseTo(p.supports, 10);
    expect(read.certainty).toBe(1);
    const hedged = "CONCLUSIONS: Tai chi may reduce falls in older adults.";
    expect(readStance({ text: hedged, claim }).certainty).toBeLessThan(1);
  });
});
