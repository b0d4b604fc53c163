import { describe, expect, it } from "vitest";
import { recordAgeGroups } from "@/agent/literature/age-groups";
import { classifyEvidence, isCaseReport, isCrossSectional, isStudyProtocol } from "@/agent/literature/evidence";
import { comparatorTerms, readQuestion } from "@/agent/literature/reading";
import { roleInputOf } from "@/agent/literature/role-input";
import { judgeRecords } from "@/agent/literature/relevance";
import { howGiven, testsNothing } from "@/agent/literature/studied";
import { decideRole } from "@/agent/literature/roles";
import { extractSnapshot } from "@/agent/literature/snapshot";
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
    // An age is whom the question is about, wherever it stands, never a word of a concept.
    ["Does a low-protein diet help people over 65 live longer?", { "low-protein": "exposure:low-protein diet", live: "outcome:live longer", "65": "context:65" }],
    ["Does exercise reduce falls in adults aged 70 years or older?", { exercise: "exposure:exercise", falls: "outcome:falls" }],
    // Whom a verb helps is the population; what they are helped to do, the outcome.
    ["Does metformin help older adults live longer?", { metformin: "exposure:metformin", older: "context:older adults", live: "outcome:live longer" }],
    // "stop" relates as "prevent" does; "added to" says what the exposure is given with, and the relation is the verb after it.
    ["Does taking vitamin D stop old people falling over?", { vitamin: "exposure:vitamin D", falling: "outcome:falling" }],
    ["Does testosterone added to exercise training increase leg strength?", { testosterone: "exposure:testosterone", exercise: "context:exercise training", leg: "outcome:leg strength" }],
    ["Does exercise add years to life?", { exercise: "exposure:exercise", life: "outcome:life" }],
    // "help stop", "help reduce": the second verb relates; a word of the person's circumstances asked again stands where it is asked.
    ["Can exercise help prevent falls in older adults?", { exercise: "exposure:exercise", falls: "outcome:falls" }],
    ["My dad has had two falls. Would a home visit help stop him falling?", { falls: "outcome:falling", visit: "exposure:home visit" }],
    ["Does tai chi help to prevent falls in older adults?", { tai: "exposure:tai chi", falls: "outcome:falls" }],
    // "Is it safe to stop X?": the verb is the act asked about, not a relation; "speed up" relates.
    ["Is it safe to stop bisphosphonates in children?", { bisphosphonates: "main:stop bisphosphonates", children: "context:children" }],
    ["Does vitamin C speed up healing of wrist fractures?", { vitamin: "exposure:vitamin C", healing: "outcome:healing" }],
    // Everyday words stand alone, unless together they are a phrase the vocabulary knows ("eat less": calorie restriction).
    ["Does eating less help people live longer?", { eating: "exposure:eating less", less: "exposure:eating less" }],
    // A subject of who only ("older people") leaves what follows "after" in the subject.
    ["Do older people do worse after gallbladder surgery?", { gallbladder: "main:gallbladder surgery" }],
    // "at 85" ending the question is an age; "at 20 mg" a dose.
    ["Should I stop taking statins at 85?", { statins: "main:statins", "85": "context:85" }],
    // "help people with X walk further": whom it helps runs to the verb of what they are helped to do.
    ["Does physiotherapy help people with hip arthritis walk further?", { physiotherapy: "exposure:physiotherapy", hip: "context:hip arthritis", walk: "outcome:walk" }],
    ["Do statins help people with kidney disease live longer?", { statins: "exposure:statins", kidney: "context:kidney disease", live: "outcome:live longer" }],
    // A quality for a purpose ("accurate for staging"): the thing is the exposure, the purpose the outcome.
    ["Is ultrasound accurate for staging bowel cancer?", { ultrasound: "exposure:ultrasound", staging: "outcome:staging bowel cancer" }],
    ["Is a PET scan good at showing low oxygen in tumours?", { pet: "exposure:pet scan", oxygen: "outcome:low oxygen" }],
  ])("%s", (question, expected) => {
    expect(read(question)).toMatchObject(expected);
  });

  it("reads 'someone', 'anyone' and 'everyone' as nobody in particular, never a concept", () => {
    expect(readQuestion("Does coffee protect someone's liver?").concepts.map((c) => c.label)).toEqual(["coffee", "liver"]);
    expect(readQuestion("Can anyone with arthritis benefit from tai chi?").concepts.map((c) => c.label)).not.toContain("anyone");
  });

  it("names a concept with the letter or numeral that says which one: 'vitamin D', 'phase I'", () => {
    expect(readQuestion("Does taking vitamin D help people live longer?").concepts.map((c) => c.label)).toEqual(["vitamin D", "live longer"]);
    expect(readQuestion("Does hepatitis C cause liver cancer?").exposure).toBe("hepatitis C");
  });

  it("reads a person asking for themselves as asking about people, unless they name whom else", () => {
    expect(readQuestion("Will taking taurine help me live longer?").species).toEqual(["human"]);
    expect(readQuestion("Should I take metformin to slow aging?").species).toEqual(["human"]);
    expect(readQuestion("Could my dog benefit from rapamycin?").species).toEqual(["dog"]);
    expect(readQuestion("I wonder: does rapamycin extend lifespan in mice?").species).toEqual(["mouse"]);
    // Food named after an animal is no species: "fish oil" is asked about people.
    expect(readQuestion("Does fish oil improve memory?").species).toEqual([]);
    expect(readQuestion("Does eating fish prevent dementia in older adults?").species).toEqual(["human"]);
    expect(readQuestion("Does rapamycin extend lifespan in fish?").species).toEqual(["fish"]);
    // "I" as a numeral is no person.
    expect(readQuestion("Does drug X help type I diabetes in mice?").species).toEqual(["mouse"]);
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

  it("lets other names stand in when a candidate holds a phrase's words only apart: 'breast' and 'x-ray' are not a breast x-ray", () => {
    const [mammography, apart] = judgeRecords(
      [
        buildRecord({ ids: { pmid: "1" }, title: "Reminder letters and mammography use among women", abstract: "Letters raised mammography use.", mesh: [] }),
        buildRecord({ ids: { pmid: "2" }, title: "Breast pain in women", abstract: "A chest x-ray was taken in each woman.", mesh: [] }),
      ],
      extractTerms("Do letters get more women to go for their breast x-ray checks?"),
    );
    expect(mammography!.matchedTerms).toEqual(expect.arrayContaining(["breast", "x-ray"]));
    // Together, in the question's order, the words are the phrase, and its own words count alone.
    const [together] = judgeRecords(
      [buildRecord({ ids: { pmid: "3" }, title: "Breast x-ray checks in women", abstract: "Letters raised attendance.", mesh: [] }), mammography!.record],
      extractTerms("Do letters get more women to go for their breast x-ray checks?"),
    );
    expect(together!.matchedTerms).toEqual(expect.arrayContaining(["breast", "x-ray"]));
    expect(apart!.matchedTerms).toContain("breast");
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

  it("counts a part addressed by its concept's head word, never by a modifier alone", () => {
    // "close" says how; a technical modifier ("glucose monitoring") would say what, and the head alone would not name it.
    const question = "Does close monitoring reduce neonatal hypoglycaemia?";
    const head = buildRecord({ ids: { pmid: "1" }, title: "Monitoring after birth", abstract: "Continuous monitoring of newborns reduced neonatal hypoglycaemia.", mesh: [] });
    const modifier = buildRecord({ ids: { pmid: "2" }, title: "Close contact after birth", abstract: "Close skin contact and neonatal hypoglycaemia.", mesh: [] });
    const both = buildRecord({ ids: { pmid: "3" }, title: "Close monitoring in newborns", abstract: "Close monitoring and neonatal hypoglycaemia.", mesh: [] });
    const [byHead, byModifier] = judgeRecords([head, modifier, both], extractTerms(question));
    expect(byHead!.partsAddressed).toContain("exposure");
    expect(byModifier!.partsAddressed).not.toContain("exposure");
  });

  it("counts the body after a topic addressed by a record that studies the topic and names any of the body's words", () => {
    const question = "Working memory for emotional faces: a depression-specific deficit?";
    const names = buildRecord({ ids: { pmid: "1" }, title: "Emotional faces in working memory", abstract: "Patients with depression held emotional faces in working memory less well than controls.", mesh: [] });
    const topicOnly = buildRecord({ ids: { pmid: "2" }, title: "Emotional faces in working memory", abstract: "Students held emotional faces in working memory as well as neutral ones.", mesh: [] });
    const bodyOnly = buildRecord({ ids: { pmid: "3" }, title: "Depression in students", abstract: "A specific deficit of attention in depression.", mesh: [] });
    const [both, withoutBody, withoutTopic] = judgeRecords([names, topicOnly, bodyOnly], extractTerms(question));
    expect(both!.partsAddressed).toEqual(expect.arrayContaining(["topic", "main"]));
    expect(withoutBody!.partsAddressed).not.toContain("main");
    expect(withoutTopic!.partsAddressed).not.toContain("topic");
  });

  it("reads a hyphenated word as its parts written apart, and a relating suffix as the word before it", () => {
    const question = "Does high-dose vitamin D prevent statin-associated muscle pain?";
    const apart = buildRecord({ ids: { pmid: "1" }, title: "Vitamin D at a high dose", abstract: "A high dose of vitamin D given to patients on statins prevented muscle pain.", mesh: [] });
    const other = buildRecord({ ids: { pmid: "2" }, title: "Vitamin D and muscle pain", abstract: "Vitamin D at a standard dose and muscle pain in runners.", mesh: [] });
    const [byParts, without] = judgeRecords([apart, other], extractTerms(question));
    expect(byParts!.matchedTerms).toEqual(expect.arrayContaining(["high-dose", "statin-associated"]));
    expect(without!.matchedTerms).not.toContain("high-dose");
    expect(without!.matchedTerms).not.toContain("statin-associated");
  });

  it("reads a double hyphen as a dash between words, not one word", () => {
    expect(read("Lloyd-Davies position with Trendelenburg--a disaster waiting to happen?")).toMatchObject({ "lloyd-davies": "main:lloyd-davies position", trendelenburg: "main:trendelenburg" });
    expect(extractTerms("secret pleasure--lethal outcome?").map((t) => t.term)).toEqual(["secret", "pleasure", "lethal", "outcome"]);
  });

  it("does not hold a person's everyday words no candidate uses against the best match, but a technical word none holds still counts", () => {
    const trained = record("7", "Muscle fatigue in lifelong endurance athletes and sedentary older men", "Lifelong endurance exercise preserved resistance to muscle fatigue in older men compared with sedentary peers.");
    const surgery = record("8", "Exercise capacity after heart surgery", "Older patients walked further after cardiac rehabilitation exercise.");
    // Four words no candidate holds in each: everyday English in the first, drug names in the second.
    const lay = judgeRecords([trained, surgery], extractTerms("Do chubby grandads who stay sporty keep their muscles from tiring?"));
    const drugs = judgeRecords([trained, surgery], extractTerms("Do zoledronate, denosumab, romosozumab or teriparatide keep their muscles from tiring?"));
    expect(lay.map((j) => j.accepted)).toEqual([true, false]);
    expect(drugs.map((j) => j.accepted)).toEqual([false, false]);
    // The score a reference carries is unchanged: still the share of the whole question it holds.
    expect(lay[0]!.score).toBeLessThan(0.25);
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

/** The role the engine gives `record` for `question`, judged among `others` as relevance judges them. */
const roleFor = (question: string, record: ReturnType<typeof buildRecord>, others: ReturnType<typeof buildRecord>[] = []) => {
  const reading = readQuestion(question);
  const [judged] = judgeRecords([record, ...others], reading.terms);
  const evidenceType = classifyEvidence(record).type;
  return decideRole({ reading, reference: { ...roleInputOf(reading, judged!, { evidenceType, species: extractSnapshot(record, evidenceType).species }), isRetracted: false } });
};

describe("evidence roles: a study tests the question only in what it studies, in the question's species, with results", () => {
  const muscleTrial = buildRecord({
    ids: { pmid: "1" },
    title: "Metformin blunts muscle hypertrophy after resistance training in older adults",
    abstract:
      "BACKGROUND: Metformin might interfere with the muscle's adaptation to exercise. METHODS: Adults aged 65 years or older were randomized to metformin or placebo during resistance training. RESULTS: Lean mass rose less with metformin. CONCLUSIONS: Metformin blunted the gain in muscle mass.",
    mesh: ["Humans", "Aged", "Metformin", "Resistance Training"],
    publicationTypes: ["Randomized Controlled Trial"],
  });
  const wormStudy = buildRecord({
    ids: { pmid: "2" },
    title: "Metformin extends Caenorhabditis elegans lifespan by altering bacterial folate metabolism",
    abstract: "RESULTS: Metformin extended median lifespan of the worms by 36%. CONCLUSIONS: Metformin extended the lifespan of C. elegans.",
    mesh: ["Animals", "Caenorhabditis elegans", "Metformin", "Longevity"],
  });

  it("'aging' is not named by 'aged 65' or MeSH 'Aged': the trial in older adults does not study aging", () => {
    const role = roleFor("Does metformin slow aging in humans?", muscleTrial, [wormStudy]);
    expect(role.role).not.toBe("supporting");
    expect(role.reason).toMatch(/does not study aging/);
  });

  it("a study of the whole question in another species than the one asked about is context, said so", () => {
    const inMice = roleFor("Does metformin extend lifespan in mice?", wormStudy, [muscleTrial]);
    expect(inMice).toMatchObject({ role: "context", otherSpecies: true });
    expect(inMice.reason).toMatch(/in worms, not in mice; shown for context/);
    expect(roleFor("Does metformin extend lifespan in worms?", wormStudy, [muscleTrial]).role).toBe("supporting");
    // A question that names no species asks about none in particular.
    expect(roleFor("Does metformin extend lifespan?", wormStudy, [muscleTrial]).role).toBe("supporting");
  });

  it("a trial's protocol, with no results yet, is never evidence", () => {
    const protocol = buildRecord({
      ids: { pmid: "3" },
      title: "Targeting Aging with Metformin (TAME): rationale and design of a trial to delay age-related disease",
      abstract: "CONCLUSIONS: TAME will test whether metformin delays aging in older adults.",
      mesh: ["Humans", "Aged", "Metformin", "Aging", "Research Design"],
    });
    expect(roleFor("Does metformin slow aging in humans?", protocol, [wormStudy])).toMatchObject({ role: "context", reason: expect.stringMatching(/protocol or design, with no results yet/) });
    expect(isStudyProtocol(buildRecord({ ids: { pmid: "4" }, title: "A ketogenic diet in epilepsy", abstract: "x", mesh: [], publicationTypes: ["Clinical Trial Protocol"] }))).toBe(true);
  });
});

describe("evidence roles: a study tests the question only by what it studied, never by words it passes by", () => {
  const trial = (pmid: string, title: string, abstract: string, mesh: string[] = []) => buildRecord({ ids: { pmid }, title, abstract, mesh, publicationTypes: ["Randomized Controlled Trial"] });
  const other = trial("9", "Exercise and memory in older adults", "RESULTS: Walking improved memory. CONCLUSIONS: Exercise improved memory.");

  it("an outcome named only in the background (what others proposed) is not studied", () => {
    const frailty = trial(
      "1",
      "Fisetin for frailty in older women: a randomized trial",
      "BACKGROUND: Fisetin extends lifespan in mice. METHODS: Women aged 70 or older were randomized to fisetin or placebo. RESULTS: Gait speed did not differ. CONCLUSIONS: Fisetin did not reduce frailty.",
    );
    expect(roleFor("Does fisetin extend lifespan in humans?", frailty, [other])).toMatchObject({ role: "context", reason: expect.stringMatching(/does not study lifespan/) });
    // A background sentence that speaks of the study itself does count.
    const aim = trial("2", "Fisetin in older women", "BACKGROUND: We tested whether fisetin extends lifespan in humans. RESULTS: Survival did not differ. CONCLUSIONS: Fisetin did not extend lifespan.");
    expect(roleFor("Does fisetin extend lifespan in humans?", aim, [other]).role).toBe("supporting");
  });

  it("an abbreviation names its long form, in the question and in the record", () => {
    const record = buildRecord({
      ids: { pmid: "3" },
      title: "Hospital data exchange and imaging",
      titleDerived: true,
      abstract: "BACKGROUND: Electronic health information exchange (HIE) is expected to save costs. METHODS: We compared emergency departments. RESULTS: HIE was associated with less repeat imaging. CONCLUSIONS: HIE reduced repeat imaging.",
      mesh: [],
    });
    expect(roleFor("Does health information exchange reduce repeat imaging?", record, [other]).role).toBe("supporting");
    const gene = buildRecord({ ids: { pmid: "4" }, title: "HINT1 variants in Irish families", abstract: "METHODS: We genotyped HINT1 in families with schizophrenia. RESULTS: HINT1 alleles differed.", mesh: [] });
    expect(roleFor("Is the histidine triad nucleotide-binding protein 1 (HINT1) gene a candidate for schizophrenia?", gene, [other]).role).toBe("supporting");
    // The long form's words are a name, not a relation: "normalised" does not split the question.
    expect(readQuestion("Is the international normalised ratio (INR) reliable?")).toMatchObject({ exposure: null, subject: "international normalised ratio" });
  });

  it("a defined abbreviation reads as its long form inside a phrase: \"an abnormal Pap smear\" names \"abnormal Papanicolaou smears\"", () => {
    const pap = buildRecord({
      ids: { pmid: "12" },
      title: "Cancer after an abnormal smear",
      titleDerived: true,
      abstract:
        "OBJECTIVE: To follow women after repeated Papanicolaou (Pap) smears. RESULTS: Cervical cancer followed an abnormal Pap smear in 3%. CONCLUSIONS: An abnormal Pap smear predicted cervical cancer.",
      mesh: [],
    });
    const cervix = trial("13", "Smears of the cervix", "RESULTS: Abnormal cervical smears were followed up. CONCLUSIONS: Papanicolaou staining was adequate.");
    expect(roleFor("Do abnormal Papanicolaou smears predict cervical cancer?", pap, [cervix]).role).toBe("supporting");
  });

  it("whether a record studies a part is its own fact: a class member counts whatever the other candidates call the class", () => {
    // Betamethasone is one of the steroids (its MeSH heading says which); another record's saying
    // "steroids" does not make the betamethasone trial stop naming them.
    const betamethasone = trial(
      "16",
      "Betamethasone in gentamicin ear drops",
      "METHODS: Mice received gentamicin ear drops with or without betamethasone. RESULTS: Betamethasone reduced cochlear toxicity. CONCLUSIONS: Betamethasone protected the cochlea.",
      ["Betamethasone", "Cochlea", "Mice"],
    );
    const otitis = trial("17", "Steroids for otitis", "RESULTS: Steroids were prescribed for otitis. CONCLUSIONS: Steroids shortened otitis.");
    const question = "Do steroids reduce cochlear toxicity of ear drops?";
    expect(roleFor(question, betamethasone).role).toBe("supporting");
    expect(roleFor(question, betamethasone, [otitis]).role).toBe("supporting");
  });

  it("a letter or numeral says which one: a vitamin E trial is not evidence on vitamin D, a manic phase is not a phase I trial", () => {
    const vitaminE = trial("5", "Vitamin E and falls in older adults", "RESULTS: Vitamin E did not reduce falls. CONCLUSIONS: Vitamin E did not prevent falls.");
    const vitaminD3 = trial("6", "Vitamin D3 and falls in older adults", "RESULTS: Vitamin D3 reduced falls. CONCLUSIONS: Vitamin D3 prevented falls.");
    const onE = roleFor("Does vitamin D prevent falls?", vitaminE, [vitaminD3]);
    expect(onE.role).not.toBe("supporting");
    expect(onE.reason).toMatch(/does not study vitamin/);
    expect(roleFor("Does vitamin D prevent falls?", vitaminD3, [vitaminE]).role).toBe("supporting");
    const mania = trial("7", "Symptoms of children with bipolar I disorder in a trial sample", "RESULTS: Symptoms of the manic phase were more common in the trial sample.");
    const phaseOne = trial("8", "Symptoms in a phase I trial", "RESULTS: Symptoms predicted who entered the phase I trial.");
    const [onMania, onPhaseOne] = judgeRecords([mania, phaseOne], extractTerms("Do symptoms matter when considering patients for phase I clinical trials?"));
    expect(onMania!.matchedTerms).not.toContain("phase");
    expect(onPhaseOne!.matchedTerms).toContain("phase");
  });

  it("a phrase the vocabulary knows is named as a phrase or by its other names, not by its words apart", () => {
    const scattered = trial("8", "Surgery for leg fractures in spinal cord injury", "RESULTS: High rates of union; fewer pressure ulcers; blood loss was low. Chronic low back pain did not differ.");
    const hypertension = trial("10", "Blood pressure and chronic low back pain", "RESULTS: High blood pressure was associated with less chronic low back pain.");
    expect(roleFor("Does high blood pressure reduce the risk of chronic low back pain?", scattered, [hypertension])).toMatchObject({ role: "context", reason: expect.stringMatching(/does not study high blood pressure/) });
    expect(roleFor("Does high blood pressure reduce the risk of chronic low back pain?", hypertension, [scattered]).role).toBe("supporting");
  });

  it("a survey of what people think of an intervention does not test what it does, unless that is the question", () => {
    const survey = buildRecord({
      ids: { pmid: "11" },
      title: "Willingness of older adults to adopt calorie restriction to extend lifespan: a survey",
      abstract: "METHODS: We asked 1,850 adults whether they would eat less for life. RESULTS: Few would accept calorie restriction. CONCLUSIONS: Few older adults would accept the calorie restriction that extends lifespan in animals.",
      mesh: ["Humans", "Caloric Restriction", "Longevity", "Attitude to Health"],
      publicationTypes: ["Survey"],
    });
    expect(roleFor("Does calorie restriction make people live longer?", survey, [other])).toMatchObject({
      role: "context",
      reason: expect.stringMatching(/^surveys what people think of calorie restriction; it does not test/),
    });
    expect(roleFor("Would older adults accept calorie restriction to live longer?", survey, [other]).role).toBe("supporting");
  });

  it("a survey of how many people use something does not test what it does, unless its use is the question", () => {
    const survey = buildRecord({
      ids: { pmid: "12" },
      title: "Use of anti-aging supplements among adults aged 50 and older: a cross-sectional survey",
      abstract:
        "METHODS: An online survey of 3,200 adults asked about current use of NMN and metformin, and perceived effects. RESULTS: NMN was taken by 6%; 58% of users said they felt more energetic. CONCLUSIONS: Use of unproven anti-aging products is common; the benefits users report cannot be attributed to the products.",
      mesh: ["Humans", "Aged", "Nicotinamide Mononucleotide", "Metformin", "Surveys and Questionnaires"],
    });
    expect(roleFor("Does NMN give older people more energy?", survey, [other])).toMatchObject({
      role: "context",
      reason: expect.stringMatching(/^surveys how many people use it and what they say of it, not what it does/),
    });
    expect(roleFor("How common is NMN use among older adults?", survey, [other]).role).toBe("supporting");
  });

  it("what the record says it did not study, or sets its subject against, is not what it studied", () => {
    const canagliflozin = trial(
      "13",
      "Canagliflozin extends lifespan in male but not female mice",
      "METHODS: Mice were fed canagliflozin or a control diet until death. RESULTS: Canagliflozin increased median lifespan by 14% in males but not in females. Unlike rapamycin, which lengthens the life of both sexes in this model, canagliflozin gave females no benefit. CONCLUSIONS: Canagliflozin extended the lifespan of male mice.",
      ["Animals", "Mice", "Canagliflozin", "Longevity"],
    );
    const rapamycin = trial("14", "Rapamycin extends lifespan in mice", "RESULTS: Rapamycin increased median lifespan in female and male mice.", ["Animals", "Mice", "Sirolimus", "Longevity"]);
    expect(roleFor("Does rapamycin extend lifespan in female mice?", canagliflozin, [rapamycin]).role).not.toBe("supporting");
    expect(roleFor("Does canagliflozin extend lifespan in mice?", canagliflozin, [rapamycin]).role).toBe("supporting");

    const immunogenicity = trial(
      "15",
      "Antibody responses to the recombinant zoster vaccine in adults aged 70 and older",
      "METHODS: Adults aged 70 to 96 received two doses of the vaccine. There was no control group, and fractures were not an outcome. RESULTS: Antibodies rose 39-fold. Falls were not recorded. CONCLUSIONS: The vaccine induced strong antibody responses.",
      ["Humans", "Aged", "Herpes Zoster Vaccine", "Accidental Falls", "Fractures, Bone"],
    );
    const fractures = trial("16", "Zoster vaccine and fractures in older adults", "RESULTS: Vaccinated adults had fewer fractures.", ["Humans", "Herpes Zoster Vaccine", "Fractures, Bone"]);
    // Its MeSH names fractures, but the authors say fractures were not an outcome.
    expect(roleFor("Does the zoster vaccine prevent fractures in older adults?", immunogenicity, [fractures])).toMatchObject({ role: "context", reason: expect.stringMatching(/does not study fractures/) });
    expect(roleFor("Does the zoster vaccine raise antibodies in older adults?", immunogenicity, [fractures]).role).toBe("supporting");
    // A disclaimer for some groups only ("their survival was not studied", of the monkeys) disclaims nothing for the record.
    const mixed = trial(
      "17",
      "Taurine extends lifespan in mice and improves health in monkeys",
      "METHODS: Mice were given taurine until death. Monkeys received taurine for six months; their survival was not studied. RESULTS: Taurine increased median survival of mice by 11%. CONCLUSIONS: Taurine extended survival in mice.",
      ["Animals", "Mice", "Taurine", "Longevity"],
    );
    expect(roleFor("Does taurine improve survival in mice?", mixed, [rapamycin]).role).toBe("supporting");
  });

  it("a notice about another article, who was excluded, a pilot's untested outcome, another age group and a combination do not test the question", () => {
    const zoledronate = trial("30", "Zoledronate and fractures in older women", "RESULTS: Fractures were fewer with zoledronate (HR 0.63).", ["Humans", "Aged", "Zoledronic Acid", "Osteoporotic Fractures"]);
    const erratum = buildRecord({
      ids: { pmid: "31" },
      title: "Correction to: Zoledronate and fractures in older women",
      abstract: "RESULTS: In Table 2 the number of women with fractures should read 94, not 49. CONCLUSIONS: The corrections do not alter the results.",
      mesh: ["Humans", "Aged", "Zoledronic Acid", "Osteoporotic Fractures"],
      publicationTypes: ["Published Erratum"],
    });
    expect(roleFor("Does zoledronate prevent fractures in older women?", erratum, [zoledronate])).toMatchObject({ role: "context", reason: expect.stringMatching(/notice about another article/) });

    const melatonin = trial(
      "32",
      "Melatonin for insomnia in adults aged 55 and older",
      "METHODS: Outpatients with insomnia were randomized to melatonin or placebo. People with dementia or hypnotic use in the previous two weeks were excluded. RESULTS: Sleep latency shortened with melatonin.",
    );
    const hypnotics = trial("33", "Hypnotics and dementia", "RESULTS: Use of hypnotics was associated with a higher risk of dementia.");
    expect(roleFor("Do hypnotics raise the risk of dementia?", melatonin, [hypnotics])).toMatchObject({ role: "context", reason: expect.stringMatching(/does not study hypnotics or dementia|does not study/) });

    const pilot = trial(
      "34",
      "Blueberry powder and memory in older adults: a pilot trial",
      "METHODS: Adults were randomized to blueberry powder or placebo. Memory tests were collected but, as pre-specified, were not compared between groups. RESULTS: Adherence was 92%. CONCLUSIONS: A full trial is feasible. Its effect on memory remains to be tested.",
      ["Humans", "Aged", "Memory", "Pilot Projects"],
    );
    const berries = trial("35", "Berries and memory in older adults", "RESULTS: Berry intake improved memory scores.", ["Humans", "Aged", "Memory"]);
    expect(roleFor("Do blueberries improve memory in older people?", pilot, [berries])).toMatchObject({ role: "context", reason: expect.stringMatching(/does not study memory/) });

    const children = trial("36", "Fish oil and working memory in healthy schoolchildren", "RESULTS: Working memory did not differ with fish oil.", ["Humans", "Child", "Fish Oils", "Memory, Short-Term"]);
    const older = trial("37", "Fish oil and memory in older adults", "RESULTS: Fish oil did not improve memory.", ["Humans", "Aged", "Fish Oils", "Memory"]);
    expect(roleFor("Does fish oil improve memory in older adults?", children, [older]).role).not.toBe("supporting");
    expect(recordAgeGroups(children)).toEqual(["children"]);
    expect(recordAgeGroups(older)).toEqual(["older"]);
    const reading = readQuestion("Does fish oil improve memory in older adults?");
    const [judged] = judgeRecords([children], reading.terms);
    expect(decideRole({ reading, reference: { ...judged!, evidenceType: "randomized_controlled_trial", isRetracted: false, ageGroups: ["children"] } })).toMatchObject({
      role: "context",
      reason: expect.stringMatching(/in children, not in older adults/),
    });
    expect(roleFor("Does fish oil improve memory in older adults?", older, [children]).role).toBe("supporting");
    // "During childhood" is when adults were exposed, not whom the question asks about.
    expect(roleFor("Does fish oil taken during childhood improve memory?", older, [children]).role).toBe("supporting");

    const pair = trial(
      "38",
      "Dasatinib plus quercetin decreases senescent cells in people",
      "METHODS: Adults took dasatinib 100 mg and quercetin 1,000 mg daily for three days. RESULTS: Senescent cells fell. CONCLUSIONS: Dasatinib plus quercetin reduced senescent cells.",
      ["Humans", "Aged", "Dasatinib", "Quercetin", "Cellular Senescence"],
    );
    const alone = trial("39", "Quercetin and senescent cells in people", "RESULTS: Quercetin reduced senescent cells.", ["Humans", "Quercetin", "Cellular Senescence"]);
    expect(roleFor("Does quercetin on its own clear senescent cells in people?", pair, [alone])).toMatchObject({ role: "context", reason: expect.stringMatching(/only together with another treatment/) });
    expect(roleFor("Does quercetin clear senescent cells in people?", pair, [alone]).role).toBe("supporting");
  });

  it("a case report, a cross-sectional study for a question of cause, and a short study for a question of years do not test it", () => {
    const rct = trial("50", "Drug P and walking speed in older people: a randomized trial", "RESULTS: Walking speed improved with drug P.", ["Humans", "Aged", "Walking Speed"]);
    const caseReport = buildRecord({
      ids: { pmid: "51" },
      title: "Improved walking speed after drug P in a 79-year-old man: a case report",
      abstract: "METHODS: We describe one man who received drug P. RESULTS: Walking speed rose from 0.8 to 1.0 m/s.",
      mesh: ["Humans", "Aged", "Walking Speed"],
      publicationTypes: ["Case Reports"],
    });
    expect(roleFor("Does drug P improve walking speed in older people?", caseReport, [rct])).toMatchObject({ role: "context", reason: expect.stringMatching(/^a case report or case series/) });

    const crossSectional = buildRecord({
      ids: { pmid: "52" },
      title: "Loneliness and frailty in older adults: a cross-sectional study",
      abstract: "METHODS: At a single visit, adults completed a loneliness scale and a frailty assessment. RESULTS: Loneliness was associated with frailty (odds ratio 1.8).",
      mesh: ["Humans", "Aged", "Loneliness", "Frailty", "Cross-Sectional Studies"],
    });
    const cohort = trial("53", "Loneliness and incident frailty: a cohort", "RESULTS: Loneliness predicted frailty over 10 years.", ["Humans", "Aged", "Loneliness", "Frailty"]);
    expect(roleFor("Does loneliness cause frailty in older people?", crossSectional, [cohort])).toMatchObject({ role: "context", reason: expect.stringMatching(/^a cross-sectional study: .* cannot show that one causes the other/) });
    // It does test whether the two go together.
    expect(roleFor("Is loneliness associated with frailty in older people?", crossSectional, [cohort]).role).toBe("supporting");

    const short = trial("54", "Glycine and NAC in older adults: a 16-week randomized trial", "METHODS: Adults took glycine and NAC or placebo for 16 weeks. RESULTS: Grip strength rose with glycine and NAC.", ["Humans", "Aged", "Glycine", "Acetylcysteine", "Hand Strength"]);
    expect(roleFor("If I take glycine and NAC for years, will it keep my grip strength?", short, [rct])).toMatchObject({ role: "context", reason: expect.stringMatching(/^lasted 4 months, where the question asks about years/) });
    expect(roleFor("Do glycine and NAC improve grip strength in older adults?", short, [rct]).role).toBe("supporting");
  });

  it("a disclaimer of another kind of the thing leaves the question's own concept studied, and a word in both parts is each part's own", () => {
    const live = trial(
      "55",
      "Live zoster vaccination and new dementia diagnoses: a natural experiment",
      "METHODS: Health records of adults either side of an eligibility date were compared. The recombinant zoster vaccine, introduced later, was not studied. RESULTS: The live zoster vaccine reduced new dementia diagnoses by 20%.",
      ["Humans", "Aged", "Herpes Zoster Vaccine", "Dementia"],
    );
    const other = trial("56", "Influenza vaccination and dementia", "RESULTS: Influenza vaccination was associated with less dementia.", ["Humans", "Dementia"]);
    expect(roleFor("Does the shingles jab lower the risk of dementia?", live, [other]).role).toBe("supporting");
    // "Does the shingles vaccine prevent shingles?": the outcome is shingles, which this immunogenicity study did not assess.
    const antibodies = trial(
      "57",
      "Antibody responses to the zoster vaccine in adults aged 70 and older",
      "METHODS: Adults received two doses of the zoster vaccine. There was no control group, and cases of zoster were not an outcome. RESULTS: Antibodies rose 39-fold. CONCLUSIONS: Protection against zoster was not assessed.",
      ["Humans", "Aged", "Herpes Zoster Vaccine", "Herpes Zoster"],
    );
    expect(roleFor("Does the shingles vaccine prevent shingles in people over 70?", antibodies, [other])).toMatchObject({ role: "context", reason: expect.stringMatching(/does not study shingles/) });
  });

  it("a record of several species tests a question on one of them only where it states the outcome in it", () => {
    const mixed = trial(
      "48",
      "Taurine extends lifespan in mice and improves health markers in monkeys",
      "METHODS: Mice were given taurine until death; monkeys for six months; in a human cohort, blood taurine was measured. RESULTS: Taurine increased median lifespan by 11% in female and 9% in male mice. In people, lower blood taurine was associated with obesity. CONCLUSIONS: Taurine extended lifespan in mice and improved bone markers in monkeys; low taurine was associated with disease in people.",
      ["Animals", "Humans", "Mice", "Macaca mulatta", "Taurine", "Longevity"],
    );
    const cohort = trial("49", "Taurine and mortality in older people", "RESULTS: Higher taurine intake was associated with lower mortality in older people.", ["Humans", "Aged", "Taurine", "Mortality"]);
    expect(roleFor("Will taking taurine help me live longer?", mixed, [cohort])).toMatchObject({ role: "context", reason: expect.stringMatching(/in mice[^;]*, not in humans/) });
    expect(roleFor("Does taurine extend lifespan in mice?", mixed, [cohort]).role).toBe("supporting");
  });

  it("the other sex, another route, another population's condition, and animals only are not the question's (questions and records written here)", () => {
    const women = trial("60", "Zoledronate and fragility fractures in older women with osteopenia", "METHODS: Women aged 65 or older were randomized to zoledronate or saline. RESULTS: Zoledronate reduced fractures and raised hip bone density.", ["Humans", "Aged", "Female", "Zoledronic Acid", "Bone Density"]);
    const men = trial("61", "Zoledronate and bone density in older men", "RESULTS: Zoledronate raised hip bone density in men.", ["Humans", "Aged", "Male", "Zoledronic Acid", "Bone Density"]);
    expect(roleFor("Does zoledronate increase bone density in men?", women)).toMatchObject({ role: "context", reason: expect.stringMatching(/in women, not in men/) });
    expect(roleFor("Does zoledronate increase bone density in men?", men, [women]).role).toBe("supporting");
    expect(roleFor("Does zoledronate increase bone density in older adults?", women, [men]).role).toBe("supporting");

    const topical = trial("62", "Topical rapamycin reduces markers of senescence in aged human skin", "METHODS: Rapamycin cream was applied to one hand and placebo cream to the other. RESULTS: Skin senescence markers fell with rapamycin.", ["Humans", "Aged", "Sirolimus", "Skin Aging"]);
    const oral = trial("63", "Oral rapamycin and skin aging", "RESULTS: Rapamycin taken by mouth reduced skin aging.", ["Humans", "Sirolimus", "Skin Aging"]);
    expect(roleFor("Does oral rapamycin reduce skin aging in people?", topical)).toMatchObject({ role: "context", reason: expect.stringMatching(/given on the skin, not by mouth/) });
    expect(roleFor("Does rapamycin reduce skin aging in people?", topical, [oral]).role).toBe("supporting");
    // "oral cancer" names a place, not a route.
    const smoking = trial("64", "Smoking and oral cancer: a cohort", "RESULTS: Smokers developed oral cancer three times as often.", ["Humans", "Smoking", "Mouth Neoplasms"]);
    expect(roleFor("Does smoking cause oral cancer?", smoking).role).toBe("supporting");

    const decline = trial("65", "Spermidine and memory in older adults with subjective cognitive decline", "METHODS: Adults with subjective cognitive decline were randomized to spermidine or placebo. RESULTS: Memory did not differ.", ["Humans", "Aged", "Spermidine", "Memory"]);
    expect(roleFor("Does spermidine improve memory in people with dementia?", decline)).toMatchObject({ role: "context", reason: expect.stringMatching(/other people: it names nothing of “dementia”/) });
    expect(roleFor("Does spermidine improve memory in older adults?", decline).role).toBe("supporting");
    // Named by another of its names: "postmenopausal" is after menopause.
    const lifting = trial("66", "Resistance training and bone density in postmenopausal women", "RESULTS: Spine bone density rose with training.", ["Humans", "Female", "Resistance Training", "Bone Density"]);
    expect(roleFor("Does weightlifting increase bone density in women after menopause?", lifting).role).toBe("supporting");

    const mixed = trial(
      "67",
      "Taurine extends lifespan in mice and improves health markers in monkeys",
      "METHODS: Mice were given taurine until death; monkeys for six months. In a human cohort, blood taurine was related to obesity; no participant was given taurine. RESULTS: Health markers improved with taurine.",
      ["Animals", "Humans", "Mice", "Macaca mulatta", "Taurine"],
    );
    expect(roleFor("Does taurine improve health in people?", mixed)).toMatchObject({ role: "context", reason: expect.stringMatching(/in animals only/) });

    // "in people without diabetes": a study in type 2 diabetes is of the people left out.
    const diabetic = trial("70", "Metformin and cancer incidence in type 2 diabetes: a primary care cohort", "RESULTS: Metformin users had fewer cancers.", ["Humans", "Metformin", "Neoplasms", "Diabetes Mellitus, Type 2"]);
    const nondiabetic = trial("71", "Metformin and cancer incidence in non-diabetic older adults", "RESULTS: Metformin users had fewer cancers.", ["Humans", "Metformin", "Neoplasms"]);
    expect(roleFor("Does metformin prevent cancer in people without diabetes?", diabetic)).toMatchObject({ role: "context", reason: expect.stringMatching(/what the question's people are without/) });
    expect(roleFor("Does metformin prevent cancer in people without diabetes?", nondiabetic).role).toBe("supporting");
    expect(roleFor("Does metformin prevent cancer?", diabetic).role).toBe("supporting");

    // "Does the shingles vaccine prevent shingles?": the vaccine's name is not the outcome, nor are
    // MeSH's tags of the disease on a vaccine's study.
    const dementia = trial("72", "Live zoster vaccination and new dementia diagnoses: a natural experiment", "METHODS: People eligible for the zoster vaccine were compared with people just too old. RESULTS: Receiving the zoster vaccine reduced new dementia diagnoses.", ["Humans", "Aged", "Herpes Zoster Vaccine", "Herpes Zoster", "Dementia"]);
    const cases = trial("73", "The zoster vaccine and shingles in adults over 70", "RESULTS: Cases of herpes zoster were fewer after vaccination against zoster.", ["Humans", "Aged", "Herpes Zoster Vaccine", "Herpes Zoster"]);
    expect(roleFor("Does the shingles vaccine prevent shingles in people over 70?", dementia).role).not.toBe("supporting");
    expect(roleFor("Does the shingles vaccine prevent shingles in people over 70?", cases).role).toBe("supporting");
    expect(roleFor("Does the shingles vaccine prevent dementia?", dementia).role).toBe("supporting");

    // "Is warfarin better than aspirin?": a trial against placebo does not compare them.
    const placebo = trial("74", "Warfarin and stroke in atrial fibrillation: a placebo-controlled trial", "METHODS: Patients were randomized to warfarin or placebo. RESULTS: Warfarin reduced strokes.", ["Humans", "Warfarin", "Stroke", "Atrial Fibrillation"]);
    const head = trial("75", "Warfarin versus aspirin for stroke prevention in atrial fibrillation", "METHODS: Patients were randomized to warfarin or aspirin. RESULTS: Warfarin prevented more strokes than aspirin.", ["Humans", "Warfarin", "Aspirin", "Stroke", "Atrial Fibrillation"]);
    expect(roleFor("Is warfarin better than aspirin at preventing strokes?", placebo)).toMatchObject({ role: "context", reason: expect.stringMatching(/does not compare warfarin with aspirin/) });
    expect(roleFor("Is warfarin better than aspirin at preventing strokes?", head).role).toBe("supporting");

    // A trial of a high dose does not test a low one.
    const monthly = trial("76", "Monthly high-dose vitamin D and falls in older women", "METHODS: Women received 60,000 IU monthly (high-dose) or 24,000 IU. RESULTS: Falls were more frequent with the high dose.", ["Humans", "Aged", "Female", "Vitamin D", "Accidental Falls"]);
    expect(roleFor("Does low-dose vitamin D prevent falls in older women?", monthly)).toMatchObject({ role: "context", reason: expect.stringMatching(/at a high dose, not a low one/) });
    expect(roleFor("Does vitamin D prevent falls in older women?", monthly).role).toBe("supporting");

    // A projection on assumed effects tests nothing; "for older adults" is whom the question is about.
    const model = trial("77", "Gains in life expectancy from delayed aging: a microsimulation", "BACKGROUND: Drugs such as rapamycin have been proposed to slow aging. METHODS: A microsimulation of adults aged 51 and older projected survival under delayed aging; no drug was modelled by name. CONCLUSIONS: Slowing aging would add healthy years. No intervention was tested.", ["Humans", "Aged", "Computer Simulation", "Aging"]);
    expect(roleFor("Does slowing aging add healthy years in older adults?", model)).toMatchObject({ role: "context", reason: expect.stringMatching(/tested no intervention/) });
    expect(roleFor("Is rapamycin safe for older adults?", model).role).not.toBe("supporting");
    const antibiotics = trial("78", "Early mobilisation after hip fracture surgery", "METHODS: Patients were randomized to mobilisation on day one or day three. No patient was treated with antibiotics for wound infection. RESULTS: Early mobilisation shortened hospital stay.", ["Humans", "Aged", "Hip Fractures", "Early Ambulation", "Length of Stay"]);
    expect(testsNothing(antibiotics)).toBe(false);

    // "ketone" is which supplement: a study of another supplement does not name "ketone supplements".
    const arginine = trial("79", "An oral supplement enriched with arginine and the healing of pressure ulcers", "METHODS: Residents with pressure ulcers were randomized to an arginine-enriched supplement or a standard supplement. RESULTS: Ulcers healed faster with the enriched supplement.", ["Humans", "Aged", "Dietary Supplements", "Arginine", "Pressure Ulcer", "Wound Healing"]);
    expect(roleFor("Do ketone supplements help wounds heal in older people?", arginine).role).not.toBe("supporting");

    // Wheel running is exercise for a mouse: a member of the class names it.
    const wheel = buildRecord({ ids: { pmid: "69" }, title: "Voluntary wheel running and lifespan in male mice", abstract: "METHODS: Male mice had a running wheel or none from 6 months. RESULTS: Wheel running did not extend lifespan.", mesh: ["Animals", "Mice", "Longevity", "Physical Conditioning, Animal"], publicationTypes: [] });
    expect(roleFor("Does exercise extend lifespan in mice?", wheel).role).toBe("supporting");
  });

  it("what a trial was not designed to assess, and treatments it cannot tell apart, are not studied", () => {
    const surrogate = trial(
      "44",
      "Estradiol started early after menopause and carotid intima-media thickness",
      "METHODS: Women were randomized to estradiol or placebo. The trial was not designed to assess myocardial infarction, stroke or death. RESULTS: Intima-media thickness progressed less with estradiol. Clinical cardiovascular events were too few to analyse.",
      ["Humans", "Female", "Estradiol", "Estrogen Replacement Therapy", "Carotid Intima-Media Thickness", "Myocardial Infarction"],
    );
    const outcomes = trial("45", "Estrogen therapy and myocardial infarction", "RESULTS: Estrogen therapy did not reduce myocardial infarction.", ["Humans", "Female", "Estrogen Replacement Therapy", "Myocardial Infarction"]);
    expect(roleFor("Does estrogen therapy prevent myocardial infarction in women?", surrogate, [outcomes])).toMatchObject({ role: "context", reason: expect.stringMatching(/does not study myocardial infarction/) });
    expect(roleFor("Does estrogen therapy prevent myocardial infarction in women?", outcomes, [surrogate]).role).toBe("supporting");

    const triple = trial(
      "46",
      "Growth hormone, DHEA and metformin and epigenetic age in healthy men",
      "METHODS: Men took growth hormone, DHEA and metformin together for one year; no drug was given alone. RESULTS: Epigenetic age fell by 2.5 years. The contribution of each drug could not be separated.",
      ["Humans", "Male", "Metformin", "Dehydroepiandrosterone", "Epigenesis, Genetic"],
    );
    const single = trial("47", "Metformin and epigenetic age", "RESULTS: Metformin lowered epigenetic age.", ["Humans", "Metformin", "Epigenesis, Genetic"]);
    expect(roleFor("Does metformin lower epigenetic age?", triple, [single])).toMatchObject({ role: "context", reason: expect.stringMatching(/only together with another treatment/) });
    const multidomain = trial(
      "68",
      "A multidomain intervention of diet, exercise and cognitive training to prevent memory decline",
      "METHODS: Older people were randomized to diet, exercise and cognitive training together, or to advice. The components were not tested separately. RESULTS: Memory improved more with the intervention.",
      ["Humans", "Aged", "Exercise", "Diet", "Memory"],
    );
    expect(roleFor("Does exercise improve memory in older adults?", multidomain, [single])).toMatchObject({ role: "context", reason: expect.stringMatching(/only together with another treatment/) });
  });

  it("a concept's head stands for it only after everyday modifiers: any acid is not bempedoic acid, any tea not green tea", () => {
    const icosapent = trial("40", "Icosapent ethyl and heart attacks", "RESULTS: Eicosapentaenoic acid reduced myocardial infarction.", ["Humans", "Eicosapentaenoic Acid", "Myocardial Infarction"]);
    const other = trial("41", "Statins and heart attacks", "RESULTS: Statins reduced myocardial infarction.", ["Humans", "Myocardial Infarction"]);
    expect(roleFor("Does bempedoic acid prevent heart attacks?", icosapent, [other]).role).not.toBe("supporting");
    const herbal = trial("42", "Herbal tea and longevity", "RESULTS: Herbal tea drinkers lived longer.", ["Humans", "Tea", "Longevity"]);
    expect(roleFor("Does green tea extend lifespan?", herbal, [other]).role).not.toBe("supporting");
    // An everyday modifier only says which one: "passive smokers" are smokers.
    const smokers = trial("43", "Smokers and sick leave", "RESULTS: Smokers had more sick leave.", ["Humans", "Sick Leave"]);
    expect(roleFor("Do passive smokers take more sick leave?", smokers, [other]).role).toBe("supporting");
  });

  it("an open question the results section leaves open, what no participant took and what the analysis adjusted for are not studied", () => {
    const igf = trial(
      "18",
      "A low-protein diet lowers IGF-1 in middle-aged adults",
      "BACKGROUND: Whether restricting protein extends lifespan in people is unknown. METHODS: Adults were randomized to a low-protein diet or their usual diet. RESULTS: Serum IGF-1 fell by 18%. CONCLUSIONS: Protein restriction lowered IGF-1. Whether this affects lifespan in people is unknown.",
      ["Humans", "Middle Aged", "Diet, Protein-Restricted"],
    );
    const cohort = trial("19", "Protein intake and mortality in old age", "RESULTS: High protein intake was associated with lower mortality after 65.", ["Humans", "Aged", "Dietary Proteins", "Mortality"]);
    expect(roleFor("Does a low-protein diet extend lifespan in people?", igf, [cohort])).toMatchObject({ role: "context", reason: expect.stringMatching(/does not study lifespan/) });
    // The same words in the background only say what was open before the study, which may then test it.
    const tested = trial("20", "A low-protein diet and lifespan", "BACKGROUND: Whether restricting protein extends lifespan in people is unknown. RESULTS: Lifespan was longer on the low-protein diet.", ["Humans"]);
    expect(roleFor("Does a low-protein diet extend lifespan in people?", tested, [cohort]).role).toBe("supporting");

    const intolerant = trial(
      "21",
      "Evolocumab versus ezetimibe in older adults who could not tolerate statins",
      "METHODS: Adults who had stopped two statins because of muscle symptoms were randomized to evolocumab or ezetimibe. No participant took a statin during the trial. RESULTS: Muscle symptoms were reported by 11% and 14%.",
      ["Humans", "Aged", "PCSK9 Inhibitors", "Ezetimibe", "Hydroxymethylglutaryl-CoA Reductase Inhibitors", "Myalgia"],
    );
    const statinTrial = trial("22", "Atorvastatin and muscle symptoms", "RESULTS: Muscle symptoms were as common with atorvastatin as with placebo.", ["Humans", "Atorvastatin", "Myalgia"]);
    expect(roleFor("Do statins cause muscle aches in older adults?", intolerant, [statinTrial])).toMatchObject({ role: "context", reason: expect.stringMatching(/does not study statins/) });
    expect(roleFor("Do statins cause muscle aches in older adults?", statinTrial, [intolerant]).role).toBe("supporting");

    const sleep = trial(
      "23",
      "Sleep duration in midlife and incident dementia",
      "METHODS: Adults reported their sleep duration at 50 and 60. Hazard ratios were adjusted for age, smoking and use of hypnotics. RESULTS: Short sleep was associated with a higher risk of dementia.",
    );
    const hypnotics = trial("24", "Hypnotics and dementia", "RESULTS: Use of hypnotics was associated with a higher risk of dementia.");
    expect(roleFor("Do hypnotics raise the risk of dementia?", sleep, [hypnotics])).toMatchObject({ role: "context", reason: expect.stringMatching(/does not study hypnotics/) });
    expect(roleFor("Do hypnotics raise the risk of dementia?", hypnotics, [sleep]).role).toBe("supporting");
  });

  it("a trial with no untreated group, an uncontrolled pilot and a study that excluded the question's people do not test it", () => {
    const schedules = trial(
      "34",
      "Weekly versus daily vitamin D tablets in older adults",
      "METHODS: Adults over 70 took vitamin D tablets weekly or daily for 6 months. There was no placebo group. RESULTS: Muscle strength rose by 4% with both schedules.",
      ["Humans", "Aged", "Vitamin D", "Muscle Strength"],
    );
    const placebo = trial("35", "Vitamin D and muscle strength in older adults", "RESULTS: Vitamin D tablets raised muscle strength more than placebo in adults over 70.", ["Humans", "Aged", "Vitamin D", "Muscle Strength"]);
    expect(roleFor("Do vitamin D tablets build muscle strength in older adults?", schedules, [placebo])).toMatchObject({ role: "context", reason: expect.stringMatching(/no untreated or placebo group/) });
    expect(roleFor("Is vitamin D better than a dummy pill for muscle strength?", schedules, [placebo]).role).toBe("context");
    // The comparison it made is what it answers.
    expect(roleFor("Are weekly vitamin D tablets as good as daily ones for muscle strength?", schedules, [placebo]).role).toBe("supporting");
    expect(roleFor("Do vitamin D tablets build muscle strength in older adults?", placebo, [schedules]).role).toBe("supporting");

    const pilot = trial(
      "36",
      "Nicotinamide riboside in Parkinson's disease: a phase 1 pilot study",
      "METHODS: Ten adults with Parkinson's disease took nicotinamide riboside for 30 days. There was no control group. RESULTS: Motor scores improved by 2 points and no serious adverse events occurred.",
      ["Humans", "Parkinson Disease", "Niacinamide"],
    );
    expect(roleFor("Does nicotinamide riboside slow Parkinson's disease?", pilot, [placebo])).toMatchObject({ role: "context", reason: expect.stringMatching(/pilot with no control group/) });
    expect(roleFor("Is nicotinamide riboside safe in Parkinson's disease?", pilot, [placebo]).role).toBe("supporting");

    const excluded = trial(
      "37",
      "Allopurinol and blood pressure in older adults",
      "METHODS: Adults over 65 with high blood pressure were randomized to allopurinol or placebo; people with chronic kidney disease were excluded. RESULTS: Blood pressure fell by 3 mmHg more with allopurinol.",
      ["Humans", "Aged", "Allopurinol", "Hypertension", "Renal Insufficiency, Chronic"],
    );
    const ckd = trial("38", "Allopurinol in chronic kidney disease", "RESULTS: Allopurinol lowered blood pressure in people with chronic kidney disease.", ["Humans", "Allopurinol", "Renal Insufficiency, Chronic"]);
    expect(roleFor("Does allopurinol lower blood pressure in people with chronic kidney disease?", excluded, [ckd])).toMatchObject({ role: "context", reason: expect.stringMatching(/excluded/) });
    expect(roleFor("Does allopurinol lower blood pressure in people with chronic kidney disease?", ckd, [excluded]).role).toBe("supporting");
  });

  it("people living at home are not care-home residents, and early disease is not advanced disease", () => {
    const careHome = trial("41", "Memantine in care-home residents with dementia", "RESULTS: Memantine slowed the decline in memory scores over a year.", ["Humans", "Aged", "Memantine", "Dementia", "Nursing Homes"]);
    const atHome = trial("42", "Memantine in community-dwelling adults with dementia", "RESULTS: Memantine slowed the decline in memory scores over a year.", ["Humans", "Aged", "Memantine", "Dementia"]);
    expect(roleFor("Does memantine slow memory loss in people with dementia who live at home?", careHome, [atHome])).toMatchObject({ role: "context", reason: expect.stringMatching(/living in care homes, not at home/) });
    expect(roleFor("Does memantine slow memory loss in people with dementia who live at home?", atHome, [careHome]).role).toBe("supporting");
    expect(roleFor("Does memantine slow memory loss in people with dementia?", careHome, [atHome]).role).toBe("supporting");
    // A relative the question speaks of ("my mum") says who, not a condition a study must name.
    const visits = trial("54", "Occupational therapist home visits and falls in adults aged 75 and older", "RESULTS: Home visits reduced falls by a third.", ["Humans", "Aged", "Accidental Falls"]);
    expect(roleFor("My mum is 84 and has had two falls. Would a home visit from an occupational therapist help stop her falling?", visits, [atHome]).role).toBe("supporting");

    const advanced = trial("43", "Chemotherapy in advanced pancreatic cancer", "RESULTS: Chemotherapy lengthened survival by three months.", ["Humans", "Pancreatic Neoplasms"]);
    const early = trial("44", "Chemotherapy after surgery for early pancreatic cancer", "RESULTS: Chemotherapy lengthened survival by a year.", ["Humans", "Pancreatic Neoplasms"]);
    expect(roleFor("Does chemotherapy lengthen survival in early pancreatic cancer?", advanced, [early])).toMatchObject({ role: "context", reason: expect.stringMatching(/in advanced disease, not early/) });
    expect(roleFor("Does chemotherapy lengthen survival in early pancreatic cancer?", early, [advanced]).role).toBe("supporting");
    // "early" of a treatment says when, not how far a disease had gone.
    expect(roleFor("Does early chemotherapy lengthen survival in pancreatic cancer?", advanced, [early]).role).toBe("supporting");
  });

  it("a misspelt drug or disease is read as the word a record spells right, and a link studied the other way round does not test it", () => {
    const hcq = trial("46", "Hydroxychloroquine for painful hand osteoarthritis", "RESULTS: Hydroxychloroquine did not reduce hand pain more than placebo over 12 months.", ["Humans", "Hydroxychloroquine", "Osteoarthritis"]);
    const other = trial("47", "Exercise for knee pain", "RESULTS: Exercise reduced knee pain.", ["Humans", "Exercise"]);
    expect(roleFor("Does hydroxycloroquine ease osteoarthritus pain in the hands?", hcq, [other]).role).toBe("supporting");
    expect(readQuestion("Does turmeric ease joint pain?").exposure).toBe("turmeric");

    const cohort = (pmid: string, title: string) => buildRecord({ ids: { pmid }, title, abstract: "METHODS: A prospective cohort of 5,000 adults followed for ten years. RESULTS: The association was strong.", mesh: ["Humans", "Cohort Studies"], publicationTypes: ["Observational Study"] });
    const strokeFirst = cohort("48", "Incident depression in the two years after a stroke: a cohort study");
    const depressionFirst = cohort("49", "Depression and incident stroke in older adults: a cohort study");
    expect(roleFor("Does depression raise the risk of stroke?", strokeFirst, [depressionFirst])).toMatchObject({ role: "context", reason: expect.stringMatching(/other way round/) });
    expect(roleFor("Does depression raise the risk of stroke?", depressionFirst, [strokeFirst]).role).toBe("supporting");
    expect(roleFor("Are people more likely to become depressed after a stroke?", depressionFirst, [strokeFirst])).toMatchObject({ role: "context", reason: expect.stringMatching(/other way round/) });
    // A trial in people who had the event tests what it gave against the next one.
    const afterInfarction = trial("50", "Colchicine after myocardial infarction", "RESULTS: Colchicine reduced further myocardial infarctions.", ["Humans", "Colchicine", "Myocardial Infarction"]);
    expect(roleFor("Does colchicine prevent heart attacks?", afterInfarction, [other]).role).toBe("supporting");
  });

  it("a concept named only by a short form the record never spells out is named", () => {
    const arm = buildRecord({
      ids: { pmid: "51" },
      title: "Infants referred to a surgical centre",
      titleDerived: true,
      abstract: "METHODS: Infants referred with a final diagnosis of ARM were reviewed. RESULTS: The diagnosis of ARM was delayed beyond 24 hours in 14 of 44 infants. CONCLUSIONS: Examination of the perineum at birth is not always done.",
      mesh: ["Humans", "Infant, Newborn", "Delayed Diagnosis"],
    });
    const other = trial("52", "Hernia repair in infants", "RESULTS: Hernia repair was safe in 200 infants.", ["Humans", "Infant"]);
    const [judged] = judgeRecords([arm, other], readQuestion("Delayed diagnosis of anorectal malformations: are current guidelines sufficient?").terms);
    expect(judged!.missingConcepts).not.toContain("anorectal malformations");
    // Not a short form whose letters the words do not hold in order ("ARM" is no "hip dysplasia").
    const hips = trial("53", "Delayed diagnosis of hip dysplasia", "RESULTS: Hip dysplasia was diagnosed late in 30 of 400 infants.", ["Humans", "Infant"]);
    const [unrelated] = judgeRecords([arm, hips], readQuestion("Delayed diagnosis of hip dysplasia: are current guidelines sufficient?").terms);
    expect(unrelated!.missingConcepts).toContain("hip dysplasia");
  });

  it("a drip is given into a vein, and a comparator is read for what sets it apart", () => {
    const oral = trial(
      "39",
      "Oral iron and walking distance in heart failure",
      "BACKGROUND: Intravenous iron helps, but oral iron is cheaper. METHODS: Oral iron tablets or placebo for 16 weeks. RESULTS: Walking distance did not change with oral iron.",
      ["Humans", "Iron", "Heart Failure"],
    );
    const iv = trial("40", "Intravenous iron and walking distance in heart failure", "RESULTS: Intravenous iron improved walking distance.", ["Humans", "Iron", "Heart Failure"]);
    expect(roleFor("Does intravenous iron help people with heart failure walk further?", oral, [iv])).toMatchObject({ role: "context", reason: expect.stringMatching(/by mouth, not intravenously/) });
    expect(roleFor("Do iron drips help people with heart failure walk further?", oral, [iv]).role).not.toBe("supporting");
    expect(roleFor("Do iron drips help people with heart failure walk further?", iv, [oral]).role).toBe("supporting");
    expect(readQuestion("Is lidocaine gel better than a dummy gel for back pain?").comparator).toBe("dummy gel");
    expect(comparatorTerms(readQuestion("Is lidocaine gel better than a dummy gel for back pain?")).map((t) => t.term)).toEqual(["dummy"]);
    expect(comparatorTerms(readQuestion("Do short bursts of hard exercise improve fitness more than steady exercise?")).map((t) => t.term)).toEqual(["steady"]);
  });

  it("a therapy every arm kept taking is not what the trial compared, and what groups were weighted on is not studied", () => {
    const addOn = trial(
      "25",
      "Sitagliptin added to insulin in type 2 diabetes",
      "METHODS: Adults inadequately controlled on insulin glargine were randomized to sitagliptin or placebo for 24 weeks; all continued their insulin unchanged. RESULTS: HbA1c fell by 0.6% more with sitagliptin. CONCLUSIONS: Sitagliptin lowered HbA1c in people already taking insulin.",
      ["Humans", "Insulin Glargine", "Sitagliptin Phosphate", "Glycated Hemoglobin"],
    );
    const insulin = trial("26", "Insulin glargine and HbA1c", "RESULTS: Insulin glargine lowered HbA1c by 1.2% against placebo.", ["Humans", "Insulin Glargine"]);
    expect(roleFor("Does insulin lower HbA1c?", addOn, [insulin])).toMatchObject({ role: "context", reason: expect.stringMatching(/does not study insulin/) });
    expect(roleFor("Does insulin lower HbA1c?", insulin, [addOn]).role).toBe("supporting");
    expect(roleFor("Does sitagliptin lower HbA1c?", addOn, [insulin]).role).toBe("supporting");
    // Asked as the add-on it is, the trial answers it.
    expect(roleFor("Does adding sitagliptin to insulin lower HbA1c?", addOn, [insulin]).role).toBe("supporting");

    const onStatins = trial(
      "27",
      "Omega-3 fatty acids in people on statins",
      "METHODS: Adults with coronary disease were randomized to omega-3 fatty acids or placebo. Everyone remained on a statin. RESULTS: Heart attacks were 20% less frequent with omega-3 fatty acids.",
      ["Humans", "Fatty Acids, Omega-3", "Hydroxymethylglutaryl-CoA Reductase Inhibitors", "Myocardial Infarction"],
    );
    const statins = trial("28", "Statins and heart attacks", "RESULTS: Statins reduced heart attacks by a quarter.", ["Humans", "Hydroxymethylglutaryl-CoA Reductase Inhibitors", "Myocardial Infarction"]);
    expect(roleFor("Do statins prevent heart attacks?", onStatins, [statins]).role).not.toBe("supporting");
    expect(roleFor("Do omega-3 fatty acids prevent heart attacks?", onStatins, [statins]).role).toBe("supporting");

    // How many kept taking the trial's own treatment says nothing of a background.
    const adherent = trial("45", "Metformin and HbA1c in older adults", "METHODS: Adults over 65 were randomized to metformin or placebo. RESULTS: At 12 months 80% were still taking metformin, and HbA1c was 0.5% lower with it.", ["Humans", "Metformin"]);
    expect(roleFor("Does metformin lower HbA1c?", adherent, [insulin]).role).toBe("supporting");
    // Named in the question beside what the trial added, the background is part of what it asks.
    const onAspirin = trial(
      "31",
      "Ginkgo in adults on daily aspirin",
      "METHODS: Adults on a stable aspirin dose were randomized to ginkgo or placebo for 12 weeks. RESULTS: Bleeding events were as frequent with ginkgo as with placebo.",
      ["Humans", "Ginkgo biloba", "Aspirin", "Hemorrhage"],
    );
    const aspirin = trial("32", "Aspirin and bleeding", "RESULTS: Aspirin doubled the rate of major bleeding.", ["Humans", "Aspirin", "Hemorrhage"]);
    expect(roleFor("Is ginkgo safe to take with aspirin?", onAspirin, [aspirin]).role).toBe("supporting");
    expect(roleFor("Does aspirin cause bleeding?", onAspirin, [aspirin]).role).not.toBe("supporting");

    const weighted = trial(
      "29",
      "Statin use and hip fracture in older women",
      "METHODS: Statin users were compared with non-users, with propensity score weighting for age, bone density and steroid use. RESULTS: Hip fractures were 15% less frequent among statin users.",
    );
    const density = trial("30", "Bone density and hip fracture", "RESULTS: Each standard deviation lower in bone density doubled the risk of hip fracture.");
    expect(roleFor("Does low bone density predict hip fracture?", weighted, [density])).toMatchObject({ role: "context", reason: expect.stringMatching(/does not study (low )?bone density/) });
    expect(roleFor("Does low bone density predict hip fracture?", density, [weighted]).role).toBe("supporting");

    // A covariate's MeSH heading does not make the record a study of it.
    const covariate = buildRecord({
      ids: { pmid: "55" },
      title: "Loneliness and incident hip fracture in older adults",
      abstract: "METHODS: A cohort of 6,000 adults over 65. Hazard ratios were adjusted for age, sex and antidepressant use. RESULTS: Loneliness was associated with a higher risk of hip fracture.",
      mesh: ["Humans", "Aged", "Loneliness", "Hip Fractures", "Antidepressive Agents"],
      publicationTypes: ["Observational Study"],
    });
    const antidepressants = trial("56", "Antidepressants and hip fracture", "RESULTS: Antidepressant use was associated with more hip fractures.", ["Humans", "Antidepressive Agents", "Hip Fractures"]);
    expect(roleFor("Do antidepressants raise the risk of hip fracture?", covariate, [antidepressants]).role).not.toBe("supporting");
    expect(roleFor("Do antidepressants raise the risk of hip fracture?", antidepressants, [covariate]).role).toBe("supporting");
  });
});

describe("what a study can say of prevention, of an outcome named after the vaccine, and of attitudes (researcher trap questions; records written here)", () => {
  const trial = (pmid: string, title: string, abstract: string, mesh: string[] = [], extra: Partial<ReturnType<typeof buildRecord>> = {}) =>
    buildRecord({ ids: { pmid }, title, abstract, mesh, publicationTypes: ["Randomized Controlled Trial"], ...extra });

  it("a study whose people all had the outcome already cannot show what prevents it", () => {
    const afterFracture = trial(
      "61",
      "Zinc and complex regional pain syndrome after ankle fractures",
      "METHODS: In a double-blind trial, 300 patients with ankle fractures were randomized to zinc or placebo for six weeks. RESULTS: Complex regional pain syndrome occurred in 3% with zinc and 9% with placebo. CONCLUSIONS: Zinc reduced complex regional pain syndrome after ankle fractures.",
      ["Humans", "Zinc", "Ankle Fractures", "Complex Regional Pain Syndromes"],
    );
    const fractures = trial(
      "62",
      "Zinc supplements and fractures in older women",
      "METHODS: 2,000 women over 65 were randomized to zinc or placebo for three years. RESULTS: Ankle fractures occurred in 2% with zinc and 4% with placebo. CONCLUSIONS: Zinc lowered the risk of ankle fractures.",
      ["Humans", "Zinc", "Ankle Fractures"],
    );
    expect(roleFor("Does zinc prevent ankle fractures?", afterFracture, [fractures])).toMatchObject({ role: "context", reason: expect.stringMatching(/already had ankle fractures/) });
    expect(roleFor("Does zinc lower the risk of ankle fractures?", afterFracture, [fractures]).role).toBe("context");
    expect(roleFor("Does zinc prevent ankle fractures?", fractures, [afterFracture]).role).toBe("supporting");
    // What follows the fracture is what it tested; and preventing another one is asked of people who had one.
    expect(roleFor("Does zinc prevent complex regional pain syndrome after ankle fractures?", afterFracture, [fractures]).role).toBe("supporting");
    const second = trial(
      "63",
      "Zinc after an ankle fracture",
      "METHODS: 500 patients with ankle fractures were randomized to zinc or placebo. RESULTS: Subsequent ankle fractures occurred in 2% with zinc and 5% with placebo.",
      ["Humans", "Zinc", "Ankle Fractures"],
    );
    expect(roleFor("Does zinc prevent ankle fractures?", second, [fractures]).role).toBe("supporting");
    // A case-control study compares people who had it with people who did not: it does test what leads to it.
    const caseControl = buildRecord({
      ids: { pmid: "64" },
      title: "Zinc intake in patients with ankle fractures: a case-control study",
      abstract: "METHODS: Patients with ankle fractures and matched controls reported their zinc intake. RESULTS: Patients with ankle fractures had taken zinc less often than controls.",
      mesh: ["Humans", "Zinc", "Ankle Fractures", "Case-Control Studies"],
    });
    expect(roleFor("Does zinc prevent ankle fractures?", caseControl, [fractures]).reason ?? "").not.toMatch(/already had/);
  });

  it("a question of what age does is tested only by a study that compares ages, not by one done in older people alone", () => {
    const implants = trial(
      "71",
      "Two plates in wrist fracture surgery in patients older than 70",
      "METHODS: 120 patients older than 70 years having surgery for wrist fractures were randomized to a locking plate or a non-locking plate. RESULTS: Function at one year after surgery was similar with both plates. CONCLUSIONS: Both plates gave good function after wrist fracture surgery in older patients.",
      ["Humans", "Aged", "Aged, 80 and over", "Radius Fractures", "Bone Plates"],
    );
    const byAge = buildRecord({
      ids: { pmid: "72" },
      title: "Outcome of wrist fracture surgery in older and younger adults",
      abstract: "METHODS: A cohort of 900 adults had surgery for wrist fractures. RESULTS: Patients over 70 recovered function more slowly than younger patients. CONCLUSIONS: Older age predicted slower recovery after wrist fracture surgery.",
      mesh: ["Humans", "Aged", "Adult", "Radius Fractures", "Age Factors"],
      publicationTypes: ["Observational Study"],
    });
    expect(roleFor("Do older patients do worse after wrist fracture surgery?", implants, [byAge])).toMatchObject({ role: "context", reason: expect.stringMatching(/does not compare people of different ages/) });
    expect(roleFor("Do older patients do worse after wrist fracture surgery?", byAge, [implants]).role).toBe("supporting");
    expect(roleFor("Is old age a risk factor for a poor outcome after wrist fracture surgery?", implants, [byAge]).role).toBe("context");
    expect(roleFor("Are patients over 70 too old for wrist fracture surgery?", implants, [byAge]).role).toBe("context");
    // So for sex and race: a trial whose MeSH say Female and Male does not compare the sexes.
    const bothSexes = trial(
      "77",
      "Early extubation after valve surgery",
      "METHODS: 200 adults having valve surgery were randomized to early or standard extubation. RESULTS: Complications after valve surgery were similar with both. CONCLUSIONS: Early extubation is safe after valve surgery.",
      ["Humans", "Female", "Male", "Heart Valve Diseases", "Airway Extubation"],
    );
    const bySex = buildRecord({
      ids: { pmid: "78" },
      title: "Sex differences in complications after valve surgery",
      abstract: "METHODS: A registry of 3,000 adults having valve surgery. RESULTS: Women had more complications after valve surgery than men. CONCLUSIONS: Female sex was an independent risk factor after valve surgery.",
      mesh: ["Humans", "Female", "Male", "Heart Valve Diseases", "Sex Factors"],
      publicationTypes: ["Observational Study"],
    });
    expect(roleFor("Do women have more complications than men after valve surgery?", bothSexes)).toMatchObject({ role: "context", reason: expect.stringMatching(/does not compare people of different sexes/) });
    expect(roleFor("Do women have more complications than men after valve surgery?", bothSexes, [bySex]).role).not.toBe("supporting");
    expect(roleFor("Do women have more complications than men after valve surgery?", bySex, [bothSexes]).role).toBe("supporting");
    // A question of a treatment in older people asks about the treatment: age only says whom.
    expect(roleFor("Do locking plates help older patients with wrist fractures?", implants, [byAge]).reason ?? "").not.toMatch(/different ages/);
  });

  it("a population named in two words is named by both: a study of another cancer does not answer one of prostate cancer", () => {
    const bladder = trial(
      "73",
      "HER3 expression and survival in urothelial carcinoma of the bladder",
      "METHODS: Tumours of 400 patients with bladder carcinoma were stained for HER3. RESULTS: High HER3 expression predicted shorter cancer-specific survival. CONCLUSIONS: HER3 is a prognostic marker in bladder cancer.",
      ["Humans", "Urinary Bladder Neoplasms", "Receptor, ErbB-3", "Prognosis"],
      { publicationTypes: ["Observational Study"] },
    );
    const prostate = trial(
      "74",
      "HER3 expression and survival in prostate cancer",
      "METHODS: Tumours of 500 men with prostate cancer were stained for HER3. RESULTS: High HER3 expression predicted shorter cancer-specific survival. CONCLUSIONS: HER3 is a prognostic marker in prostate cancer.",
      ["Humans", "Prostatic Neoplasms", "Receptor, ErbB-3", "Prognosis"],
      { publicationTypes: ["Observational Study"] },
    );
    expect(roleFor("Is HER3 a prognostic marker in prostate cancer?", bladder)).toMatchObject({ role: "context", reason: expect.stringMatching(/in other people/) });
    expect(roleFor("Is HER3 a prognostic marker in prostate cancer?", bladder, [prostate]).role).not.toBe("supporting");
    expect(roleFor("Is HER3 a prognostic marker in prostate cancer?", prostate, [bladder]).role).toBe("supporting");
  });

  it("a phrase the vocabulary knows is named whole: a record of mouth cancer does not study 'localized prostate cancer treatment' for holding 'localized' and 'aggressive'", () => {
    const mouth = trial(
      "79",
      "Do patients with localized mouth cancer want aggressive treatment?",
      "METHODS: 200 patients with localized mouth cancer chose between surgery and radiotherapy. RESULTS: Most patients with localized cancer wanted the more aggressive treatment. CONCLUSIONS: Patients with localized mouth cancer want aggressive treatment.",
      ["Humans", "Mouth Neoplasms", "Choice Behavior"],
      { publicationTypes: ["Observational Study"] },
    );
    const prostate = trial(
      "80",
      "Do men with localized prostate cancer choose aggressive treatment?",
      "METHODS: 300 men with localized prostate cancer chose between surgery and watchful waiting. RESULTS: Most chose the more aggressive treatment. CONCLUSIONS: Men with localized prostate cancer prefer aggressive treatment.",
      ["Humans", "Male", "Prostatic Neoplasms", "Choice Behavior"],
      { publicationTypes: ["Observational Study"] },
    );
    // Other records of prostate cancer make its words common among the candidates, so that the
    // mouth record's other words would carry the subject without the rule.
    const screening = [1, 2, 3, 4].map((k) =>
      trial(`8${k}`, `Prostate cancer screening uptake in region ${k}`, `Prostate cancer screening was offered to ${k}00 men. RESULTS: Uptake of prostate cancer screening was 60%.`, ["Humans", "Prostatic Neoplasms", "Mass Screening"]),
    );
    const question = "Do patients with localized prostate cancer want aggressive treatment?";
    expect(roleFor(question, mouth, [prostate, ...screening])).toMatchObject({ role: "context", reason: expect.stringMatching(/does not study localized prostate cancer/) });
    expect(roleFor(question, prostate, [mouth, ...screening]).role).toBe("supporting");
  });

  it("a phrase is named as a phrase, also with words between or in one MeSH descriptor: 'bone mineral density', 'Estrogen Replacement Therapy'", () => {
    // The engine's case: "head" and "injuries" apart in a record of pelvic fractures are no head
    // injury (docs/decisions.md). These are the other side: what must still count as the phrase.
    const headInjury = trial(
      "88",
      "CT scans after minor head injury in adults",
      "METHODS: 1,200 adults with a minor head injury had a CT scan. RESULTS: CT scans found a bleed in 5%, all in patients with a clinical risk factor. CONCLUSIONS: CT scans after minor head injury can be limited to patients with risk factors.",
      ["Humans", "Tomography, X-Ray Computed"],
      { publicationTypes: ["Observational Study"] },
    );
    expect(roleFor("Should people with a minor head injury have a CT scan?", headInjury).role).toBe("supporting");
    const mineral = trial("89", "Bone mineral density and hip fracture", "RESULTS: Each standard deviation lower in bone mineral density doubled the risk of hip fracture.");
    expect(roleFor("Does low bone density predict hip fracture?", mineral).role).toBe("supporting");
    const replacement = trial("90", "Hip fractures after stopping treatment", "METHODS: Women who stopped or continued treatment were followed. RESULTS: Stopping treatment did not change hip fracture rates.", ["Humans", "Female", "Estrogen Replacement Therapy", "Hip Fractures"]);
    expect(roleFor("Does estrogen therapy prevent hip fracture?", replacement).role).toBe("supporting");
  });

  it("a trial of a way to get people to use something tests the way, not what the thing does", () => {
    const reminders = trial(
      "97",
      "Can text message reminders increase bowel screening uptake?",
      "METHODS: 3,000 adults invited to bowel screening were randomized to text reminders or none. RESULTS: Uptake was 58% with reminders and 52% without. CONCLUSIONS: Text reminders increased bowel screening uptake.",
      ["Humans", "Colorectal Neoplasms", "Early Detection of Cancer", "Text Messaging", "Reminder Systems"],
    );
    const screening = trial(
      "98",
      "Bowel screening and deaths from bowel cancer: a randomized trial",
      "METHODS: 40,000 adults were randomized to bowel screening or no screening. RESULTS: Deaths from bowel cancer were 25% fewer with screening. CONCLUSIONS: Bowel screening reduced deaths from bowel cancer.",
      ["Humans", "Colorectal Neoplasms", "Early Detection of Cancer", "Mortality"],
    );
    expect(roleFor("Does bowel screening save lives?", reminders, [screening])).toMatchObject({ role: "context", reason: expect.stringMatching(/a way to get people to use/) });
    expect(roleFor("Does bowel screening save lives?", screening, [reminders]).role).toBe("supporting");
    // Asked about the way itself, the trial answers it.
    expect(roleFor("Do text reminders increase bowel screening uptake?", reminders, [screening]).role).toBe("supporting");
  });

  it("a co-intervention every arm did is not what the trial tested: creatine during resistance training does not test resistance training", () => {
    const creatine = trial(
      "95",
      "Beta-alanine supplementation during 12 weeks of resistance training in adults over 65",
      "METHODS: Adults over 65 all completed a supervised resistance training programme twice a week and were randomized to beta-alanine or placebo. RESULTS: Muscle mass rose by 1.9 kg with beta-alanine and 1.7 kg with placebo. CONCLUSIONS: Beta-alanine did not add to the gains in muscle from resistance training.",
      ["Humans", "Aged", "beta-Alanine", "Resistance Training", "Muscle, Skeletal"],
    );
    const training = trial(
      "96",
      "Resistance training and muscle mass in adults over 65",
      "METHODS: Adults over 65 were randomized to resistance training twice a week or to stretching. RESULTS: Muscle mass rose by 1.8 kg with resistance training and fell by 0.2 kg with stretching. CONCLUSIONS: Resistance training increased muscle mass in older adults.",
      ["Humans", "Aged", "Resistance Training", "Muscle, Skeletal"],
    );
    const question = "Does resistance training build muscle in older adults?";
    expect(roleFor(question, creatine, [training]).role).not.toBe("supporting");
    expect(roleFor(question, training, [creatine]).role).toBe("supporting");
    // The co-intervention is the question's when it asks about what was added to it.
    expect(roleFor("Does beta-alanine add to the gains in muscle from resistance training?", creatine, [training]).role).toBe("supporting");
  });

  it("what is done about a thing names the concept: a record of coeliac disease that screened no one does not study coeliac disease screening", () => {
    const diet = trial(
      "85",
      "Diet in adults with coeliac disease twenty years on",
      "METHODS: 60 adults with coeliac disease diagnosed in childhood were reviewed. RESULTS: Most kept a gluten-free diet; bone density was low in a third. CONCLUSIONS: Coeliac disease needs lifelong follow-up.",
      ["Humans", "Celiac Disease", "Diet, Gluten-Free", "Bone Density"],
      { publicationTypes: ["Observational Study"] },
    );
    const screening = trial(
      "86",
      "Screening for coeliac disease in first-degree relatives",
      "METHODS: 800 relatives had serological screening for coeliac disease. RESULTS: Screening found coeliac disease in 8%, most without symptoms. CONCLUSIONS: Screening relatives for coeliac disease is worthwhile.",
      ["Humans", "Celiac Disease", "Mass Screening"],
      { publicationTypes: ["Observational Study"] },
    );
    expect(roleFor("Is coeliac disease screening worthwhile in relatives?", diet, [screening])).toMatchObject({ reason: expect.stringMatching(/does not study coeliac disease screening/) });
    expect(roleFor("Is coeliac disease screening worthwhile in relatives?", screening, [diet]).role).toBe("supporting");
  });

  it("a disorder named by its site is studied only where the site is: a record of kidney disease does not study heart disease", () => {
    const kidney = trial(
      "75",
      "Gum disease in patients with chronic kidney disease",
      "METHODS: 300 patients with chronic kidney disease had a periodontal examination. RESULTS: Periodontitis was found in 60%, more often with longer dialysis. CONCLUSIONS: Gum disease is common in kidney disease.",
      ["Humans", "Periodontal Diseases", "Renal Insufficiency, Chronic"],
      { publicationTypes: ["Observational Study"] },
    );
    const heart = trial(
      "76",
      "Periodontitis and cardiovascular disease: a cohort study",
      "METHODS: 5,000 adults had a periodontal examination and were followed for ten years. RESULTS: Periodontitis was associated with more cardiovascular events. CONCLUSIONS: Gum disease is linked to cardiovascular disease.",
      ["Humans", "Periodontitis", "Cardiovascular Diseases"],
      { publicationTypes: ["Observational Study"] },
    );
    expect(roleFor("Is gum disease linked to heart disease?", kidney, [heart]).role).not.toBe("supporting");
    // "Heart disease" as a person says it is cardiovascular disease (vocabulary).
    expect(roleFor("Is gum disease linked to heart disease?", heart, [kidney]).role).toBe("supporting");
  });

  it("an outcome named with the vaccine's disease is studied only where its own head is (“influenza deaths”, not any record of the flu vaccine)", () => {
    const uptake = buildRecord({
      ids: { pmid: "65" },
      title: "Influenza vaccination uptake among adults over 65",
      abstract: "METHODS: We reviewed records of 4,000 adults over 65 across two influenza seasons. RESULTS: 61% received influenza vaccination; uptake was lower in men, and influenza-like illness was reported by 12%.",
      mesh: ["Humans", "Aged", "Influenza Vaccines", "Influenza, Human"],
    });
    const deaths = buildRecord({
      ids: { pmid: "66" },
      title: "Influenza vaccination and influenza deaths in care-home residents",
      abstract: "METHODS: A cohort of 9,000 residents over 65 was followed for three winters. RESULTS: Influenza deaths were 40% fewer among vaccinated residents.",
      mesh: ["Humans", "Aged", "Influenza Vaccines", "Influenza, Human"],
    });
    // Deaths are named by many candidates, the flu by few: "influenza" alone would cover most of the outcome's weight.
    const others = ["statins", "aspirin", "exercise"].map((thing, k) => trial(`7${k}`, `${thing} and deaths in older adults`, `RESULTS: Deaths were fewer with ${thing} in adults over 65.`, ["Humans", "Aged", "Mortality"]));
    expect(roleFor("Does flu vaccination prevent influenza deaths in older people?", uptake, [deaths, ...others]).role).not.toBe("supporting");
    expect(roleFor("Does flu vaccination prevent influenza deaths in older people?", deaths, [uptake, ...others]).role).toBe("supporting");
  });

  it("the flu jab is the vaccine, not the disease", () => {
    expect(readQuestion("Does the flu jab prevent flu in older people?").terms.find((t) => t.term === "jab")?.synonyms ?? []).toContain("influenza vaccine");
    expect(readQuestion("Does the flu jab prevent flu in older people?").terms.find((t) => t.term === "jab")?.synonyms ?? []).not.toContain("influenza");
  });

  it("a survey whose stated aim is to measure knowledge or attitudes tests no question of what something does, where the library has no title", () => {
    const survey = buildRecord({
      ids: { pmid: "67" },
      title: "To assess the knowledge and attitudes of older adults regarding betel nut chewing in two districts.",
      titleDerived: true,
      abstract:
        "To assess the knowledge and attitudes of older adults regarding betel nut chewing in two districts. A cross-sectional questionnaire was given to 400 adults. Most considered betel nut harmful to oral health.",
      mesh: ["Humans", "Areca", "Health Knowledge, Attitudes, Practice"],
    });
    expect(roleFor("Is betel nut chewing harmful to oral health?", survey)).toMatchObject({ role: "context", reason: expect.stringMatching(/surveys what people think/) });
    expect(roleFor("Do older adults think betel nut chewing is harmful?", survey).role).toBe("supporting");
  });

  it("a cross-sectional survey with a prospective follow-up can speak of risk over time", () => {
    const both = {
      title: "Blood pressure and chronic neck pain",
      mesh: ["Humans", "Blood Pressure", "Neck Pain", "Cross-Sectional Studies"],
      publicationTypes: [],
    };
    const crossOnly = buildRecord({ ...both, ids: { pmid: "68" }, abstract: "METHODS: In a cross-sectional survey of 30,000 adults, blood pressure and neck pain were measured once. RESULTS: Higher blood pressure went with less neck pain." });
    const withFollowUp = buildRecord({
      ...both,
      ids: { pmid: "69" },
      abstract: "METHODS: A cross-sectional survey of 30,000 adults was followed by a prospective study of 12,000 who were free of neck pain, re-examined after 11 years. RESULTS: Higher blood pressure predicted less neck pain.",
    });
    expect(isCrossSectional(crossOnly)).toBe(true);
    expect(isCrossSectional(withFollowUp)).toBe(false);
  });
});

describe("a study of pregnancy is not a study of older people", () => {
  it("its Adult tag does not make it speak to older adults, unless it is tagged Aged too", () => {
    const pregnancy = buildRecord({
      ids: { pmid: "81" },
      title: "Swimming in pregnancy and depression after birth: a randomized trial",
      abstract: "METHODS: 600 pregnant women were randomized to weekly swimming or usual care. RESULTS: Depression after birth was as common with swimming as with usual care.",
      mesh: ["Humans", "Female", "Adult", "Pregnancy", "Swimming", "Depression, Postpartum"],
      publicationTypes: ["Randomized Controlled Trial"],
    });
    expect(recordAgeGroups(pregnancy)).toEqual(["childbearing"]);
    expect(roleFor("Does swimming prevent depression in older people?", pregnancy)).toMatchObject({ role: "context", reason: expect.stringMatching(/pregnant women or new mothers, not in older adults/) });
    expect(roleFor("Does swimming in pregnancy prevent depression after birth?", pregnancy).role).toBe("supporting");
    expect(recordAgeGroups({ ...pregnancy, mesh: [...pregnancy.mesh, "Aged"] })).toContain("older");
  });
});

describe("a decision model values effects it assumed; a study of what people would choose measures the choice", () => {
  it("a Markov model tests a question of cost or value, not whether the treatment works", () => {
    const model = buildRecord({
      ids: { pmid: "91" },
      title: "Bisphosphonates after a first vertebral fracture: a Markov model",
      abstract:
        "METHODS: A Markov model followed a simulated cohort of women aged 70 with a vertebral fracture, with fracture risks and treatment effects taken from published trials. RESULTS: Bisphosphonates prevented 120 hip fractures per 10,000 women and cost 18,000 dollars per quality-adjusted life year.",
      mesh: ["Humans", "Female", "Aged", "Diphosphonates", "Hip Fractures", "Markov Chains"],
    });
    expect(roleFor("Do bisphosphonates prevent hip fractures in older women?", model)).toMatchObject({ role: "context", reason: expect.stringMatching(/decision model/) });
    expect(roleFor("Are bisphosphonates cost-effective for preventing hip fractures in older women?", model).role).toBe("supporting");
    // A trial of a decision aid is indexed under decision support too, and is tested like any trial.
    const aid = buildRecord({
      ids: { pmid: "93" },
      title: "A decision aid for women considering bisphosphonates: a randomized trial",
      abstract: "METHODS: 300 women aged 70 were randomized to a decision aid or a leaflet. RESULTS: Decisional conflict was lower with the decision aid.",
      mesh: ["Humans", "Female", "Aged", "Decision Support Techniques", "Diphosphonates"],
      publicationTypes: ["Randomized Controlled Trial"],
    });
    expect(roleFor("Does a decision aid reduce decisional conflict in older women?", aid).role).toBe("supporting");
  });

  it("a study whose stated aim is whether patients would choose a treatment does not test what the treatment does", () => {
    const choice = buildRecord({
      ids: { pmid: "92" },
      title: "Examine whether women with breast cancer choose the longer of two radiotherapy courses when told its survival gain.",
      titleDerived: true,
      abstract:
        "Examine whether women with breast cancer choose the longer of two radiotherapy courses when told its survival gain. METHODS: 120 women were offered both courses. RESULTS: Most chose the shorter course even for a 5% gain in survival.",
      mesh: ["Humans", "Female", "Breast Neoplasms", "Radiotherapy", "Patient Preference"],
    });
    expect(roleFor("Does longer radiotherapy help women with breast cancer live longer?", choice)).toMatchObject({ role: "context", reason: expect.stringMatching(/surveys what people think/) });
    expect(roleFor("Do women with breast cancer prefer the longer radiotherapy course?", choice).role).toBe("supporting");
  });
});

describe("systemic drugs are given by mouth or injection, not inhaled or on the skin", () => {
  it("a trial of systemic steroids does not test inhaled ones, and does test oral ones", () => {
    const systemic = buildRecord({
      ids: { pmid: "95" },
      title: "A short course of systemic corticosteroids for asthma attacks in children",
      abstract: "METHODS: Children with an asthma attack were randomized to systemic corticosteroids or placebo for five days. RESULTS: Asthma control improved more with corticosteroids.",
      mesh: ["Humans", "Child", "Asthma", "Adrenal Cortex Hormones"],
      publicationTypes: ["Randomized Controlled Trial"],
    });
    expect(roleFor("Do inhaled steroids improve asthma control in children?", systemic)).toMatchObject({ role: "context", reason: expect.stringMatching(/systemically .* not inhaled/) });
    expect(roleFor("Do oral steroids improve asthma control in children?", systemic).role).toBe("supporting");
    // A disease called systemic names no route.
    expect(howGiven({ title: "Hydroxychloroquine in systemic lupus erythematosus", abstract: "", titleDerived: false }).routes).toEqual([]);
  });
});

describe("a two-word name is addressed with its head", () => {
  it("a study of stomach acid does not study stomach cancer", () => {
    const acid = buildRecord({
      ids: { pmid: "96" },
      title: "Rebound gastric acid secretion after stopping omeprazole",
      abstract: "METHODS: 60 adults took omeprazole or placebo for four weeks. RESULTS: Stomach acid secretion rose above baseline for two weeks after omeprazole was stopped.",
      mesh: ["Humans", "Omeprazole", "Proton Pump Inhibitors", "Gastric Acid"],
      publicationTypes: ["Randomized Controlled Trial"],
    });
    const cancer = buildRecord({
      ids: { pmid: "97" },
      title: "Proton pump inhibitors and stomach cancer: a cohort study",
      abstract: "METHODS: 60,000 adults were followed for ten years. RESULTS: Long-term use of proton pump inhibitors was associated with more stomach cancer.",
      mesh: ["Humans", "Proton Pump Inhibitors", "Stomach Neoplasms", "Cohort Studies"],
    });
    const others = ["statins", "aspirin", "metformin"].map((thing, k) => buildRecord({ ids: { pmid: `98${k}` }, title: `${thing} and cancer`, abstract: `RESULTS: ${thing} users had less cancer.`, mesh: ["Humans", "Neoplasms"] }));
    expect(roleFor("Do proton pump inhibitors cause stomach cancer?", acid, [cancer, ...others]).role).not.toBe("supporting");
    expect(roleFor("Do proton pump inhibitors cause stomach cancer?", cancer, [acid, ...others]).role).toBe("supporting");
  });
});

describe("a comparison with no relation verb is read as one", () => {
  it("what is compared is the exposure, what it is compared on the outcome", () => {
    const asGood = readQuestion("Is ultrasound as accurate as X-ray for diagnosing fractures in children?");
    expect(asGood.concepts.map((c) => [c.part, c.label])).toEqual([
      ["exposure", "ultrasound"],
      ["outcome", "fractures"],
    ]);
    expect(asGood.comparator).toBe("x-ray");
    expect(asGood.population).toBe("children");
    expect(readQuestion("Is ultrasound better than X-ray for diagnosing fractures?").concepts.map((c) => c.part)).toEqual(["exposure", "outcome"]);
    // A relation verb after "for" relates; the comparator stays one ("aspirin" is no second exposure).
    const warfarin = readQuestion("Is warfarin better than aspirin for preventing stroke?");
    expect(warfarin.concepts.map((c) => [c.part, c.label])).toEqual([
      ["exposure", "warfarin"],
      ["outcome", "stroke"],
    ]);
    expect(warfarin.comparator).toBe("aspirin");
    // "detect", "catch", "spot", "diagnose" relate a test to what it finds.
    expect(readQuestion("Can a blood test spot bowel cancer?").concepts.map((c) => [c.part, c.label])).toEqual([
      ["exposure", "blood test"],
      ["outcome", "bowel cancer"],
    ]);
    // "for" people says whom, not what they are compared on.
    expect(readQuestion("Is tai chi better than walking for older adults?").concepts.every((c) => c.label !== "older adults")).toBe(true);
  });

  it("a record that names neither the compared thing nor what it is compared on does not test it", () => {
    const coeliac = buildRecord({
      ids: { pmid: "99" },
      title: "Bone density years after screening for coeliac disease",
      abstract: "METHODS: Bone mineral density was measured by dual-energy x-ray absorptiometry in 53 adults. RESULTS: Bone density was similar to the general population's, and fractures were as common.",
      mesh: ["Humans", "Celiac Disease", "Bone Density", "Fractures, Bone"],
    });
    expect(roleFor("Is ultrasound as accurate as X-ray for diagnosing fractures?", coeliac).role).not.toBe("supporting");
  });
});

describe("a case report says so in its abstract too", () => {
  it("is read from the abstract where the library has no publication type or title", () => {
    const says = (abstract: string) => isCaseReport({ title: "Bisphosphonates in a child with brittle bones", publicationTypes: [], abstract });
    expect(says("This case report presents bone density before and after pamidronate.")).toBe(true);
    expect(says("We report a 3-year-old boy with brittle bones treated with pamidronate.")).toBe(true);
    expect(says("We describe a patient whose fractures healed on pamidronate.")).toBe(true);
    expect(says("METHODS: 300 children were randomized to pamidronate or placebo.")).toBe(false);
    expect(says("We report the outcomes of 300 children given pamidronate.")).toBe(false);
  });

  it("tests no question of what something does, but does show that something can happen", () => {
    const report = buildRecord({
      ids: { pmid: "100" },
      title: "Remission of vasculitis without treatment",
      abstract: "We report a 54-year-old man with polyarteritis nodosa whose vasculitis went into remission without treatment. Pamidronate was never given.",
      mesh: ["Humans", "Polyarteritis Nodosa", "Remission, Spontaneous"],
    });
    expect(roleFor("Does polyarteritis nodosa go into remission without treatment?", report).role).toBe("context");
    expect(roleFor("Does spontaneous remission occur in polyarteritis nodosa?", report).role).toBe("supporting");
  });
});

describe("the site says which surgery", () => {
  it("a study after one operation does not test a question about another", () => {
    const tummyTuck = buildRecord({
      ids: { pmid: "101" },
      title: "Quilting sutures and seroma after abdominoplasty",
      abstract: "METHODS: 80 patients undergoing abdominoplasty were randomized to quilting sutures or drains. RESULTS: Seroma followed surgery in 3% with quilting and 15% with drains.",
      mesh: ["Humans", "Abdominoplasty", "Seroma", "Suture Techniques"],
      publicationTypes: ["Randomized Controlled Trial"],
    });
    expect(roleFor("Do quilting sutures prevent seroma after breast surgery?", tummyTuck)).toMatchObject({ role: "context", reason: expect.stringMatching(/in other people/) });
    expect(roleFor("Do quilting sutures prevent seroma after surgery?", tummyTuck).role).toBe("supporting");
  });
});

describe("a drug class by its target, and adults as not children", () => {
  it("a study of the ACE gene does not study ACE inhibitors", () => {
    const gene = buildRecord({
      ids: { pmid: "102" },
      title: "ACE gene polymorphism and chronic kidney disease in hypertension",
      abstract: "METHODS: The ACE gene was genotyped in 300 adults with hypertension. RESULTS: The DD genotype of ACE was associated with chronic kidney disease.",
      mesh: ["Humans", "Hypertension", "Peptidyl-Dipeptidase A", "Renal Insufficiency, Chronic"],
    });
    const drug = buildRecord({
      ids: { pmid: "103" },
      title: "ACE inhibitors and chronic kidney disease in hypertension",
      abstract: "METHODS: 5,000 adults with hypertension were followed for eight years. RESULTS: ACE inhibitor use was associated with less chronic kidney disease.",
      mesh: ["Humans", "Hypertension", "Angiotensin-Converting Enzyme Inhibitors", "Renal Insufficiency, Chronic"],
    });
    expect(roleFor("Does ACE inhibitor treatment prevent kidney disease?", gene, [drug]).role).not.toBe("supporting");
    expect(roleFor("Does ACE inhibitor treatment prevent kidney disease?", drug, [gene]).role).toBe("supporting");
  });

  it("a trial in children does not test a question about adults", () => {
    const children = buildRecord({
      ids: { pmid: "104" },
      title: "Dexamethasone versus prednisone for asthma attacks in children",
      abstract: "METHODS: 200 children with an asthma attack were randomized to dexamethasone or prednisone. RESULTS: Return visits were as common with dexamethasone as with prednisone.",
      mesh: ["Humans", "Child", "Asthma", "Dexamethasone", "Prednisone"],
      publicationTypes: ["Randomized Controlled Trial"],
    });
    expect(roleFor("Is dexamethasone as good as prednisone for asthma attacks in adults?", children)).toMatchObject({ role: "context", reason: expect.stringMatching(/in children, not in adults;/) });
    expect(roleFor("Is dexamethasone as good as prednisone for asthma attacks in children?", children).role).toBe("supporting");
  });
});

describe("a date names no subject", () => {
  it("a study dated in July does not study the July effect", () => {
    const dated = buildRecord({
      ids: { pmid: "105" },
      title: "Early feeding after bowel surgery",
      abstract: "METHODS: Patients operated on between January and July 2005 were randomized to early or late feeding. RESULTS: Early feeding shortened the hospital stay.",
      mesh: ["Humans", "Enteral Nutrition"],
      publicationTypes: ["Randomized Controlled Trial"],
    });
    const july = buildRecord({
      ids: { pmid: "106" },
      title: "Mortality of patients admitted in July to teaching hospitals",
      abstract: "METHODS: We compared patients admitted in July, when new residents start, with those admitted in May. RESULTS: Mortality did not differ: there was no July effect.",
      mesh: ["Humans", "Hospital Mortality", "Internship and Residency"],
    });
    expect(roleFor("Is there a July effect in teaching hospitals?", dated, [july]).role).not.toBe("supporting");
    expect(roleFor("Is there a July effect in teaching hospitals?", july, [dated]).role).toBe("supporting");
  });
});
