/**
 * The curated biomedical vocabulary: concepts a person names in lay words and the literature in
 * technical ones, which WordNet (agent/literature/vocabulary/wordnet-synonyms.ts) does not link.
 * Each concept has its technical name, its equivalents, its lay forms, its MeSH heading when
 * there is one, and, for a class, its members.
 *
 * Sources, named on each concept (`sources`):
 * - `mesh`: NLM's Medical Subject Headings (the MeSH Browser's descriptor names and entry terms),
 *   public domain. The heading is matched only against a record's MeSH terms and sent to PubMed as
 *   `[mh]`: a heading such as "Aged" names the concept there, while "aged 18 to 65" in an abstract
 *   does not.
 * - `chv`: the Consumer Health Vocabulary (Zeng and Tse; lay terms mapped to UMLS concepts), and
 *   the NHS's and MedlinePlus's plain-language names for conditions and procedures.
 * - `atc`: the WHO ATC classification and drug-class membership as the class's MeSH pharmacologic
 *   action lists it.
 * Written from those sources for this repository (names and facts, no copied files); each entry is
 * reviewed by a person and covered by tests/unit/vocabulary.test.ts.
 *
 * Rules every entry keeps:
 * - A synonym or lay form names the concept in any biomedical text; a word that is often used
 *   otherwise is not listed alone ("aged", "training", "break"), only inside a phrase.
 * - `members` are directional: a question about the class ("statins") is answered by a study of a
 *   member (atorvastatin), but a question about a member is not answered by a study of the class or
 *   of another member. Members are never synonyms.
 */

export type VocabularySource = "mesh" | "chv" | "atc";

export type CuratedConcept = {
  /** The technical name the literature uses. */
  canonical: string;
  /** The MeSH descriptor, matched against MeSH terms only. */
  heading?: string;
  /** Technical equivalents: MeSH entry terms, abbreviations, spelling forms. */
  synonyms?: string[];
  /** What a person says for it. */
  lay?: string[];
  /** A class's members: narrower, and one way only. */
  members?: string[];
  sources: VocabularySource[];
};

const M: VocabularySource[] = ["mesh"];
const MC: VocabularySource[] = ["mesh", "chv"];
const MA: VocabularySource[] = ["mesh", "atc"];

export const CURATED_CONCEPTS: readonly CuratedConcept[] = [
  // Aging and longevity
  { canonical: "aging", heading: "Aging", synonyms: ["ageing", "senescence", "biological aging", "aging process"], lay: ["getting older", "growing old", "growing older", "getting old", "as we age", "as you age", "as people age", "as we get older", "as you get older", "as i get older"], sources: MC },
  { canonical: "longevity", heading: "Longevity", synonyms: ["lifespan", "life span", "life-span", "survival", "life expectancy"], lay: ["live longer", "living longer", "long life", "add years to my life", "add years to life", "years to my life", "extra years of life", "live to 100", "living to 100", "live to a hundred", "living to a hundred", "live a long life", "living a long life", "reach old age", "reaching old age"], sources: MC },
  { canonical: "healthspan", synonyms: ["health span", "healthy life expectancy", "healthy aging", "healthy ageing"], sources: M },
  { canonical: "mortality", heading: "Mortality", synonyms: ["death", "deaths", "survival", "death rate", "fatality", "fatalities"], lay: ["dying", "die", "died", "alive", "risk of dying", "live longer", "living longer", "longer life", "add years to my life", "add years to life"], sources: MC },
  { canonical: "cardiovascular mortality", synonyms: ["cardiovascular death", "cardiovascular deaths", "cardiac death", "fatal cardiovascular disease", "fatal coronary heart disease", "cardiovascular disease mortality"], lay: ["deaths from heart disease", "death from heart disease", "dying of heart disease", "heart deaths"], sources: MC },
  { canonical: "older adults", heading: "Aged", synonyms: ["elderly", "older people", "older persons", "older patients", "older adult", "geriatric", "elderly patients", "older individuals", "senior citizens"], lay: ["old people", "older folks", "old folks", "pensioners", "grandma", "grandpa", "grandparents", "the aged", "seniors", "old age", "in old age", "over-65s", "over 65s", "over-70s", "over 70s", "over-80s", "over 80s"], members: ["octogenarians", "nonagenarians", "centenarians"], sources: MC },
  { canonical: "frailty", heading: "Frailty", synonyms: ["frail", "frail elderly"], lay: ["weak and frail", "getting frail", "becoming frail"], sources: MC },
  { canonical: "sarcopenia", heading: "Sarcopenia", synonyms: ["age-related muscle loss"], lay: ["muscle loss", "losing muscle", "muscle loss with age", "losing muscle with age", "muscle wasting with age", "losing muscle as you age", "muscle loss in old age", "age-related muscle wasting"], sources: MC },
  { canonical: "caloric restriction", heading: "Caloric Restriction", synonyms: ["calorie restriction", "dietary restriction", "energy restriction"], lay: ["eating less", "cutting calories"], sources: MC },
  { canonical: "protein restriction", synonyms: ["dietary protein restriction", "low-protein diet", "low protein diet", "low-protein diets", "low protein intake", "protein-restricted diet"], lay: ["eating less protein", "less protein", "cutting down on protein"], sources: MC },
  { canonical: "dietary proteins", heading: "Dietary Proteins", synonyms: ["dietary protein", "protein intake", "protein consumption"], lay: ["eating less protein", "eating more protein", "eating protein", "less protein", "more protein"], sources: MC },
  { canonical: "intermittent fasting", heading: "Intermittent Fasting", synonyms: ["time-restricted eating", "time-restricted feeding", "alternate-day fasting"], lay: ["fasting diet", "fasting window", "eating window", "16:8 fasting", "16:8 diet", "5:2 diet", "5:2 fasting", "one meal a day", "omad", "fasting days"], sources: MC },
  { canonical: "sirolimus", heading: "Sirolimus", synonyms: ["rapamycin"], sources: MA },
  { canonical: "mtor inhibitors", heading: "MTOR Inhibitors", synonyms: ["mtor inhibitor", "rapalogs", "rapalog"], members: ["sirolimus", "rapamycin", "everolimus", "temsirolimus"], sources: MA },
  { canonical: "senolytics", heading: "Senotherapeutics", synonyms: ["senolytic", "senolytic drugs", "senolytic agents"], members: ["dasatinib", "quercetin", "fisetin", "navitoclax"], sources: MA },
  { canonical: "nad+", synonyms: ["nad", "nicotinamide adenine dinucleotide"], sources: M },
  { canonical: "nad+ precursors", synonyms: ["nad+ precursor", "nad precursor", "nad precursors", "nad+ supplementation", "nad supplementation", "nad+ boosters", "nad+ booster"], members: ["nicotinamide riboside", "nicotinamide mononucleotide", "nmn", "nicotinamide", "nicotinic acid"], sources: M },
  { canonical: "telomere", heading: "Telomere", synonyms: ["telomeres", "telomere length"], sources: M },
  { canonical: "mice", synonyms: ["mouse", "murine"], sources: M },
  { canonical: "rats", synonyms: ["rat"], sources: M },
  { canonical: "randomized controlled trial", synonyms: ["trial", "trials", "randomized", "randomised", "rct", "randomized trial", "randomised trial"], sources: M },

  // People and settings
  { canonical: "children", heading: "Child", synonyms: ["child", "pediatric", "paediatric", "childhood", "schoolchildren"], lay: ["kids", "kid", "youngsters", "sons", "daughters"], sources: MC },
  { canonical: "adolescents", heading: "Adolescent", synonyms: ["adolescent", "adolescence", "teenagers", "teenage", "youth"], lay: ["teens", "teen", "teenager", "young people"], sources: MC },
  { canonical: "infants", heading: "Infant", synonyms: ["infant", "infancy", "neonates", "neonate", "neonatal", "newborn", "newborns"], lay: ["babies", "baby", "toddlers"], sources: MC },
  { canonical: "preterm infants", heading: "Infant, Premature", synonyms: ["preterm infant", "premature infants", "premature infant", "preterm birth", "premature birth", "prematurity", "preterm", "very low birth weight", "extremely preterm", "preterm neonates"], lay: ["preemies", "preemie", "born early", "born too early", "premature babies", "premature baby"], sources: MC },
  { canonical: "pregnancy", heading: "Pregnancy", synonyms: ["pregnant", "gestation", "gestational", "pregnant women", "prenatal", "antenatal"], lay: ["expecting a baby", "mum-to-be", "mums-to-be", "mom-to-be", "moms-to-be", "mother-to-be", "with child"], sources: MC },
  { canonical: "parity", heading: "Parity", synonyms: ["multiparity", "multiparous", "parous", "grand multiparity"], lay: ["number of children", "previous births"], sources: MC },
  { canonical: "mothers", heading: "Mothers", synonyms: ["mother", "maternal"], lay: ["mum", "mums", "mom", "moms", "mummy"], sources: MC },
  { canonical: "fathers", heading: "Fathers", synonyms: ["father", "paternal"], lay: ["dad", "dads", "daddy"], sources: MC },
  { canonical: "parents", heading: "Parents", synonyms: ["parent", "parental"], lay: ["mum and dad", "mums and dads", "mom and dad", "moms and dads"], sources: MC },
  { canonical: "women", heading: "Women", synonyms: ["woman"], lay: ["ladies", "lady", "wives", "wife"], sources: MC },
  { canonical: "men", heading: "Men", synonyms: ["man"], lay: ["lads", "guys", "husbands", "husband", "blokes"], sources: MC },
  { canonical: "physicians", heading: "Physicians", synonyms: ["physician", "clinicians", "clinician", "doctors", "doctor"], lay: ["docs", "medics"], sources: MC },
  { canonical: "internship and residency", heading: "Internship and Residency", synonyms: ["residency", "resident physicians", "house officers", "registrars", "postgraduate training", "graduate medical education"], lay: ["junior doctors", "trainee doctors", "trainee surgeons", "doctors in training", "young doctors"], sources: MC },
  { canonical: "general practice", heading: "General Practice", synonyms: ["general practitioners", "general practitioner", "primary care", "primary health care", "family practice", "family physicians", "family medicine", "gp"], lay: ["gps", "family doctor", "family doctors", "gp surgeries", "gp surgery", "local doctor", "doctor's surgery", "gp practice", "gp appointment", "gp appointments"], sources: MC },
  { canonical: "pharmacists", heading: "Pharmacists", synonyms: ["pharmacist", "pharmacy", "pharmacies"], lay: ["chemist"], sources: MC },
  { canonical: "intensive care unit", heading: "Intensive Care Units", synonyms: ["intensive care units", "icu", "critical care", "intensive care", "critically ill"], lay: ["intensive care ward"], sources: MC },
  { canonical: "emergency department", heading: "Emergency Service, Hospital", synonyms: ["emergency departments", "emergency room", "accident and emergency", "emergency medicine"], lay: ["a&e", "casualty department", "emergency ward", "er visit", "er visits", "er doctors"], sources: MC },
  { canonical: "nursing homes", heading: "Nursing Homes", synonyms: ["nursing home", "long-term care", "care homes", "care home", "residential care", "long-term care facilities"], lay: ["old people's home", "retirement home", "residential home", "aged care facility", "aged care home", "old folks home", "old folks' home", "rest home", "rest homes"], sources: MC },
  { canonical: "rural population", heading: "Rural Population", synonyms: ["rurality"], lay: ["countryside", "villages"], sources: MC },
  { canonical: "urban population", heading: "Urban Population", synonyms: ["urban"], lay: ["city", "cities", "town"], sources: MC },
  { canonical: "ethnic groups", heading: "Ethnic Groups", synonyms: ["ethnicity", "race", "racial", "ethnic"], lay: ["people of colour", "people of color", "skin colour", "skin color", "white people"], members: ["african american", "black", "hispanic", "asian"], sources: MC },
  { canonical: "insurance", heading: "Insurance, Health", synonyms: ["health insurance", "insurer", "insurers", "health plan", "health plans"], lay: ["insurance company"], members: ["medicaid", "medicare", "managed care"], sources: MC },

  // Body parts, lay ↔ technical
  { canonical: "heart", synonyms: ["cardiac", "myocardial", "myocardium"], lay: ["ticker"], sources: MC },
  { canonical: "kidney", synonyms: ["kidneys", "renal"], sources: M },
  { canonical: "liver", synonyms: ["hepatic"], sources: M },
  { canonical: "lung", synonyms: ["lungs", "pulmonary"], sources: M },
  { canonical: "brain", synonyms: ["cerebral"], sources: M },
  { canonical: "stomach", synonyms: ["gastric"], lay: ["tummy", "belly"], sources: MC },
  { canonical: "abdomen", synonyms: ["abdominal"], lay: ["belly", "tummy", "stomach area"], sources: MC },
  { canonical: "gastrointestinal tract", heading: "Gastrointestinal Tract", synonyms: ["gastrointestinal", "digestive", "gut", "intestinal", "bowel"], lay: ["stomach and bowel", "stomach-and-bowel", "guts", "tummy and bowel"], sources: MC },
  { canonical: "colon", synonyms: ["colonic", "colorectal", "large bowel", "large intestine"], lay: ["bowel", "bowels"], sources: MC },
  { canonical: "rectum", synonyms: ["rectal", "anorectal", "anal", "anus"], lay: ["back passage", "back-passage"], sources: MC },
  { canonical: "esophagus", synonyms: ["oesophagus", "esophageal", "oesophageal"], lay: ["food pipe", "gullet"], sources: MC },
  { canonical: "uterus", synonyms: ["uterine", "womb", "endometrium", "endometrial"], lay: ["womb lining"], sources: MC },
  { canonical: "ovary", synonyms: ["ovaries", "ovarian"], sources: M },
  { canonical: "thyroid gland", heading: "Thyroid Gland", synonyms: ["thyroid"], lay: ["butterfly gland", "butterfly-shaped gland"], sources: MC },
  { canonical: "spine", synonyms: ["spinal", "vertebral", "vertebrae", "vertebra"], lay: ["backbone", "back bone", "spine bones", "spinal bones"], members: ["lumbar spine", "cervical spine", "thoracic spine"], sources: MC },
  { canonical: "skeleton", synonyms: ["bone", "bones", "skeletal", "osseous"], sources: M },
  { canonical: "skin", synonyms: ["cutaneous", "dermal", "dermatologic"], sources: M },
  { canonical: "eye", synonyms: ["eyes", "ocular", "ophthalmic", "ophthalmologic"], sources: M },
  { canonical: "blood vessels", heading: "Blood Vessels", synonyms: ["vascular"], lay: ["vessels"], members: ["microvascular", "arteries", "veins", "capillaries"], sources: MC },
  { canonical: "lymph nodes", heading: "Lymph Nodes", synonyms: ["lymph node", "nodal", "lymphatic"], lay: ["glands", "lymph glands"], sources: MC },
  { canonical: "heart valves", heading: "Heart Valves", synonyms: ["heart valve", "valvular"], lay: ["heart flap", "heart flaps", "valve flaps"], members: ["mitral valve", "aortic valve", "tricuspid valve"], sources: MC },
  { canonical: "intervertebral disc", heading: "Intervertebral Disc", synonyms: ["intervertebral", "intervertebral discs", "nucleus pulposus"], lay: ["spinal disc", "spinal discs", "spinal disk", "spinal disks", "cushion between the bones", "cushions between the bones", "cushion between the vertebrae", "cushions between the vertebrae", "cushion between the spine bones"], sources: MC },
  { canonical: "knee", synonyms: ["knees", "knee joint"], sources: M },
  { canonical: "shoulder", synonyms: ["shoulders", "shoulder joint", "rotator cuff"], sources: M },
  { canonical: "hip", synonyms: ["hips", "hip joint"], sources: M },

  // Conditions, lay ↔ technical
  { canonical: "hip fractures", heading: "Hip Fractures", synonyms: ["hip fracture", "femoral neck fracture", "femoral neck fractures", "proximal femoral fracture", "proximal femoral fractures", "proximal femur fracture", "fracture of the proximal femur", "fractures of the proximal femur", "intertrochanteric fracture", "trochanteric fracture", "fractured neck of femur", "fractured hip"], lay: ["broken hip", "broke her hip", "broke his hip", "broken hips"], sources: MC },
  { canonical: "fractures", heading: "Fractures, Bone", synonyms: ["fracture", "fractured"], lay: ["broken bone", "broken bones", "broken"], sources: MC },
  { canonical: "rehabilitation", heading: "Rehabilitation", synonyms: ["rehabilitative", "rehabilitation ward", "rehabilitation unit", "rehabilitation programme", "rehabilitation program"], lay: ["rehab", "rehab unit", "rehab ward", "getting back on their feet"], members: ["physiotherapy", "physical therapy", "occupational therapy"], sources: MC },
  { canonical: "diabetes mellitus", heading: "Diabetes Mellitus", synonyms: ["diabetes", "diabetic", "diabetics"], lay: ["high sugar", "high blood sugar", "sugar disease", "sugar diabetes"], sources: MC },
  { canonical: "gestational diabetes", heading: "Diabetes, Gestational", synonyms: ["gestational diabetes mellitus", "gdm", "diabetes in pregnancy"], lay: ["pregnancy diabetes", "sugar in pregnancy", "pregnancy sugar", "high sugar in pregnancy", "diabetes while pregnant"], sources: MC },
  { canonical: "hypoglycemia", heading: "Hypoglycemia", synonyms: ["hypoglycaemia", "hypoglycemic", "hypoglycaemic", "low blood glucose"], lay: ["low sugar", "low blood sugar", "hypo", "hypos"], sources: MC },
  { canonical: "insulin", heading: "Insulin", synonyms: ["insulin therapy", "insulin-treated", "basal insulin", "insulin glargine"], lay: ["insulin jabs", "insulin shots"], sources: MC },
  { canonical: "blood glucose", heading: "Blood Glucose", synonyms: ["glucose", "glycemia", "glycaemia", "glycemic", "glycaemic", "hba1c"], lay: ["blood sugar", "sugar levels", "sugar level", "average blood sugar", "blood sugar test"], sources: MC },
  { canonical: "hypertension", heading: "Hypertension", synonyms: ["hypertensive", "high blood pressure", "elevated blood pressure", "raised blood pressure"], lay: ["high bp", "blood pressure too high", "blood pressure is too high"], sources: MC },
  { canonical: "blood pressure", heading: "Blood Pressure", synonyms: ["systolic", "diastolic"], lay: ["bp machine"], sources: MC },
  { canonical: "myocardial infarction", heading: "Myocardial Infarction", synonyms: ["myocardial infarct", "acute myocardial infarction", "stemi", "nstemi"], lay: ["heart attack", "heart attacks"], sources: MC },
  { canonical: "heart failure", heading: "Heart Failure", synonyms: ["cardiac failure", "congestive heart failure"], lay: ["weak heart", "failing heart", "enlarged heart", "worn out heart", "worn-out heart", "weak heart muscle", "heart not pumping properly", "tired heart"], sources: MC },
  { canonical: "atrial fibrillation", heading: "Atrial Fibrillation", synonyms: ["af", "afib"], lay: ["irregular heartbeat", "irregular beat", "irregular heart beat", "heart flutter", "fluttering heartbeat", "fluttering heart", "heart fluttering", "quivering heart", "irregular pulse"], sources: MC },
  { canonical: "stroke", heading: "Stroke", synonyms: ["strokes", "cerebrovascular accident", "cerebral infarction", "ischemic stroke", "ischaemic stroke", "haemorrhagic stroke", "hemorrhagic stroke"], lay: ["brain attack", "brain bleed", "brain clot", "brain clots"], sources: MC },
  { canonical: "thrombosis", heading: "Thrombosis", synonyms: ["thrombus", "thrombotic"], lay: ["blood clot", "blood clots", "clot", "clots"], members: ["venous thromboembolism", "deep vein thrombosis", "pulmonary embolism", "thromboembolism"], sources: MC },
  { canonical: "anticoagulants", heading: "Anticoagulants", synonyms: ["anticoagulant", "anticoagulation", "antithrombotic"], lay: ["blood thinner", "blood thinners", "blood-thinning", "blood thinning", "blood thinning pills", "blood thinning tablets", "blood thinning medication"], members: ["heparin", "low-molecular-weight heparin", "enoxaparin", "warfarin", "dabigatran", "rivaroxaban", "apixaban"], sources: MA },
  { canonical: "dementia", heading: "Dementia", synonyms: ["major neurocognitive disorder", "dementias", "demented"], lay: ["memory loss", "senility", "losing their memory", "going senile", "losing my memory", "losing his memory", "losing her memory"], members: ["alzheimer", "alzheimer's", "alzheimer's disease", "alzheimer disease", "vascular dementia", "lewy body dementia", "frontotemporal dementia"], sources: MC },
  { canonical: "cognitive dysfunction", heading: "Cognitive Dysfunction", synonyms: ["cognitive decline", "cognitive impairment", "cognitive deficits"], lay: ["memory problems", "brain fog", "getting forgetful"], members: ["mild cognitive impairment"], sources: MC },
  { canonical: "depression", heading: "Depression", synonyms: ["depressive disorder", "major depression", "major depressive disorder", "depressive symptoms", "depressed"], lay: ["low mood", "feeling low", "feeling down", "feeling blue", "feeling depressed"], sources: MC },
  { canonical: "bipolar disorder", heading: "Bipolar Disorder", synonyms: ["bipolar", "mania", "manic", "hypomania", "hypomanic", "bipolar spectrum"], lay: ["manic depression", "mood swings"], sources: MC },
  { canonical: "schizophrenia", heading: "Schizophrenia", synonyms: ["schizophrenic", "schizoaffective"], lay: ["hearing voices"], sources: MC },
  { canonical: "suicide", heading: "Suicide", synonyms: ["suicidal", "suicides"], lay: ["taking their own lives", "taking their own life", "killing themselves", "took their own life"], sources: MC },
  { canonical: "obesity", heading: "Obesity", synonyms: ["obese", "overweight", "adiposity"], lay: ["chubby", "too heavy", "very overweight", "plump"], members: ["morbid obesity", "severe obesity", "morbidly obese", "severely obese"], sources: MC },
  { canonical: "body weight", heading: "Body Weight", synonyms: ["body mass index", "bmi", "body size"], lay: ["how heavy", "heaviness"], sources: MC },
  { canonical: "thinness", heading: "Thinness", synonyms: ["underweight"], lay: ["skinny"], sources: MC },
  { canonical: "bariatric surgery", heading: "Bariatric Surgery", synonyms: ["gastric bypass", "sleeve gastrectomy", "gastric banding", "weight loss surgery"], lay: ["stomach stapling", "weight-loss surgery", "gastric band"], sources: MC },
  { canonical: "sleep initiation and maintenance disorders", heading: "Sleep Initiation and Maintenance Disorders", synonyms: ["insomnia", "primary insomnia", "chronic insomnia", "insomnia disorder"], lay: ["trouble sleeping", "sleeplessness", "can't sleep", "cannot sleep", "poor sleep", "sleep problems"], sources: MC },
  { canonical: "sleep latency", heading: "Sleep Latency", synonyms: ["sleep onset latency", "sleep-onset latency", "time to sleep onset"], lay: ["fall asleep", "falling asleep", "get to sleep", "getting to sleep", "sleep faster", "time to fall asleep"], sources: MC },
  { canonical: "sleep apnea", heading: "Sleep Apnea, Obstructive", synonyms: ["obstructive sleep apnea", "obstructive sleep apnoea", "sleep apnoea", "osa", "sleep-disordered breathing"], lay: ["stop breathing at night", "stops breathing at night", "stopping breathing at night", "stops breathing in his sleep", "stops breathing in her sleep", "stop breathing in my sleep"], sources: MC },
  { canonical: "continuous positive airway pressure", heading: "Continuous Positive Airway Pressure", synonyms: ["cpap", "positive airway pressure", "autocpap", "cpap titration"], lay: ["breathing mask", "snoring mask", "sleep apnea mask", "cpap machine"], sources: MC },
  { canonical: "asthma", heading: "Asthma", synonyms: ["asthmatic", "asthma exacerbation", "acute asthma"], lay: ["wheezy", "wheeze", "asthma attack"], sources: MC },
  { canonical: "pneumonia", heading: "Pneumonia", synonyms: ["pneumonias"], lay: ["chest infection", "chest infections", "lung infection"], members: ["ventilator-associated pneumonia", "community-acquired pneumonia"], sources: MC },
  { canonical: "mechanical ventilation", heading: "Respiration, Artificial", synonyms: ["ventilated", "mechanically ventilated", "ventilator", "artificial respiration"], lay: ["breathing machine", "breathing tube", "life support"], sources: MC },
  { canonical: "fever", heading: "Fever", synonyms: ["febrile", "pyrexia"], lay: ["high temperature"], sources: MC },
  { canonical: "neutropenia", heading: "Neutropenia", synonyms: ["febrile neutropenia", "neutropenic", "low neutrophil count"], lay: ["low white count", "low white blood cell count", "low white cells"], sources: MC },
  { canonical: "infection", heading: "Infections", synonyms: ["infections", "infectious"], lay: ["germ", "germs"], sources: MC },
  { canonical: "methicillin-resistant staphylococcus aureus", heading: "Methicillin-Resistant Staphylococcus aureus", synonyms: ["mrsa", "methicillin-resistant staphylococcus aureus"], lay: ["superbug", "superbugs", "hospital superbug"], sources: MC },
  { canonical: "streptococcus agalactiae", heading: "Streptococcus agalactiae", synonyms: ["group b streptococcus", "group b streptococcal", "gbs colonization"], lay: ["strep b", "group b strep"], sources: MC },
  { canonical: "hiv", heading: "HIV Infections", synonyms: ["hiv infection", "hiv-infected", "hiv-positive", "aids", "human immunodeficiency virus"], lay: ["aids virus"], sources: MC },
  { canonical: "hepatitis c", heading: "Hepatitis C", synonyms: ["hcv", "hepatitis c virus", "hcv infection"], lay: ["hep c"], sources: MC },
  { canonical: "hepatitis b", heading: "Hepatitis B", synonyms: ["hbv", "hepatitis b virus"], lay: ["hep b"], sources: MC },
  { canonical: "influenza", heading: "Influenza, Human", synonyms: ["grippe"], lay: ["flu"], sources: MC },
  // The jab is the vaccine, not the disease: "Does the flu jab prevent flu?" asks of the vaccine.
  { canonical: "influenza vaccines", heading: "Influenza Vaccines", synonyms: ["influenza vaccine", "influenza vaccination", "influenza vaccinations", "influenza immunization", "influenza immunisation", "flu vaccine", "flu vaccines", "flu vaccination"], lay: ["flu jab", "flu jabs", "flu shot", "flu shots"], sources: MC },
  { canonical: "substance abuse, intravenous", heading: "Substance Abuse, Intravenous", synonyms: ["injection drug use", "injecting drug use", "intravenous drug use", "people who inject drugs"], lay: ["shooting up", "injecting drugs"], sources: MC },
  { canonical: "opioids", heading: "Analgesics, Opioid", synonyms: ["opioid", "opiate", "opiates", "opioid analgesics"], lay: ["strong painkiller", "strong painkillers"], members: ["fentanyl", "morphine", "oxycodone", "heroin", "methadone", "buprenorphine", "tramadol", "codeine"], sources: MA },
  { canonical: "analgesics", heading: "Analgesics", synonyms: ["analgesic", "analgesia"], lay: ["painkiller", "painkillers", "pain killers", "pain pills"], sources: MC },
  { canonical: "neoplasms", heading: "Neoplasms", synonyms: ["cancer", "cancers", "tumor", "tumors", "tumour", "tumours", "carcinoma", "malignancy", "malignancies", "neoplasm"], lay: ["malignant growth"], sources: MC },
  { canonical: "neoplasm metastasis", heading: "Neoplasm Metastasis", synonyms: ["metastasis", "metastases", "metastatic", "metastasized"], lay: ["has spread", "had spread", "cancer spread", "spread to"], sources: MC },
  { canonical: "melanoma", heading: "Melanoma", synonyms: ["melanomas", "malignant melanoma", "cutaneous melanoma"], lay: ["mole cancer", "cancerous mole", "cancerous moles", "malignant mole", "changing mole"], sources: MC },
  { canonical: "lung neoplasms", heading: "Lung Neoplasms", synonyms: ["lung cancer", "non-small cell lung cancer", "nsclc", "small cell lung cancer", "bronchogenic carcinoma"], sources: MC },
  { canonical: "breast neoplasms", heading: "Breast Neoplasms", synonyms: ["breast cancer", "breast carcinoma", "breast tumor", "breast tumour"], sources: MC },
  { canonical: "colorectal neoplasms", heading: "Colorectal Neoplasms", synonyms: ["colorectal cancer", "colon cancer", "rectal cancer", "rectal carcinoma", "colorectal carcinoma"], lay: ["bowel cancer"], sources: MC },
  { canonical: "endometrial neoplasms", heading: "Endometrial Neoplasms", synonyms: ["endometrial cancer", "endometrial carcinoma", "uterine cancer"], lay: ["womb cancer", "cancer of the womb"], sources: MC },
  { canonical: "thyroid neoplasms", heading: "Thyroid Neoplasms", synonyms: ["thyroid cancer", "thyroid carcinoma", "papillary thyroid carcinoma", "differentiated thyroid cancer"], sources: MC },
  { canonical: "prostatic neoplasms", heading: "Prostatic Neoplasms", synonyms: ["prostate cancer", "prostate carcinoma"], sources: MC },
  { canonical: "mammography", heading: "Mammography", synonyms: ["mammogram", "mammograms", "mammographic", "breast cancer screening", "breast screening"], lay: ["breast x-ray", "breast x-rays", "mammo"], sources: MC },
  { canonical: "scoliosis", heading: "Scoliosis", synonyms: ["idiopathic scoliosis", "adolescent idiopathic scoliosis"], lay: ["curved spine", "sideways curve of the spine", "sideways curve in the spine", "spine curvature", "crooked spine", "s-shaped spine"], sources: MC },
  { canonical: "intervertebral disc displacement", heading: "Intervertebral Disc Displacement", synonyms: ["disc herniation", "herniated disc", "disk herniation", "herniated disk", "disc prolapse"], lay: ["slipped disc", "slipped disk", "pinched nerve", "trapped nerve", "bulging disc", "bulging disk", "prolapsed disc", "ruptured disc"], sources: MC },
  { canonical: "menopause", heading: "Menopause", synonyms: ["menopausal", "perimenopause", "perimenopausal", "postmenopausal", "climacteric"], lay: ["the change", "change of life"], sources: MC },
  { canonical: "retinopathy of prematurity", heading: "Retinopathy of Prematurity", synonyms: ["rop"], sources: MC },
  { canonical: "infant, small for gestational age", heading: "Infant, Small for Gestational Age", synonyms: ["small for gestational age", "sga"], lay: ["small baby"], sources: MC },
  { canonical: "anorectal malformations", heading: "Anorectal Malformations", synonyms: ["anorectal malformation", "imperforate anus", "anal atresia"], sources: MC },
  { canonical: "urinary incontinence", heading: "Urinary Incontinence", synonyms: ["incontinence", "stress incontinence"], lay: ["leaking urine", "bladder leaks", "weak bladder", "leaky bladder", "bladder weakness", "wetting myself", "wetting herself", "wetting himself", "bladder control problems", "loss of bladder control", "poor bladder control", "leaking when i cough", "leaking when i sneeze", "leaking when i laugh", "bladder leakage"], sources: MC },
  { canonical: "pressure ulcer", heading: "Pressure Ulcer", synonyms: ["pressure ulcers", "decubitus ulcer", "pressure sore", "pressure sores", "pressure injury"], lay: ["bedsore", "bedsores", "bed sores"], sources: MC },
  { canonical: "accidental falls", heading: "Accidental Falls", synonyms: ["falls", "fallers"], lay: ["tripping", "taking a tumble", "falling over", "fell over", "fall over", "falls over", "had a fall", "having a fall", "trips and falls", "slips and falls"], sources: MC },
  { canonical: "osteoporosis", heading: "Osteoporosis", synonyms: ["osteoporotic"], lay: ["brittle bones", "thin bones", "weak bones", "bone thinning", "thinning bones"], sources: MC },
  { canonical: "osteoarthritis", heading: "Osteoarthritis", synonyms: ["osteoarthritic", "degenerative joint disease", "knee osteoarthritis"], lay: ["wear and tear arthritis", "worn joints", "worn out joints", "worn-out joints", "joint wear and tear", "wear and tear in the joints"], sources: MC },
  { canonical: "pain", heading: "Pain", synonyms: ["painful", "ache", "aching"], lay: ["hurts", "hurting"], sources: MC },
  { canonical: "chronic kidney disease", heading: "Renal Insufficiency, Chronic", synonyms: ["chronic renal failure", "renal insufficiency", "end-stage renal disease", "ckd", "kidney failure", "renal failure"], lay: ["kidney disease", "failing kidneys"], sources: MC },
  { canonical: "heart arrest", heading: "Heart Arrest", synonyms: ["cardiac arrest", "cardiopulmonary arrest", "sudden cardiac death"], lay: ["heart stopped", "heart stopping"], sources: MC },
  { canonical: "hemorrhage", heading: "Hemorrhage", synonyms: ["haemorrhage", "bleeding", "hemorrhagic", "haemorrhagic"], lay: ["bleed", "bleeds"], sources: MC },
  { canonical: "smoking", heading: "Smoking", synonyms: ["smokers", "smoker", "tobacco", "cigarette", "cigarettes", "tobacco use"], lay: ["smokes"], sources: MC },
  { canonical: "alcohol drinking", heading: "Alcohol Drinking", synonyms: ["alcohol", "alcohol consumption", "alcohol use", "alcohol intake"], lay: ["booze", "drinks", "cutting down on drinking", "cutting down on alcohol", "drinking less alcohol", "giving up alcohol", "giving up drinking", "units of alcohol", "alcohol units"], sources: MC },
  { canonical: "drug overdose", heading: "Drug Overdose", synonyms: ["overdose", "overdoses"], lay: ["od", "ods"], sources: MC },
  { canonical: "wounds and injuries", heading: "Wounds and Injuries", synonyms: ["injury", "injuries"], lay: ["hurt"], sources: MC },
  { canonical: "quality of life", heading: "Quality of Life", synonyms: ["health-related quality of life", "hrqol", "qol", "well-being", "wellbeing"], lay: ["day to day life", "life quality"], sources: MC },
  { canonical: "exercise", heading: "Exercise", synonyms: ["physical activity", "physical exercise", "exercise training", "physical training", "workout"], lay: ["working out", "staying active", "keeping active", "keeping fit"], members: ["aerobic exercise", "endurance exercise", "resistance training", "strength training", "wheel running", "voluntary running", "treadmill running", "treadmill exercise", "jogging", "brisk walking", "tai chi"], sources: MC },
  { canonical: "cardiorespiratory fitness", heading: "Cardiorespiratory Fitness", synonyms: ["aerobic fitness", "aerobic capacity", "vo2max", "maximal oxygen uptake"], lay: ["fitness level", "being fit"], sources: MC },
  { canonical: "muscle strength", heading: "Muscle Strength", synonyms: ["muscular strength", "grip strength", "handgrip strength", "knee extensor strength", "leg strength"], lay: ["muscle weakness", "weak muscles", "weaker muscles", "strong muscles", "stronger muscles"], sources: MC },
  { canonical: "muscle weakness", heading: "Muscle Weakness", synonyms: ["muscular weakness", "loss of muscle strength", "reduced muscle strength"], lay: ["weak muscles", "weaker muscles"], sources: MC },
  { canonical: "myalgia", heading: "Myalgia", synonyms: ["muscle pain", "muscular pain", "muscle symptoms", "statin-associated muscle symptoms", "myalgias"], lay: ["muscle aches", "muscle ache", "aching muscles", "sore muscles", "muscle soreness"], sources: MC },
  { canonical: "loneliness", heading: "Loneliness", synonyms: ["lonely", "lonesome", "perceived social isolation"], lay: ["feeling lonely", "feeling alone", "being lonely"], sources: MC },
  { canonical: "social isolation", heading: "Social Isolation", synonyms: ["socially isolated", "social disconnection", "social contact"], lay: ["cut off from people", "seeing few people", "living alone"], sources: MC },
  { canonical: "steam bath", heading: "Steam Bath", synonyms: ["sauna", "saunas", "sauna bathing", "sauna use", "finnish sauna", "infrared sauna", "infrared saunas"], lay: ["sauna sessions", "steam room", "steam rooms"], sources: MC },
  { canonical: "cold temperature", heading: "Cold Temperature", synonyms: ["cold exposure", "cold acclimation", "mild cold exposure", "cold-water immersion", "cold water immersion", "winter swimming", "cold-water swimming", "cold water swimming", "ice-water immersion"], lay: ["spending time in the cold", "being in the cold", "cold showers", "cold swims", "ice bath", "ice baths", "cold plunge", "cold plunges", "cold water therapy", "cold dips"], sources: MC },
  { canonical: "resistance training", heading: "Resistance Training", synonyms: ["strength training", "resistance exercise", "weight training", "weightlifting", "weight lifting", "progressive resistance training", "progressive resistance exercise"], lay: ["lifting weights", "heavy weightlifting", "pumping iron", "weights", "strength exercises", "strengthening exercises", "muscle-strengthening exercises", "muscle strengthening exercises", "muscle-strengthening activities", "resistance bands", "resistance band exercises", "bodyweight exercises"], sources: MC },
  { canonical: "bone density", heading: "Bone Density", synonyms: ["bone mineral density", "bone mass", "bone loss"], lay: ["bone thinning", "thinning bones", "bone strength"], sources: MC },
  { canonical: "carotid arteries", heading: "Carotid Arteries", synonyms: ["carotid artery", "carotid"], lay: ["neck arteries", "neck artery", "arteries in the neck", "arteries of the neck"], sources: MC },
  { canonical: "carotid intima-media thickness", heading: "Carotid Intima-Media Thickness", synonyms: ["intima-media thickness", "carotid imt", "cimt"], lay: ["thickening of the neck arteries", "thickening of the arteries in the neck", "neck artery thickening"], sources: MC },
  // Carotid plaque and the intima-media thickness are how studies measure carotid atherosclerosis
  // (MeSH files it under Carotid Artery Diseases): members, one way.
  { canonical: "carotid atherosclerosis", heading: "Carotid Artery Diseases", synonyms: ["carotid artery disease", "carotid artery diseases", "carotid arteriosclerosis"], members: ["carotid plaque", "carotid plaques", "carotid intima-media thickness", "intima-media thickness", "carotid imt"], sources: M },
  { canonical: "psychotherapy", heading: "Psychotherapy", synonyms: ["psychological treatment", "psychological treatments", "psychological therapy", "psychological therapies", "psychotherapeutic treatment"], lay: ["talking therapy", "talking therapies", "talk therapy"], sources: MC },
  { canonical: "radiotherapy", heading: "Radiotherapy", synonyms: ["radiation therapy", "radiation treatment", "radiation oncology treatment"], lay: ["radiation treatments", "having radiation"], sources: MC },
  { canonical: "tobacco smoke pollution", heading: "Tobacco Smoke Pollution", synonyms: ["environmental tobacco smoke", "secondhand smoke", "second-hand smoke", "passive smoking", "involuntary smoking", "ets exposure"], lay: ["passive smokers", "passive smoker", "breathing other people's smoke", "smoke from other people's cigarettes"], sources: MC },
  // MeSH's narrower descriptors of Receptors, Steroid: a study of one answers a question on the class.
  { canonical: "steroid hormone receptors", heading: "Receptors, Steroid", synonyms: ["steroid receptors", "steroid receptor", "steroid hormone receptor"], members: ["estrogen receptors", "estrogen receptor", "oestrogen receptors", "oestrogen receptor", "progesterone receptors", "progesterone receptor", "androgen receptors", "androgen receptor", "glucocorticoid receptors", "glucocorticoid receptor", "mineralocorticoid receptors", "mineralocorticoid receptor"], sources: M },
  { canonical: "hormone replacement therapy", heading: "Hormone Replacement Therapy", synonyms: ["hormone therapy", "menopausal hormone therapy", "estrogen replacement therapy", "oestrogen replacement therapy", "estrogen therapy", "oestrogen therapy", "hrt"], lay: ["hormone replacement", "hormone pills", "hormones after the menopause"], members: ["estradiol", "oestradiol", "conjugated estrogens", "conjugated oestrogens"], sources: MA },
  { canonical: "aerobic exercise", synonyms: ["endurance exercise", "endurance training", "aerobic training", "cardiovascular exercise"], lay: ["cardio"], members: ["jogging", "brisk walking", "wheel running", "voluntary running", "treadmill running", "treadmill exercise", "endurance running"], sources: MC },
  { canonical: "fatigue", heading: "Fatigue", synonyms: ["tiredness", "exhaustion", "fatigability"], lay: ["tired", "worn out", "tired all the time", "always tired", "no energy", "lack of energy"], sources: MC },

  // Procedures, tests and care, lay ↔ technical
  { canonical: "surgical procedures, operative", heading: "Surgical Procedures, Operative", synonyms: ["surgery", "surgical", "operative", "operation", "operations", "surgeon", "surgeons"], lay: ["operated on", "having an operation", "op", "ops"], sources: MC },
  { canonical: "operating rooms", heading: "Operating Rooms", synonyms: ["operating room", "operating theatre", "operating theater"], lay: ["operating-theatre", "theatre"], sources: MC },
  { canonical: "transplantation", heading: "Transplantation", synonyms: ["transplant", "transplants", "transplanted", "transplantations"], lay: ["donor organ", "new organ", "organ donation"], sources: MC },
  { canonical: "living donors", heading: "Living Donors", synonyms: ["living donor", "living-related donor", "living donor liver transplantation"], sources: MC },
  { canonical: "heart-assist devices", heading: "Heart-Assist Devices", synonyms: ["ventricular assist device", "left ventricular assist device", "lvad", "vad", "mechanical circulatory support"], lay: ["heart pump", "artificial heart pump"], sources: MC },
  { canonical: "pacemaker, artificial", heading: "Pacemaker, Artificial", synonyms: ["pacemaker", "pacemakers", "pacing"], sources: MC },
  { canonical: "heart valve prosthesis", heading: "Heart Valve Prosthesis Implantation", synonyms: ["valve replacement", "mitral valve replacement", "prosthetic valve", "valve prosthesis"], lay: ["artificial valve", "new valve"], sources: MC },
  { canonical: "mitral valve insufficiency", heading: "Mitral Valve Insufficiency", synonyms: ["mitral regurgitation", "mitral valve regurgitation", "mitral insufficiency"], lay: ["leaky valve", "valve leak", "leaking valve"], sources: MC },
  { canonical: "catheter ablation", heading: "Catheter Ablation", synonyms: ["ablation", "radiofrequency ablation", "pulmonary vein isolation"], sources: MC },
  { canonical: "injections", heading: "Injections", synonyms: ["injection", "injected", "intramuscular injection"], lay: ["jab", "jabs", "shot", "shots"], sources: MC },
  { canonical: "herpes zoster vaccine", heading: "Herpes Zoster Vaccine", synonyms: ["zoster vaccine", "zoster vaccination", "shingles vaccine", "shingles vaccination"], lay: ["shingles jab", "shingles jabs", "shingles shot", "shingles shots"], members: ["recombinant zoster vaccine", "live zoster vaccine", "zoster vaccine live"], sources: MC },
  { canonical: "vaccination", heading: "Vaccination", synonyms: ["vaccine", "vaccines", "immunization", "immunisation", "vaccinated"], lay: ["jab", "jabs", "getting vaccinated", "having the jab"], sources: MC },
  { canonical: "adrenal cortex hormones", heading: "Adrenal Cortex Hormones", synonyms: ["corticosteroid", "corticosteroids", "glucocorticoid", "glucocorticoids", "steroid", "steroids"], lay: ["steroid tablets", "steroid jabs"], members: ["prednisone", "prednisolone", "dexamethasone", "methylprednisolone", "hydrocortisone", "triamcinolone", "betamethasone", "cortisone", "deflazacort", "fludrocortisone", "budesonide", "fluticasone", "beclomethasone", "beclometasone", "mometasone", "ciclesonide", "flunisolide", "clobetasol"], sources: MA },
  { canonical: "anti-bacterial agents", heading: "Anti-Bacterial Agents", synonyms: ["antibiotic", "antibiotics", "antimicrobial", "antimicrobials", "antibiotic therapy"], members: ["vancomycin", "amoxicillin", "penicillin", "ceftriaxone", "ciprofloxacin", "doxycycline", "azithromycin", "linezolid"], sources: MA },
  { canonical: "hydroxymethylglutaryl-coa reductase inhibitors", heading: "Hydroxymethylglutaryl-CoA Reductase Inhibitors", synonyms: ["statins", "statin", "hmg-coa reductase inhibitors", "hmg-coa reductase inhibitor", "statin therapy"], lay: ["cholesterol pills", "cholesterol tablets", "cholesterol-lowering drugs", "cholesterol medication", "cholesterol medicine", "cholesterol meds", "cholesterol-lowering pills", "cholesterol-lowering medication", "cholesterol lowering tablets"], members: ["atorvastatin", "simvastatin", "rosuvastatin", "pravastatin", "lovastatin", "fluvastatin", "pitavastatin"], sources: MA },
  { canonical: "antihypertensive agents", heading: "Antihypertensive Agents", synonyms: ["antihypertensive", "antihypertensives", "blood pressure lowering", "blood pressure-lowering drugs"], lay: ["blood pressure pills", "blood pressure tablets", "blood pressure medication", "blood pressure medicine", "blood pressure medicines", "blood pressure meds", "blood pressure drugs", "bp pills", "bp tablets", "bp meds", "bp medication"], members: ["ace inhibitors", "angiotensin receptor blockers", "beta blockers", "calcium channel blockers", "diuretics", "thiazide"], sources: MA },
  { canonical: "hypoglycemic agents", heading: "Hypoglycemic Agents", synonyms: ["antidiabetic drugs", "glucose-lowering drugs", "antidiabetic"], lay: ["diabetes medicines", "sugar-lowering drugs"], members: ["insulin", "metformin", "sulfonylurea", "sulfonylureas", "glp-1 receptor agonists", "sglt2 inhibitors", "dpp-4 inhibitors", "pioglitazone"], sources: MA },
  { canonical: "oral hypoglycemic agents", synonyms: ["oral antidiabetic drugs", "oral antidiabetic agents", "oral hypoglycaemic agents", "oral glucose-lowering drugs"], lay: ["diabetes pills", "diabetes tablets", "sugar pills"], members: ["metformin", "sulfonylurea", "sulfonylureas", "sglt2 inhibitors", "dpp-4 inhibitors", "pioglitazone"], sources: MA },
  // Drug classes common in aging research, with their members (WHO ATC groups; MeSH pharmacologic actions).
  { canonical: "glucagon-like peptide-1 receptor agonists", heading: "Glucagon-Like Peptide-1 Receptor Agonists", synonyms: ["glp-1 receptor agonists", "glp-1 receptor agonist", "glp-1 agonists", "glp-1 agonist", "glp-1 ras", "glp-1 ra", "incretin mimetics"], lay: ["weight-loss jabs", "weight-loss injections", "ozempic-type drugs"], members: ["semaglutide", "liraglutide", "dulaglutide", "exenatide", "lixisenatide", "albiglutide", "tirzepatide", "ozempic", "wegovy", "victoza", "saxenda", "mounjaro"], sources: MA },
  { canonical: "semaglutide", synonyms: ["ozempic", "wegovy", "rybelsus"], sources: MA },
  { canonical: "sodium-glucose transporter 2 inhibitors", heading: "Sodium-Glucose Transporter 2 Inhibitors", synonyms: ["sglt2 inhibitors", "sglt2 inhibitor", "sglt-2 inhibitors", "sglt-2 inhibitor", "gliflozins", "gliflozin"], members: ["canagliflozin", "dapagliflozin", "empagliflozin", "ertugliflozin", "sotagliflozin"], sources: MA },
  { canonical: "dipeptidyl-peptidase iv inhibitors", heading: "Dipeptidyl-Peptidase IV Inhibitors", synonyms: ["dpp-4 inhibitors", "dpp-4 inhibitor", "dpp4 inhibitors", "gliptins", "gliptin"], members: ["sitagliptin", "saxagliptin", "linagliptin", "alogliptin", "vildagliptin"], sources: MA },
  { canonical: "diphosphonates", heading: "Diphosphonates", synonyms: ["bisphosphonates", "bisphosphonate", "diphosphonate"], members: ["alendronate", "alendronic acid", "risedronate", "ibandronate", "zoledronic acid", "zoledronate", "pamidronate", "etidronate"], sources: MA },
  { canonical: "hypnotics and sedatives", heading: "Hypnotics and Sedatives", synonyms: ["hypnotics", "hypnotic drugs", "sedative-hypnotics", "sedative hypnotics", "sedatives"], lay: ["sleeping pills", "sleeping tablets", "sleep medication", "sleep medicines", "sleeping medication"], members: ["zolpidem", "zopiclone", "eszopiclone", "zaleplon", "temazepam", "lorazepam", "diazepam", "benzodiazepines", "z-drugs"], sources: MA },
  { canonical: "anti-inflammatory agents, non-steroidal", heading: "Anti-Inflammatory Agents, Non-Steroidal", synonyms: ["nsaids", "nsaid", "non-steroidal anti-inflammatory drugs", "nonsteroidal anti-inflammatory drugs", "non-steroidal anti-inflammatory drug", "nonsteroidal anti-inflammatory drug"], lay: ["anti-inflammatory painkillers"], members: ["ibuprofen", "naproxen", "diclofenac", "celecoxib", "indomethacin", "ketorolac", "meloxicam"], sources: MA },
  { canonical: "proton pump inhibitors", heading: "Proton Pump Inhibitors", synonyms: ["proton pump inhibitor", "proton-pump inhibitors", "proton-pump inhibitor"], lay: ["acid-reducing pills", "stomach acid pills"], members: ["omeprazole", "esomeprazole", "lansoprazole", "pantoprazole", "rabeprazole"], sources: MA },
  { canonical: "antidepressive agents", heading: "Antidepressive Agents", synonyms: ["antidepressant", "antidepressants", "antidepressant medication"], lay: ["depression pills", "happy pills"], members: ["ssri", "ssris", "selective serotonin reuptake inhibitors", "sertraline", "fluoxetine", "citalopram", "escitalopram", "paroxetine", "venlafaxine", "duloxetine", "mirtazapine", "amitriptyline"], sources: MA },
  { canonical: "antipsychotic agents", heading: "Antipsychotic Agents", synonyms: ["antipsychotic", "antipsychotics", "neuroleptic", "neuroleptics"], members: ["aripiprazole", "abilify", "olanzapine", "risperidone", "quetiapine", "haloperidol", "clozapine"], sources: MA },
  { canonical: "aripiprazole", heading: "Aripiprazole", synonyms: ["abilify"], sources: MA },
  { canonical: "heparin", heading: "Heparin", synonyms: ["unfractionated heparin", "nebulized heparin", "nebulised heparin", "inhaled heparin"], sources: MA },
  { canonical: "vancomycin", heading: "Vancomycin", synonyms: ["vancomycin trough", "vancomycin levels"], sources: MA },
  { canonical: "fentanyl", heading: "Fentanyl", synonyms: ["fentanyl-laced", "illicitly manufactured fentanyl"], sources: MA },
  { canonical: "protein kinase inhibitors", heading: "Protein Kinase Inhibitors", synonyms: ["kinase inhibitor", "kinase inhibitors", "tyrosine kinase inhibitor", "tyrosine kinase inhibitors", "tki", "tkis"], members: ["sorafenib", "lenvatinib", "vandetanib", "cabozantinib", "imatinib", "erlotinib", "gefitinib", "sunitinib"], sources: MA },
  { canonical: "iodine radioisotopes", heading: "Iodine Radioisotopes", synonyms: ["radioactive iodine", "radioiodine", "i-131", "131i", "radioiodine-refractory", "radioiodine therapy"], lay: ["radioactive iodine drink", "radioactive iodine capsule", "radioactive iodine pill", "radioactive drink"], sources: MC },
  { canonical: "drug therapy", heading: "Drug Therapy", synonyms: ["pharmacotherapy", "drug treatment", "medication", "medications"], lay: ["pills", "tablets"], sources: MC },
  { canonical: "antineoplastic agents", heading: "Antineoplastic Agents", synonyms: ["chemotherapy", "chemotherapeutic", "anticancer drugs", "cytotoxic"], lay: ["chemo", "cancer drugs"], sources: MC },
  { canonical: "prescriptions", heading: "Drug Prescriptions", synonyms: ["prescription", "prescribing", "prescribed", "prescribers", "prescription drugs"], lay: ["scripts", "script"], sources: MC },
  { canonical: "drugs, generic", heading: "Drugs, Generic", synonyms: ["generic drugs", "generic", "generics", "brand-name drugs", "branded drugs", "formulary"], sources: MC },
  { canonical: "costs and cost analysis", heading: "Costs and Cost Analysis", synonyms: ["cost", "costs", "expenditure", "expenditures"], lay: ["pricey", "expensive", "cheaper", "cheap", "money"], sources: MC },
  // Everyday names of body parts and conditions (MeSH headings with the consumer names CHV lists for
  // them), 2026-11-27, fourth session: each is how people name the part in any question, not one item's words.
  { canonical: "breast", heading: "Breast", synonyms: ["breasts", "mammary"], lay: ["boob", "boobs", "bust"], sources: MC },
  { canonical: "gallbladder", heading: "Gallbladder", synonyms: ["gall bladder", "biliary"], lay: ["bile sac", "gall sac"], sources: MC },
  { canonical: "appendicitis", heading: "Appendicitis", synonyms: ["appendiceal inflammation"], lay: ["inflamed appendix", "grumbling appendix", "burst appendix"], sources: MC },
  { canonical: "seizures", heading: "Seizures", synonyms: ["seizure", "convulsions", "convulsion", "epileptic seizures"], lay: ["epileptic fits", "having fits", "fits and seizures"], sources: MC },
  { canonical: "stress disorders, post-traumatic", heading: "Stress Disorders, Post-Traumatic", synonyms: ["post-traumatic stress disorder", "posttraumatic stress disorder", "ptsd", "combat-related ptsd"], lay: ["shell shock", "combat stress", "war trauma"], sources: MC },
  { canonical: "blood platelets", heading: "Blood Platelets", synonyms: ["platelet", "platelets", "thrombocytes", "mean platelet volume"], lay: ["clotting cells", "platelet count"], sources: MC },
  { canonical: "cryptorchidism", heading: "Cryptorchidism", synonyms: ["undescended testis", "undescended testes", "orchidopexy", "orchiopexy"], lay: ["undescended testicle", "undescended testicles", "testicle that has not dropped"], sources: MC },
  { canonical: "testis", heading: "Testis", synonyms: ["testes", "testicular"], lay: ["testicle", "testicles"], sources: MC },
  { canonical: "splenectomy", heading: "Splenectomy", synonyms: ["splenectomies"], lay: ["spleen removal", "spleen removed", "spleen taken out"], sources: MC },
  { canonical: "pelvic inflammatory disease", heading: "Pelvic Inflammatory Disease", synonyms: ["pid", "salpingitis", "tubo-ovarian abscess"], lay: ["pelvic infection", "womb infection"], sources: MC },
  { canonical: "keratomileusis, laser in situ", heading: "Keratomileusis, Laser In Situ", synonyms: ["lasik", "photorefractive keratectomy", "prk", "refractive surgery", "lasek"], lay: ["laser eye surgery", "laser eye operation", "laser eye ops"], sources: MC },
  { canonical: "cornea", heading: "Cornea", synonyms: ["corneal"], lay: ["front of the eye", "clear front of the eye"], sources: MC },
  { canonical: "magnetic resonance imaging", heading: "Magnetic Resonance Imaging", synonyms: ["mri", "magnetic resonance", "mr imaging"], lay: ["mri scan", "tunnel scanner", "magnet scan"], sources: MC },
  // A trial's inactive comparison; "dummy" is how British patients say it ("a dummy pill").
  { canonical: "placebo", heading: "Placebos", synonyms: ["placebos", "placebo-controlled", "sham"], lay: ["dummy", "dummy pill", "dummy pills", "dummy tablet", "sugar pill", "sugar pills"], sources: MC },
  { canonical: "high-intensity interval training", heading: "High-Intensity Interval Training", synonyms: ["hiit", "interval training", "high-intensity intermittent exercise", "sprint interval training"], lay: ["short bursts of hard exercise", "bursts of hard exercise", "interval workouts"], sources: MC },
  { canonical: "moderate-intensity continuous training", synonyms: ["mict", "continuous moderate-intensity exercise", "moderate continuous training", "steady-state exercise"], lay: ["steady exercise", "steady-paced exercise", "steady workouts"], sources: ["chv"] },
  { canonical: "intravenous administration", heading: "Administration, Intravenous", synonyms: ["intravenous", "iv", "infusion", "infusions"], lay: ["drip", "the drip"], sources: MC },
  { canonical: "enteral nutrition", heading: "Enteral Nutrition", synonyms: ["tube feeding", "feeding tube", "percutaneous endoscopic gastrostomy", "peg", "gastrostomy"], sources: MC },
  { canonical: "early diagnosis", heading: "Early Diagnosis", synonyms: ["early detection"], lay: ["catching it early", "caught early"], sources: MC },
  { canonical: "neoplasm recurrence, local", heading: "Neoplasm Recurrence, Local", synonyms: ["recurrence", "recurrent", "relapse", "relapsed"], lay: ["coming back", "comes back", "came back"], sources: MC },
  { canonical: "diagnostic imaging", heading: "Diagnostic Imaging", synonyms: ["imaging"], lay: ["scan", "scans", "scanning", "body scan"], members: ["computed tomography", "ct", "magnetic resonance imaging", "mri", "ultrasound"], sources: MC },
  { canonical: "radiography", heading: "Radiography", synonyms: ["radiograph", "radiographs", "radiographic", "plain radiography"], lay: ["x-ray", "x-rays", "xray"], sources: MC },
  { canonical: "positron-emission tomography", heading: "Positron-Emission Tomography", synonyms: ["pet", "pet/ct", "pet-ct", "fdg-pet", "fdg", "fluorodeoxyglucose", "18f-fdg"], sources: MC },
  { canonical: "radionuclide imaging", heading: "Radionuclide Imaging", synonyms: ["scintigraphy", "bone scintigraphy", "bone scan", "nuclear medicine"], sources: MC },
  { canonical: "ultrasonography", heading: "Ultrasonography", synonyms: ["ultrasound", "ultrasound-guided", "sonography", "sonographic", "ultrasound guidance"], lay: ["ultrasound scan"], members: ["echocardiography"], sources: MC },
  { canonical: "biomarkers", heading: "Biomarkers", synonyms: ["biomarker", "biological markers"], sources: MC },
  { canonical: "prognosis", heading: "Prognosis", synonyms: ["prognostic"], sources: MC },
  { canonical: "outpatients", heading: "Outpatients", synonyms: ["outpatient", "ambulatory"], lay: ["looked after at home", "cared for at home"], sources: MC },
  { canonical: "reminder systems", heading: "Reminder Systems", synonyms: ["reminder", "reminders"], sources: MC },
  { canonical: "resuscitation", heading: "Resuscitation", synonyms: ["cardiopulmonary resuscitation", "cpr"], lay: ["reviving", "bringing back"], sources: MC },
  { canonical: "respiratory insufficiency", heading: "Respiratory Insufficiency", synonyms: ["respiratory failure"], lay: ["can't breathe", "cannot breathe", "stop breathing"], sources: MC },

  // Everyday words across medicine, organ system by organ system (CHV, NHS and MedlinePlus plain
  // names; MeSH descriptors and entry terms). Lay forms read the question only.
  // Body parts
  { canonical: "larynx", heading: "Larynx", synonyms: ["laryngeal"], lay: ["voice box"], sources: MC },
  { canonical: "trachea", heading: "Trachea", synonyms: ["tracheal"], lay: ["windpipe", "wind pipe"], sources: MC },
  { canonical: "mitral valve", heading: "Mitral Valve", synonyms: ["mitral", "bicuspid valve", "left atrioventricular valve"], lay: ["inflow valve", "heart inflow valve", "valve between the left chambers"], sources: MC },
  { canonical: "retina", heading: "Retina", synonyms: ["retinal"], lay: ["back of the eye"], sources: MC },
  { canonical: "lens, crystalline", heading: "Lens, Crystalline", synonyms: ["crystalline lens"], lay: ["eye lens", "eye's lens"], sources: MC },
  { canonical: "kidney glomerulus", heading: "Kidney Glomerulus", synonyms: ["glomerulus", "glomeruli", "glomerular"], lay: ["kidney filters", "kidney filter", "filters in the kidneys", "filtering units of the kidney"], sources: MC },
  { canonical: "urinary bladder", heading: "Urinary Bladder", synonyms: ["bladder", "vesical"], lay: ["waterworks"], sources: MC },
  { canonical: "cervix uteri", heading: "Cervix Uteri", synonyms: ["cervix", "uterine cervix"], lay: ["neck of the womb"], sources: MC },
  { canonical: "patella", heading: "Patella", synonyms: ["patellar", "patellae"], lay: ["kneecap", "kneecaps", "knee cap", "knee caps"], sources: MC },
  { canonical: "clavicle", heading: "Clavicle", synonyms: ["clavicles", "clavicular"], lay: ["collarbone", "collarbones", "collar bone"], sources: MC },
  { canonical: "tibia", heading: "Tibia", synonyms: ["tibial", "tibiae"], lay: ["shin bone", "shinbone", "shin"], sources: MC },
  // "femoral" is left out: a femoral artery or vein is not the bone.
  { canonical: "femur", heading: "Femur", synonyms: ["femora", "femoral shaft", "femoral bone"], lay: ["thigh bone", "thighbone"], sources: MC },

  // Heart and circulation
  { canonical: "ischemic attack, transient", heading: "Ischemic Attack, Transient", synonyms: ["transient ischemic attack", "transient ischaemic attack", "transient ischemic attacks", "tia", "tias"], lay: ["mini-stroke", "mini stroke", "ministroke", "mini-strokes", "warning stroke"], sources: MC },
  { canonical: "coronary artery disease", heading: "Coronary Artery Disease", synonyms: ["coronary heart disease", "ischemic heart disease", "ischaemic heart disease", "coronary atherosclerosis"], lay: ["blocked heart arteries", "clogged heart arteries", "narrowed heart arteries", "furred heart arteries"], sources: MC },
  // "Heart disease" as a person says it: the heart and its vessels (MeSH's Heart Diseases sits under
  // it). Not stroke, which a question of heart disease does not ask about.
  { canonical: "head-down tilt", heading: "Head-Down Tilt", synonyms: ["trendelenburg position", "trendelenburg", "head-down position", "head-down tilt position", "steep trendelenburg"], lay: ["lying head-down", "lie head-down", "lying head down", "lie head down", "head lower than the feet"], sources: MC },
  { canonical: "poverty areas", heading: "Poverty Areas", synonyms: ["deprived areas", "area deprivation", "area-level deprivation", "deprived neighbourhoods", "deprived neighborhoods", "low-income neighbourhoods", "low-income neighborhoods", "disadvantaged areas", "disadvantaged neighbourhoods", "disadvantaged neighborhoods"], lay: ["poorer areas", "poor areas", "poor neighbourhoods", "poor neighborhoods", "poorer neighbourhoods", "poorer neighborhoods"], sources: MC },
  { canonical: "cardiovascular diseases", heading: "Cardiovascular Diseases", synonyms: ["cardiovascular disease", "cardiovascular disorders", "heart disease", "heart diseases", "cardiac disease", "cardiac diseases"], lay: ["heart trouble", "heart problems", "heart and circulation problems"], members: ["coronary artery disease", "heart failure", "myocardial infarction", "atrial fibrillation"], sources: MC },
  { canonical: "atherosclerosis", heading: "Atherosclerosis", synonyms: ["atherosclerotic", "arteriosclerosis", "atheroma", "atherosclerotic disease"], lay: ["hardening of the arteries", "clogged arteries", "furred arteries", "furring of the arteries"], members: ["coronary artery disease", "coronary atherosclerosis", "carotid atherosclerosis", "peripheral arterial disease"], sources: MC },
  { canonical: "percutaneous coronary intervention", heading: "Percutaneous Coronary Intervention", synonyms: ["pci", "coronary angioplasty", "coronary stenting", "percutaneous transluminal coronary angioplasty", "ptca"], lay: ["heart stent", "heart stents", "stent in the heart", "stents in the heart", "having a stent"], sources: MC },
  { canonical: "cardiac surgical procedures", heading: "Cardiac Surgical Procedures", synonyms: ["cardiac surgery", "cardiac surgical procedure", "cardiac operation", "cardiac operations", "heart surgery", "open-heart surgery", "open heart surgery"], lay: ["heart operation", "heart operations"], members: ["coronary artery bypass", "coronary artery bypass grafting", "cabg", "aortic valve replacement", "mitral valve repair", "mitral valve replacement", "heart valve replacement"], sources: MC },
  { canonical: "coronary artery bypass", heading: "Coronary Artery Bypass", synonyms: ["coronary artery bypass grafting", "coronary artery bypass surgery", "cabg", "coronary bypass"], lay: ["heart bypass", "heart bypass surgery", "triple bypass", "double bypass", "quadruple bypass"], sources: MC },
  { canonical: "aortic valve stenosis", heading: "Aortic Valve Stenosis", synonyms: ["aortic stenosis", "calcific aortic stenosis"], lay: ["narrowed heart valve", "narrowing of the aortic valve", "tight heart valve", "stiff heart valve"], sources: MC },
  { canonical: "arrhythmias, cardiac", heading: "Arrhythmias, Cardiac", synonyms: ["cardiac arrhythmia", "cardiac arrhythmias", "arrhythmia", "arrhythmias", "dysrhythmia", "dysrhythmias"], lay: ["abnormal heart rhythm", "heart rhythm problem", "heart rhythm problems", "irregular heart rhythm"], members: ["atrial fibrillation", "atrial flutter", "ventricular tachycardia", "ventricular fibrillation", "bradycardia", "tachycardia"], sources: MC },
  { canonical: "heart septal defects", heading: "Heart Septal Defects", synonyms: ["heart septal defect", "septal defect", "septal defects"], lay: ["hole in the heart", "holes in the heart"], members: ["atrial septal defect", "ventricular septal defect", "patent foramen ovale"], sources: MC },
  // "icd" is left out: in a record it is most often the International Classification of Diseases.
  { canonical: "implantable cardioverter-defibrillator", heading: "Defibrillators, Implantable", synonyms: ["implantable cardioverter-defibrillators", "implantable cardioverter defibrillator", "implantable defibrillator", "implantable defibrillators"], lay: ["shock box", "heart shock box", "internal defibrillator", "defibrillator implant"], sources: MC },
  { canonical: "electrocardiography", heading: "Electrocardiography", synonyms: ["electrocardiogram", "electrocardiograms", "electrocardiographic", "ecg", "ecgs", "ekg", "12-lead ecg"], lay: ["heart tracing", "heart trace", "heart rhythm test", "heart tracing test"], sources: MC },
  { canonical: "echocardiography", heading: "Echocardiography", synonyms: ["echocardiogram", "echocardiograms", "echocardiographic", "transthoracic echocardiography", "cardiac ultrasound"], lay: ["heart ultrasound", "heart ultrasound scan", "heart echo", "echo of the heart"], sources: MC },
  { canonical: "deep vein thrombosis", heading: "Venous Thrombosis", synonyms: ["deep venous thrombosis", "deep-vein thrombosis", "dvt"], lay: ["clot in the leg", "blood clot in the leg", "leg clot", "leg clots"], sources: MC },
  { canonical: "pulmonary embolism", heading: "Pulmonary Embolism", synonyms: ["pulmonary embolus", "pulmonary emboli", "pulmonary thromboembolism"], lay: ["lung clot", "lung clots", "clot on the lung", "blood clot in the lung", "blood clot in the lungs"], sources: MC },
  { canonical: "hypercholesterolemia", heading: "Hypercholesterolemia", synonyms: ["hypercholesterolaemia", "high cholesterol", "elevated cholesterol", "raised cholesterol", "high serum cholesterol"], lay: ["cholesterol is too high", "too much cholesterol"], sources: MC },
  { canonical: "cholesterol, ldl", heading: "Cholesterol, LDL", synonyms: ["ldl cholesterol", "ldl-c", "ldl-cholesterol", "low-density lipoprotein cholesterol"], lay: ["bad cholesterol"], sources: MC },
  { canonical: "cholesterol, hdl", heading: "Cholesterol, HDL", synonyms: ["hdl cholesterol", "hdl-c", "hdl-cholesterol", "high-density lipoprotein cholesterol"], lay: ["good cholesterol"], sources: MC },
  { canonical: "hypotension", heading: "Hypotension", synonyms: ["hypotensive", "low blood pressure"], lay: ["low bp", "blood pressure too low"], sources: MC },
  // "fainting" alone is left out: its stem is "faint", as in "a faint line".
  { canonical: "syncope", heading: "Syncope", synonyms: ["syncopal", "syncopal episodes"], lay: ["fainting spells", "fainting episodes", "fainting attacks", "passing out", "passed out"], sources: MC },
  { canonical: "home blood pressure monitoring", synonyms: ["home blood pressure measurement", "self-measured blood pressure", "blood pressure self-monitoring", "self-monitoring of blood pressure", "home bp monitoring"], lay: ["checking my blood pressure at home", "blood pressure at home", "home blood pressure"], sources: MC },
  { canonical: "sphygmomanometers", heading: "Sphygmomanometers", synonyms: ["sphygmomanometer"], lay: ["blood pressure cuff", "blood pressure machine", "arm-cuff blood pressure machine", "arm cuff", "blood pressure monitor"], sources: MC },
  { canonical: "diuretics", heading: "Diuretics", synonyms: ["diuretic", "diuretic therapy"], lay: ["water tablets", "water tablet", "water pills", "water pill"], members: ["furosemide", "frusemide", "bumetanide", "torsemide", "hydrochlorothiazide", "chlorthalidone", "indapamide", "bendroflumethiazide", "spironolactone", "eplerenone", "thiazide diuretics", "loop diuretics"], sources: MA },
  { canonical: "edema", heading: "Edema", synonyms: ["oedema", "edematous", "fluid retention"], lay: ["swollen ankles", "swollen legs", "puffy ankles", "water retention", "fluid build-up", "fluid buildup"], sources: MC },

  // Lungs, ear, nose and throat
  { canonical: "pulmonary disease, chronic obstructive", heading: "Pulmonary Disease, Chronic Obstructive", synonyms: ["chronic obstructive pulmonary disease", "copd", "chronic obstructive lung disease", "chronic obstructive airway disease", "chronic airflow obstruction"], lay: ["smoker's lung", "smokers lung", "smokers' lungs"], members: ["emphysema", "pulmonary emphysema", "chronic bronchitis"], sources: MC },
  { canonical: "whooping cough", heading: "Whooping Cough", synonyms: ["pertussis"], lay: ["100-day cough", "hundred day cough"], sources: MC },
  { canonical: "common cold", heading: "Common Cold", synonyms: ["common colds", "acute coryza"], lay: ["head cold", "catching a cold", "caught a cold"], sources: MC },
  { canonical: "rhinitis, allergic, seasonal", heading: "Rhinitis, Allergic, Seasonal", synonyms: ["seasonal allergic rhinitis", "pollinosis", "pollen allergy"], lay: ["hay fever", "hayfever"], sources: MC },
  { canonical: "pharyngitis", heading: "Pharyngitis", synonyms: ["streptococcal pharyngitis", "tonsillopharyngitis"], lay: ["sore throat", "sore throats", "strep throat", "throat infection"], sources: MC },
  { canonical: "dyspnea", heading: "Dyspnea", synonyms: ["dyspnoea", "dyspneic", "breathlessness", "shortness of breath"], lay: ["short of breath", "out of breath", "breathless", "puffed out", "can't catch my breath", "struggling to breathe"], sources: MC },
  { canonical: "inhalers", heading: "Nebulizers and Vaporizers", synonyms: ["inhaler", "inhaler device", "inhaler devices"], lay: ["puffer", "puffers", "asthma pump", "asthma pumps"], members: ["metered dose inhaler", "metered-dose inhaler", "metered-dose inhalers", "dry powder inhaler", "dry powder inhalers", "nebulizer", "nebulizers", "nebuliser", "nebulisers"], sources: MC },
  { canonical: "otitis media", heading: "Otitis Media", synonyms: ["acute otitis media", "middle ear infection", "middle ear infections"], lay: ["ear infection", "ear infections"], sources: MC },
  { canonical: "otitis media with effusion", heading: "Otitis Media with Effusion", synonyms: ["serous otitis media", "secretory otitis media", "middle ear effusion"], lay: ["glue ear", "fluid behind the eardrum", "fluid in the middle ear"], sources: MC },
  { canonical: "middle ear ventilation", heading: "Middle Ear Ventilation", synonyms: ["tympanostomy tubes", "tympanostomy tube", "ventilation tubes", "tympanostomy"], lay: ["grommets", "grommet", "ear tubes", "tubes in the ears"], sources: MC },
  { canonical: "tinnitus", heading: "Tinnitus", synonyms: ["chronic tinnitus"], lay: ["ringing in the ears", "ringing ears", "ear ringing", "buzzing in the ears"], sources: MC },
  { canonical: "hearing loss", heading: "Hearing Loss", synonyms: ["hearing impairment", "hearing-impaired", "deafness"], lay: ["going deaf", "hard of hearing", "losing my hearing", "poor hearing"], members: ["presbycusis", "age-related hearing loss", "noise-induced hearing loss"], sources: MC },
  { canonical: "dysphagia", heading: "Deglutition Disorders", synonyms: ["deglutition disorders", "swallowing disorders", "swallowing difficulties", "swallowing impairment"], lay: ["trouble swallowing", "difficulty swallowing", "can't swallow", "hard to swallow"], sources: MC },

  // Brain, nerves and the senses
  { canonical: "seizures, febrile", heading: "Seizures, Febrile", synonyms: ["febrile seizure", "febrile seizures", "febrile convulsion", "febrile convulsions"], lay: ["fever fit", "fever fits", "febrile fits"], sources: MC },
  { canonical: "hydrocephalus", heading: "Hydrocephalus", synonyms: ["hydrocephalic"], lay: ["water on the brain", "fluid on the brain"], sources: MC },
  { canonical: "craniocerebral trauma", heading: "Craniocerebral Trauma", synonyms: ["head injury", "head injuries", "head trauma"], lay: ["knock on the head", "bang on the head", "blow to the head", "hit his head", "hit her head", "hit my head"], sources: MC },
  { canonical: "sciatica", heading: "Sciatica", synonyms: ["sciatic pain"], lay: ["pain down the leg", "shooting pain down the leg", "trapped sciatic nerve"], sources: MC },
  { canonical: "peripheral neuropathy", heading: "Peripheral Nervous System Diseases", synonyms: ["peripheral neuropathies", "polyneuropathy", "polyneuropathies"], lay: ["numb feet", "numbness in the feet", "pins and needles in the feet", "nerve damage in the feet"], members: ["diabetic neuropathy", "diabetic peripheral neuropathy", "chemotherapy-induced peripheral neuropathy"], sources: MC },
  { canonical: "amblyopia", heading: "Amblyopia", synonyms: ["amblyopic"], lay: ["lazy eye", "lazy eyes"], sources: MC },
  { canonical: "strabismus", heading: "Strabismus", synonyms: ["strabismic"], lay: ["squint", "crossed eyes", "cross-eyed", "wandering eye", "turned eye"], members: ["esotropia", "exotropia"], sources: MC },
  { canonical: "cataract", heading: "Cataract", synonyms: ["cataracts", "lens opacity", "lens opacities"], lay: ["cloudy lens", "clouding of the lens", "cloudy eye lens"], sources: MC },
  { canonical: "cataract extraction", heading: "Cataract Extraction", synonyms: ["cataract surgery", "phacoemulsification"], lay: ["cataract operation", "cataract op", "cataracts removed", "cataract removal", "cataract removed", "cataracts done"], sources: MC },
  { canonical: "diabetic retinopathy", heading: "Diabetic Retinopathy", synonyms: ["diabetic maculopathy", "diabetic macular edema"], lay: ["diabetic eye disease", "eye damage from diabetes"], sources: MC },
  { canonical: "dry eye syndromes", heading: "Dry Eye Syndromes", synonyms: ["dry eye disease", "dry eye syndrome", "keratoconjunctivitis sicca"], lay: ["dry eyes", "gritty eyes"], sources: MC },
  { canonical: "conjunctivitis", heading: "Conjunctivitis", synonyms: ["conjunctival inflammation"], lay: ["pink eye", "pinkeye", "sticky eye", "sticky eyes"], sources: MC },
  { canonical: "myopia", heading: "Myopia", synonyms: ["myopic", "nearsightedness", "near-sightedness"], lay: ["short-sighted", "short sighted", "short-sightedness", "nearsighted"], sources: MC },
  { canonical: "vision, low", heading: "Vision, Low", synonyms: ["low vision", "visual impairment", "visually impaired"], lay: ["sight loss", "losing my sight", "poor eyesight", "failing eyesight", "partially sighted"], sources: MC },

  // Hormones and metabolism
  { canonical: "hypothyroidism", heading: "Hypothyroidism", synonyms: ["hypothyroid"], lay: ["underactive thyroid", "under-active thyroid", "slow thyroid", "low thyroid"], sources: MC },
  { canonical: "hyperthyroidism", heading: "Hyperthyroidism", synonyms: ["hyperthyroid", "thyrotoxicosis"], lay: ["overactive thyroid", "over-active thyroid"], sources: MC },
  { canonical: "prediabetic state", heading: "Prediabetic State", synonyms: ["prediabetes", "pre-diabetes", "prediabetic", "pre-diabetic"], lay: ["borderline diabetes", "borderline diabetic", "nearly diabetic"], sources: MC },
  { canonical: "blood glucose self-monitoring", heading: "Blood Glucose Self-Monitoring", synonyms: ["self-monitoring of blood glucose", "smbg", "blood glucose monitoring"], lay: ["finger prick test", "finger-prick test", "finger prick tests", "checking my sugar", "checking blood sugar", "glucose meter", "blood sugar meter"], members: ["continuous glucose monitoring", "cgm", "flash glucose monitoring"], sources: MC },

  // Digestion, liver and bowel
  { canonical: "gastroesophageal reflux", heading: "Gastroesophageal Reflux", synonyms: ["gastro-oesophageal reflux", "gastro-esophageal reflux", "gastroesophageal reflux disease", "gastro-oesophageal reflux disease", "gerd", "gord", "acid reflux"], lay: ["heartburn", "acid indigestion", "acid coming up"], sources: MC },
  { canonical: "peptic ulcer", heading: "Peptic Ulcer", synonyms: ["peptic ulcers", "peptic ulcer disease", "peptic ulceration"], lay: ["stomach ulcer", "stomach ulcers", "tummy ulcer"], members: ["gastric ulcer", "gastric ulcers", "duodenal ulcer", "duodenal ulcers"], sources: MC },
  { canonical: "gallstones", heading: "Gallstones", synonyms: ["gallstone", "cholelithiasis", "gallstone disease"], lay: ["gall stones", "stones in the gallbladder"], sources: MC },
  { canonical: "cholecystectomy", heading: "Cholecystectomy", synonyms: ["cholecystectomies"], lay: ["gallbladder removal", "gallbladder removed", "gallbladder surgery", "gallbladder operation"], members: ["laparoscopic cholecystectomy"], sources: MC },
  { canonical: "hemorrhoids", heading: "Hemorrhoids", synonyms: ["hemorrhoid", "hemorrhoidal disease"], lay: ["piles"], sources: MC },
  { canonical: "constipation", heading: "Constipation", synonyms: ["constipated", "chronic constipation"], lay: ["bunged up", "hard stools", "straining on the toilet", "can't poo"], sources: MC },
  { canonical: "diarrhea", heading: "Diarrhea", synonyms: ["diarrhoea", "diarrheal", "loose stools"], lay: ["the runs", "runny poo", "runny stools", "the trots"], sources: MC },
  { canonical: "gastroenteritis", heading: "Gastroenteritis", synonyms: ["acute gastroenteritis", "infectious gastroenteritis"], lay: ["stomach bug", "tummy bug", "stomach flu", "gastro"], sources: MC },
  { canonical: "vomiting", heading: "Vomiting", synonyms: ["emesis", "vomit"], lay: ["throwing up", "threw up", "puking"], sources: MC },
  { canonical: "celiac disease", heading: "Celiac Disease", synonyms: ["celiac sprue", "gluten-sensitive enteropathy", "gluten enteropathy"], lay: ["gluten intolerance", "gluten allergy"], sources: MC },
  { canonical: "endoscopy", heading: "Endoscopy", synonyms: ["endoscopic", "endoscopies"], lay: ["camera test", "camera tests", "scope test"], members: ["colonoscopy", "gastroscopy", "sigmoidoscopy", "bronchoscopy", "cystoscopy"], sources: MC },
  { canonical: "gastroscopy", heading: "Gastroscopy", synonyms: ["upper endoscopy", "upper gastrointestinal endoscopy", "esophagogastroduodenoscopy", "egd", "ogd"], lay: ["camera down the throat", "stomach camera test", "camera into the stomach"], sources: MC },
  { canonical: "colonoscopy", heading: "Colonoscopy", synonyms: ["colonoscopies", "colonoscopic"], lay: ["bowel camera test", "camera test of the bowel", "camera into the bowel", "bowel camera"], sources: MC },
  { canonical: "fecal occult blood test", heading: "Occult Blood", synonyms: ["faecal occult blood test", "fobt", "fecal immunochemical test", "faecal immunochemical test", "gfobt"], lay: ["poo test", "stool test", "bowel screening kit", "home bowel test"], sources: MC },
  { canonical: "non-alcoholic fatty liver disease", heading: "Non-alcoholic Fatty Liver Disease", synonyms: ["nonalcoholic fatty liver disease", "nafld", "masld", "metabolic dysfunction-associated steatotic liver disease"], lay: ["fatty liver", "fatty liver disease", "fat in the liver"], sources: MC },
  { canonical: "liver cirrhosis", heading: "Liver Cirrhosis", synonyms: ["cirrhosis", "hepatic cirrhosis", "cirrhotic"], lay: ["scarred liver", "liver scarring", "scarring of the liver"], sources: MC },
  { canonical: "jaundice, neonatal", heading: "Jaundice, Neonatal", synonyms: ["neonatal jaundice", "neonatal hyperbilirubinemia"], lay: ["newborn jaundice", "baby jaundice", "jaundiced baby", "yellow baby"], sources: MC },
  { canonical: "gastrointestinal microbiome", heading: "Gastrointestinal Microbiome", synonyms: ["gut microbiome", "gut microbiota", "intestinal microbiota", "intestinal microbiome", "gut flora", "intestinal flora"], lay: ["gut bacteria", "gut bugs", "bacteria in the gut"], sources: MC },

  // Kidneys, bladder and sexual health
  { canonical: "urinary tract infections", heading: "Urinary Tract Infections", synonyms: ["urinary tract infection", "uti", "utis"], lay: ["water infection", "bladder infection", "urine infection", "waterworks infection"], sources: MC },
  { canonical: "lower urinary tract symptoms", heading: "Lower Urinary Tract Symptoms", synonyms: ["luts", "urinary symptoms"], lay: ["waterworks problems", "waterworks trouble", "trouble peeing", "peeing a lot", "weeing a lot"], sources: MC },
  { canonical: "urinary bladder, overactive", heading: "Urinary Bladder, Overactive", synonyms: ["overactive bladder", "oab", "detrusor overactivity"], lay: ["always needing the toilet", "sudden urge to pee", "needing to pee often"], sources: MC },
  { canonical: "prostatic hyperplasia", heading: "Prostatic Hyperplasia", synonyms: ["benign prostatic hyperplasia", "bph", "benign prostatic hypertrophy", "prostatic hypertrophy", "benign prostatic enlargement"], lay: ["enlarged prostate", "swollen prostate", "prostate enlargement"], sources: MC },
  { canonical: "renal dialysis", heading: "Renal Dialysis", synonyms: ["dialysis", "hemodialysis"], lay: ["kidney machine", "kidney dialysis", "artificial kidney"], members: ["peritoneal dialysis", "home hemodialysis"], sources: MC },
  { canonical: "erectile dysfunction", heading: "Erectile Dysfunction", synonyms: ["impotence", "erectile impairment"], lay: ["impotent", "can't get an erection", "trouble getting an erection"], sources: MC },

  // Women, pregnancy and babies
  { canonical: "menorrhagia", heading: "Menorrhagia", synonyms: ["heavy menstrual bleeding"], lay: ["heavy periods", "heavy period", "flooding periods"], sources: MC },
  { canonical: "dysmenorrhea", heading: "Dysmenorrhea", synonyms: ["dysmenorrhoea", "menstrual pain", "menstrual cramps"], lay: ["period pain", "period pains", "period cramps", "painful periods"], sources: MC },
  { canonical: "uterine fibroids", synonyms: ["uterine fibroid", "uterine leiomyoma", "uterine leiomyomas", "uterine leiomyomata"], lay: ["fibroids", "fibroid", "womb fibroids", "growths in the womb"], sources: MC },
  { canonical: "contraceptives, oral", heading: "Contraceptives, Oral", synonyms: ["oral contraceptives", "oral contraceptive", "combined oral contraceptive", "oral contraceptive pill", "oral contraceptive pills"], lay: ["on the pill", "contraceptive pill", "birth control pill", "birth control pills", "combined pill"], sources: MC },
  { canonical: "intrauterine devices", heading: "Intrauterine Devices", synonyms: ["intrauterine device", "iud", "iuds", "intrauterine system", "intrauterine contraception"], lay: ["contraceptive coil", "copper coil", "hormonal coil", "coil fitted"], sources: MC },
  { canonical: "contraception, postcoital", heading: "Contraception, Postcoital", synonyms: ["emergency contraception", "postcoital contraception", "emergency contraceptive pill"], lay: ["morning after pill", "morning-after pill"], sources: MC },
  { canonical: "abortion, spontaneous", heading: "Abortion, Spontaneous", synonyms: ["spontaneous abortion", "miscarriage", "miscarriages", "early pregnancy loss"], lay: ["lost the baby", "losing the baby", "losing a baby"], members: ["recurrent miscarriage", "recurrent pregnancy loss"], sources: MC },
  { canonical: "cesarean section", heading: "Cesarean Section", synonyms: ["cesarean delivery", "cesarean sections", "c-section", "c-sections", "cesarean"], lay: ["c section", "caesarean birth"], sources: MC },
  { canonical: "postpartum depression", heading: "Depression, Postpartum", synonyms: ["postnatal depression", "post-partum depression", "perinatal depression", "puerperal depression"], lay: ["baby blues", "depression after the baby", "depression after having a baby", "depressed after giving birth"], sources: MC },
  { canonical: "infertility", heading: "Infertility", synonyms: ["infertile", "subfertility", "subfertile"], lay: ["trouble getting pregnant", "can't get pregnant", "struggling to conceive"], sources: MC },
  { canonical: "papanicolaou test", heading: "Papanicolaou Test", synonyms: ["pap smear", "pap smears", "pap test", "papanicolaou smear", "cervical cytology"], lay: ["smear test", "smear tests", "cervical smear", "cervical screening test"], sources: MC },
  { canonical: "papillomavirus vaccines", heading: "Papillomavirus Vaccines", synonyms: ["hpv vaccine", "hpv vaccines", "hpv vaccination", "human papillomavirus vaccine", "human papillomavirus vaccination"], lay: ["hpv jab", "cervical cancer jab", "cervical cancer vaccine"], sources: MC },
  { canonical: "hysterectomy", heading: "Hysterectomy", synonyms: ["hysterectomies"], lay: ["womb removal", "womb removed", "having my womb out"], sources: MC },
  { canonical: "ultrasonography, prenatal", heading: "Ultrasonography, Prenatal", synonyms: ["prenatal ultrasound", "obstetric ultrasound", "antenatal ultrasound", "fetal ultrasound", "prenatal ultrasonography"], lay: ["baby scan", "pregnancy scan", "dating scan", "20-week scan", "anomaly scan"], sources: MC },
  { canonical: "sudden infant death", heading: "Sudden Infant Death", synonyms: ["sudden infant death syndrome", "sids", "sudden unexpected infant death", "sudi"], lay: ["cot death", "cot deaths", "crib death"], sources: MC },

  // Bones, joints and muscles
  { canonical: "back pain", heading: "Back Pain", synonyms: ["backache", "back ache", "dorsalgia"], lay: ["bad back", "sore back", "back trouble", "aching back"], members: ["low back pain", "lower back pain", "lumbago"], sources: MC },
  { canonical: "low back pain", heading: "Low Back Pain", synonyms: ["lower back pain", "lumbago", "lumbar pain", "lbp"], lay: ["lower back ache", "sore lower back", "bad lower back"], sources: MC },
  { canonical: "adhesive capsulitis", synonyms: ["frozen shoulder", "adhesive capsulitis of the shoulder"], lay: ["stiff shoulder", "stiff painful shoulder"], sources: MC },
  { canonical: "lateral epicondylitis", heading: "Tennis Elbow", synonyms: ["tennis elbow", "lateral epicondylalgia", "lateral elbow tendinopathy"], sources: MC },
  { canonical: "arthralgia", heading: "Arthralgia", synonyms: ["joint pain", "joint pains"], lay: ["aching joints", "sore joints", "painful joints", "achy joints"], sources: MC },
  { canonical: "sprains and strains", heading: "Sprains and Strains", synonyms: ["sprain", "sprains", "muscle strain", "muscle strains", "ligament sprain"], lay: ["pulled muscle", "pulled a muscle", "torn muscle"], sources: MC },
  { canonical: "anterior cruciate ligament injuries", heading: "Anterior Cruciate Ligament Injuries", synonyms: ["anterior cruciate ligament injury", "anterior cruciate ligament rupture", "acl injury", "acl injuries", "acl tear", "acl rupture"], lay: ["torn knee ligament", "knee ligament tear", "torn acl"], sources: MC },
  { canonical: "distal radius fractures", synonyms: ["distal radius fracture", "distal radial fracture", "distal radial fractures", "wrist fracture", "wrist fractures", "colles fracture", "colles' fracture"], lay: ["broken wrist", "broke her wrist", "broke his wrist", "broke my wrist"], sources: MC },
  { canonical: "spinal fractures", heading: "Spinal Fractures", synonyms: ["spinal fracture", "vertebral fracture", "vertebral fractures", "vertebral compression fracture", "vertebral compression fractures"], lay: ["broken back", "broken spine", "crushed vertebra", "collapsed vertebra"], sources: MC },
  { canonical: "osteogenesis imperfecta", heading: "Osteogenesis Imperfecta", lay: ["brittle bone disease"], sources: MC },
  { canonical: "dual-energy x-ray absorptiometry", heading: "Absorptiometry, Photon", synonyms: ["dxa", "dexa", "dxa scan", "dexa scan", "bone densitometry"], lay: ["bone density scan", "bone density test"], sources: MC },
  { canonical: "hip arthroplasty", heading: "Arthroplasty, Replacement, Hip", synonyms: ["total hip arthroplasty", "total hip replacement", "hip replacement", "hip replacements", "hip replacement surgery"], lay: ["new hip", "artificial hip", "hip op"], sources: MC },
  { canonical: "knee arthroplasty", heading: "Arthroplasty, Replacement, Knee", synonyms: ["total knee arthroplasty", "total knee replacement", "knee replacement", "knee replacements", "knee replacement surgery", "tka"], lay: ["new knee", "artificial knee"], sources: MC },
  { canonical: "physical therapy modalities", heading: "Physical Therapy Modalities", synonyms: ["physiotherapy", "physical therapy", "physiotherapist", "physiotherapists", "physical therapist", "physical therapists"], lay: ["physio", "physios"], sources: MC },

  // Skin, mouth and teeth
  { canonical: "skin neoplasms", heading: "Skin Neoplasms", synonyms: ["skin cancer", "skin cancers", "cutaneous neoplasms", "non-melanoma skin cancer", "nmsc"], members: ["melanoma", "basal cell carcinoma", "cutaneous squamous cell carcinoma"], sources: MC },
  { canonical: "nevus", heading: "Nevus", synonyms: ["nevi", "naevus", "naevi", "melanocytic nevi", "melanocytic naevi", "melanocytic nevus"], lay: ["skin mole", "skin moles", "beauty spot", "beauty spots"], sources: MC },
  { canonical: "herpes zoster", heading: "Herpes Zoster", synonyms: ["zoster", "shingles"], lay: ["shingles rash"], sources: MC },
  { canonical: "herpes labialis", heading: "Herpes Labialis", synonyms: ["herpes simplex labialis", "recurrent herpes labialis"], lay: ["cold sore", "cold sores", "fever blister", "fever blisters"], sources: MC },
  { canonical: "atopic dermatitis", heading: "Dermatitis, Atopic", synonyms: ["atopic eczema", "childhood eczema", "infantile eczema"], lay: ["eczema", "baby eczema"], sources: MC },
  { canonical: "acne vulgaris", heading: "Acne Vulgaris", synonyms: ["acne"], lay: ["pimples", "zits", "teenage spots", "spotty skin"], sources: MC },
  { canonical: "alopecia", heading: "Alopecia", synonyms: ["hair loss", "baldness"], lay: ["losing hair", "losing my hair", "going bald", "thinning hair", "hair falling out"], members: ["androgenetic alopecia", "alopecia areata"], sources: MC },
  { canonical: "dental caries", heading: "Dental Caries", synonyms: ["caries", "tooth decay", "carious lesions"], lay: ["tooth cavities", "rotten teeth", "holes in teeth"], sources: MC },
  { canonical: "periodontal diseases", heading: "Periodontal Diseases", synonyms: ["periodontal disease"], lay: ["gum disease", "gum infection", "bleeding gums", "gum problems"], members: ["periodontitis", "gingivitis"], sources: MC },
  { canonical: "xerostomia", heading: "Xerostomia", lay: ["dry mouth"], sources: MC },

  // Mind and habits
  // "asd" is left out: in a record it is as often an atrial septal defect.
  { canonical: "self-injurious behavior", heading: "Self-Injurious Behavior", synonyms: ["self-harm", "self harm", "self-injury", "deliberate self-harm", "non-suicidal self-injury", "nssi"], lay: ["cutting herself", "cutting himself", "cutting themselves", "hurting herself", "hurting themselves"], sources: MC },
  // "alcoholism" and "alcoholics" are left out as forms: their Porter stem is "alcohol", which would make
  // every question on drinking one on dependence (the heading still names it in MeSH terms).
  { canonical: "alcohol use disorder", heading: "Alcoholism", synonyms: ["alcohol dependence", "alcohol use disorders", "alcohol addiction", "alcohol-dependent"], lay: ["drinking problem", "drink problem", "addicted to alcohol", "hooked on alcohol"], sources: MC },
  { canonical: "smoking cessation", heading: "Smoking Cessation", synonyms: ["quitting smoking", "stopping smoking", "tobacco cessation", "quit smoking"], lay: ["giving up smoking", "give up smoking", "gave up smoking", "kick the habit", "stop smoking", "quitting cigarettes", "giving up cigarettes"], sources: MC },
  { canonical: "electronic nicotine delivery systems", heading: "Electronic Nicotine Delivery Systems", synonyms: ["electronic cigarettes", "electronic cigarette", "e-cigarettes", "e-cigarette"], lay: ["vaping", "vape", "vapes", "vaper", "vapers", "e-cigs", "e-cig"], sources: MC },
  { canonical: "sedentary behavior", heading: "Sedentary Behavior", synonyms: ["sedentary lifestyle", "sitting time", "sedentary time", "physical inactivity"], lay: ["sitting all day", "sitting too much", "too much sitting", "couch potato", "desk job"], sources: MC },
  { canonical: "sleep deprivation", heading: "Sleep Deprivation", synonyms: ["sleep loss", "sleep restriction", "sleep-deprived", "insufficient sleep"], lay: ["not enough sleep", "lack of sleep", "sleepless nights", "short on sleep"], sources: MC },
  // Waist measures are how studies measure abdominal obesity: members, one way.
  { canonical: "abdominal obesity", heading: "Obesity, Abdominal", synonyms: ["central obesity", "visceral obesity", "abdominal adiposity"], lay: ["belly fat", "tummy fat", "beer belly", "pot belly", "spare tyre", "fat around the middle", "muffin top"], members: ["waist circumference", "waist-to-hip ratio"], sources: MC },
  { canonical: "morbid obesity", heading: "Obesity, Morbid", synonyms: ["morbidly obese", "severe obesity", "severely obese", "class iii obesity"], lay: ["very heavy people", "very heavy person", "extremely overweight", "severely overweight", "dangerously overweight"], sources: MC },
  { canonical: "sugar-sweetened beverages", heading: "Sugar-Sweetened Beverages", synonyms: ["sugar-sweetened beverage", "ssbs", "sugary beverages"], lay: ["fizzy drinks", "sugary drinks", "sweet drinks", "fizzy pop"], sources: MC },

  // Infections, immunity and blood
  { canonical: "sepsis", heading: "Sepsis", synonyms: ["septicemia", "septicaemia"], lay: ["blood poisoning"], members: ["septic shock"], sources: MC },
  { canonical: "candidiasis", heading: "Candidiasis", synonyms: ["candida infection", "candida infections"], lay: ["thrush", "yeast infection", "yeast infections"], members: ["vulvovaginal candidiasis", "oral candidiasis"], sources: MC },
  { canonical: "immunocompromised host", heading: "Immunocompromised Host", synonyms: ["immunocompromised", "immunosuppressed", "immune-compromised"], lay: ["weak immune system", "weakened immune system", "low immunity"], sources: MC },
  { canonical: "anemia", heading: "Anemia", synonyms: ["anemic"], lay: ["low blood count", "low red blood cell count", "low red cell count"], sources: MC },
  { canonical: "iron-deficiency anemia", heading: "Anemia, Iron-Deficiency", synonyms: ["iron deficiency anemia"], lay: ["low iron", "low iron levels", "lack of iron", "iron-poor blood"], sources: MC },
  { canonical: "hematologic neoplasms", heading: "Hematologic Neoplasms", synonyms: ["hematologic malignancies", "hematological malignancies", "hematologic malignancy", "hematological cancer"], lay: ["blood cancer", "blood cancers", "cancer of the blood"], members: ["leukemia", "leukaemia", "lymphoma", "multiple myeloma"], sources: MC },

  // Cancers and their care
  { canonical: "esophageal neoplasms", heading: "Esophageal Neoplasms", synonyms: ["esophageal cancer", "esophageal carcinoma", "esophageal adenocarcinoma", "esophageal squamous cell carcinoma"], lay: ["gullet cancer", "food pipe cancer"], sources: MC },
  { canonical: "uterine cervical neoplasms", heading: "Uterine Cervical Neoplasms", synonyms: ["cervical cancer", "cervical carcinoma", "cancer of the cervix"], lay: ["cervix cancer", "cancer of the neck of the womb"], sources: MC },

  // Tests, scans, operations and medicines
  // "ct" alone is left out: in a record it also abbreviates Chlamydia trachomatis and other names.
  { canonical: "computed tomography", heading: "Tomography, X-Ray Computed", synonyms: ["ct scan", "ct scans", "ct scanning", "ct imaging", "computerized tomography", "computerised tomography", "x-ray computed tomography"], lay: ["cat scan", "cat scans"], sources: MC },
  { canonical: "laparoscopy", heading: "Laparoscopy", synonyms: ["laparoscopic", "laparoscopic surgery"], lay: ["keyhole surgery", "keyhole operation", "keyhole procedure"], sources: MC },
  { canonical: "general anesthesia", heading: "Anesthesia, General", synonyms: ["general anesthetic"], lay: ["being put to sleep", "being put under"], sources: MC },
  { canonical: "acetaminophen", heading: "Acetaminophen", synonyms: ["paracetamol", "apap"], lay: ["tylenol", "panadol", "calpol"], sources: MA },

  // People and settings
  { canonical: "caregivers", heading: "Caregivers", synonyms: ["caregiver", "carer", "carers", "family caregivers", "informal caregivers"], lay: ["looking after my mum", "looking after my dad", "caring for my husband", "caring for my wife", "caring for a loved one", "unpaid carers"], sources: MC },
  { canonical: "shift work schedule", heading: "Shift Work Schedule", synonyms: ["shift work", "shift workers", "night shift work", "night work", "rotating shift work"], lay: ["night shifts", "working nights", "working night shifts"], sources: MC },

  // Lay words of aging, later life and its care, of everyday habits and of the body, second round
  // (MedlinePlus and NHS plain names, the Consumer Health Vocabulary; MeSH descriptors and entry
  // terms). Left out as ambiguous in a question: "supplements" alone (its stem is also
  // "supplemental oxygen"'s), "salt" alone (bath and Epsom salts), "the shakes" (also meal-replacement
  // and protein shakes), "hormone therapy for men" (also androgen deprivation for prostate cancer),
  // "liver spots" ("spots on the liver" reads as it), "low t", "walker" and "cane" alone (people who
  // walk, a surname, sugar cane), "glasses" alone, "urination" (its stem is "urine"'s and "urinary"'s),
  // "achilles" alone (an Achilles heel), "claudication" alone (also neurogenic and jaw claudication),
  // "long haulers" (truck drivers), "not eating enough" and "not drinking enough" (… protein, … milk).
  // Aging and longevity
  { canonical: "lentigo", heading: "Lentigo", synonyms: ["lentigines", "solar lentigo", "solar lentigines", "senile lentigo", "actinic lentigo"], lay: ["age spots", "age spot"], sources: MC },
  { canonical: "skin aging", heading: "Skin Aging", synonyms: ["photoaging", "photoageing", "cutaneous aging", "skin wrinkles", "facial wrinkles", "wrinkling"], lay: ["wrinkles", "wrinkly skin", "wrinkled skin", "aging skin", "crow's feet", "sagging skin", "older-looking skin"], sources: MC },
  { canonical: "cognitive aging", heading: "Cognitive Aging", synonyms: ["age-related cognitive decline", "age-associated memory impairment", "age-related memory decline", "age-related memory impairment"], lay: ["senior moments", "senior moment", "memory loss with age", "memory getting worse with age", "forgetful with age", "forgetfulness with age", "aging brain", "brain aging"], sources: MC },
  // No MeSH descriptor; members left out: each (rapamycin, metformin) is studied mostly for other uses.
  { canonical: "geroprotectors", synonyms: ["geroprotector", "geroprotective drugs", "geroprotective agents", "anti-aging drugs", "anti-aging medications"], lay: ["anti-aging pills", "anti-aging pill", "anti-aging drug", "longevity pills", "longevity drugs", "pills to slow aging", "drugs to slow aging"], sources: MC },
  { canonical: "hypogonadism", heading: "Hypogonadism", synonyms: ["male hypogonadism", "late-onset hypogonadism", "testosterone deficiency", "androgen deficiency", "andropause"], lay: ["low testosterone", "low testosterone levels", "male menopause"], sources: MC },
  { canonical: "testosterone replacement therapy", synonyms: ["testosterone therapy", "testosterone replacement", "testosterone supplementation", "testosterone treatment", "androgen replacement therapy"], lay: ["testosterone shots", "testosterone jabs", "testosterone injections", "testosterone gel", "testosterone patches", "male hormone replacement", "hormone replacement for men", "hrt for men"], sources: MC },
  { canonical: "hot flashes", heading: "Hot Flashes", synonyms: ["hot flash", "hot flushes", "hot flush", "vasomotor symptoms"], lay: ["menopausal flushes", "hot sweats"], sources: MC },
  { canonical: "presbycusis", heading: "Presbycusis", synonyms: ["presbyacusis", "age-related hearing loss", "age-related hearing impairment"], lay: ["hearing loss with age", "losing hearing with age", "going deaf with age", "deafness of old age"], sources: MC },

  // Later life: falls, continence, senses, mobility, homes and the end of life
  { canonical: "fecal incontinence", heading: "Fecal Incontinence", synonyms: ["faecal incontinence", "bowel incontinence", "anal incontinence", "accidental bowel leakage"], lay: ["bowel leakage", "bowel accidents", "leaking from the bowel", "loss of bowel control", "poor bowel control"], sources: MC },
  { canonical: "pelvic floor muscle training", synonyms: ["pelvic floor exercises", "pelvic floor muscle exercises", "pelvic floor training", "pfmt", "kegel exercises", "kegel exercise"], lay: ["kegels", "kegel", "pelvic floor squeezes", "squeezing exercises"], sources: MC },
  { canonical: "nocturia", heading: "Nocturia", synonyms: ["nycturia", "nocturnal voiding", "nocturnal urination", "night-time urination", "nighttime urination"], lay: ["getting up at night to pee", "getting up in the night to pee", "up at night to pee", "peeing at night", "weeing at night", "waking up to pee", "night-time toilet trips"], sources: MC },
  { canonical: "hearing aids", heading: "Hearing Aids", synonyms: ["hearing aid", "hearing instruments", "hearing aid use", "hearing aid users"], lay: ["deaf aid", "deaf aids"], sources: MC },
  { canonical: "cochlear implants", heading: "Cochlear Implants", synonyms: ["cochlear implant", "cochlear implantation"], lay: ["bionic ear", "bionic ears"], sources: MC },
  { canonical: "macular degeneration", heading: "Macular Degeneration", synonyms: ["age-related macular degeneration", "amd", "armd", "age-related maculopathy"], lay: ["losing central vision", "loss of central vision", "central vision loss", "failing central vision"], members: ["wet macular degeneration", "dry macular degeneration", "neovascular age-related macular degeneration", "geographic atrophy"], sources: MC },
  { canonical: "intraocular pressure", heading: "Intraocular Pressure", synonyms: ["iop", "intraocular pressures"], lay: ["eye pressure", "pressure in the eye", "pressure in the eyes", "pressure inside the eye"], sources: MC },
  { canonical: "ocular hypertension", heading: "Ocular Hypertension", synonyms: ["elevated intraocular pressure", "raised intraocular pressure", "high intraocular pressure"], lay: ["high eye pressure", "raised eye pressure", "high pressure in the eye"], sources: MC },
  { canonical: "presbyopia", heading: "Presbyopia", synonyms: ["presbyopic"], lay: ["needing reading glasses", "need reading glasses", "aging eyes", "long-sighted with age"], sources: MC },
  { canonical: "eyeglasses", heading: "Eyeglasses", synonyms: ["spectacles", "spectacle wear", "spectacle correction"], lay: ["reading glasses", "wearing glasses", "prescription glasses", "pair of glasses"], sources: MC },
  { canonical: "dentures", heading: "Dentures", synonyms: ["denture", "denture wearers", "removable dentures", "complete dentures"], lay: ["false teeth", "dental plate"], sources: MC },
  { canonical: "tooth loss", heading: "Tooth Loss", synonyms: ["edentulism", "edentulous"], lay: ["losing teeth", "lost teeth", "teeth falling out", "losing my teeth"], sources: MC },
  { canonical: "walking frames", heading: "Walkers", synonyms: ["walking frame", "rollator", "rollators", "rolling walker", "rolling walkers", "wheeled walker", "wheeled walkers"], lay: ["zimmer frame", "zimmer frames"], sources: MC },
  { canonical: "walking sticks", heading: "Canes", synonyms: ["walking stick", "walking cane", "walking canes", "cane use"], sources: MC },
  // MeSH's Self-Help Devices is wider (eating aids, grab rails): no heading; frames, sticks and wheelchairs are members.
  { canonical: "mobility aids", synonyms: ["mobility aid", "mobility devices", "mobility device", "walking aids", "walking aid", "ambulatory aids", "assistive walking devices"], members: ["walking frames", "walking frame", "rollator", "rollators", "walking sticks", "walking stick", "cane use", "wheelchair", "wheelchairs", "mobility scooters"], sources: MC },
  { canonical: "kyphosis", heading: "Kyphosis", synonyms: ["kyphotic", "hyperkyphosis", "thoracic hyperkyphosis", "age-related hyperkyphosis"], lay: ["hunched back", "hunchback", "hunched posture", "dowager's hump", "dowager hump", "rounded back", "stooped posture", "stooped back"], sources: MC },
  { canonical: "polypharmacy", heading: "Polypharmacy", synonyms: ["multiple medications", "multiple medication use"], lay: ["too many pills", "too many tablets", "too many medications", "too many medicines", "lots of pills", "lots of tablets", "lots of medications"], sources: MC },
  { canonical: "delirium", heading: "Delirium", synonyms: ["delirious", "acute confusional state", "acute confusion"], lay: ["sudden confusion", "hospital confusion", "confused after surgery", "confusion after an operation"], members: ["postoperative delirium"], sources: MC },
  { canonical: "dizziness", heading: "Dizziness", synonyms: ["dizzy", "lightheadedness", "light-headedness", "giddiness"], lay: ["dizzy spells", "feeling dizzy", "light-headed", "lightheaded", "feeling faint", "woozy"], sources: MC },
  { canonical: "vertigo", heading: "Vertigo", synonyms: ["vertiginous"], lay: ["room spinning", "room is spinning", "spinning sensation", "head spinning"], members: ["benign paroxysmal positional vertigo", "bppv"], sources: MC },
  { canonical: "benign paroxysmal positional vertigo", heading: "Benign Paroxysmal Positional Vertigo", synonyms: ["bppv", "benign positional vertigo", "positional vertigo"], lay: ["ear crystals", "loose ear crystals", "crystals in the ear"], sources: MC },
  { canonical: "orthostatic hypotension", heading: "Hypotension, Orthostatic", synonyms: ["postural hypotension", "orthostatic hypotensive"], lay: ["dizzy when standing up", "dizzy on standing", "dizziness on standing", "dizzy when i stand up", "light-headed on standing", "blood pressure drop when standing"], sources: MC },
  { canonical: "dehydration", heading: "Dehydration", synonyms: ["dehydrated", "hypohydration"], lay: ["not drinking enough water", "not drinking enough fluids", "not drinking enough fluid"], sources: MC },
  { canonical: "malnutrition", heading: "Malnutrition", synonyms: ["undernutrition", "malnourished", "undernourished", "malnourishment"], lay: ["poor nutrition", "poorly nourished"], members: ["protein-energy malnutrition"], sources: MC },
  { canonical: "elder abuse", heading: "Elder Abuse", synonyms: ["elder mistreatment", "elder neglect", "abuse of older people", "abuse of the elderly", "abuse of older adults"], lay: ["granny abuse", "abuse of old people", "abuse of elderly people"], sources: MC },
  { canonical: "assisted living facilities", heading: "Assisted Living Facilities", synonyms: ["assisted living facility", "assisted living", "assisted-living facilities"], lay: ["assisted living home", "assisted living homes"], sources: MC },
  { canonical: "housing for the elderly", heading: "Housing for the Elderly", synonyms: ["senior housing", "retirement communities", "retirement community", "continuing care retirement community", "continuing care retirement communities"], lay: ["sheltered housing", "sheltered accommodation", "retirement village", "retirement villages", "retirement flat", "retirement flats"], sources: MC },
  { canonical: "home care services", heading: "Home Care Services", synonyms: ["home care", "home health care", "home healthcare", "domiciliary care", "home-based care", "home help services"], lay: ["home help", "carers coming in", "carers coming to the house", "care at home", "home carers", "help at home"], sources: MC },
  { canonical: "terminal care", heading: "Terminal Care", synonyms: ["end-of-life care", "end of life care", "care of the dying"], lay: ["dying well", "last days of life", "care when dying", "care at the end of life"], sources: MC },
  { canonical: "hospice care", heading: "Hospice Care", synonyms: ["hospice", "hospices", "hospice services"], lay: ["hospice at home", "going into a hospice"], sources: MC },
  { canonical: "palliative care", heading: "Palliative Care", synonyms: ["palliative treatment", "palliative therapy", "palliation"], lay: ["comfort care", "comfort measures"], sources: MC },
  { canonical: "advance directives", heading: "Advance Directives", synonyms: ["advance directive", "advance decision", "advance decisions", "advance decision to refuse treatment"], lay: ["living will", "living wills", "end-of-life wishes", "end of life wishes"], sources: MC },
  { canonical: "resuscitation orders", heading: "Resuscitation Orders", synonyms: ["do-not-resuscitate orders", "do-not-resuscitate order", "do-not-resuscitate", "dnr order", "dnr orders", "dnar", "dnacpr", "do not attempt resuscitation", "do-not-attempt-resuscitation"], lay: ["do not resuscitate", "dnr form", "not for resuscitation"], sources: MC },

  // Common chronic conditions and their medicines
  { canonical: "diabetes mellitus, type 2", heading: "Diabetes Mellitus, Type 2", synonyms: ["type 2 diabetes", "type 2 diabetes mellitus", "type ii diabetes", "type ii diabetes mellitus", "t2dm", "niddm", "non-insulin-dependent diabetes", "non-insulin-dependent diabetes mellitus", "adult-onset diabetes", "maturity-onset diabetes"], lay: ["diabetes type 2", "late-onset diabetes", "type two diabetes"], sources: MC },
  // "asa" is left out: in a record it is as often the American Society of Anesthesiologists' grade.
  { canonical: "aspirin", heading: "Aspirin", synonyms: ["acetylsalicylic acid", "low-dose aspirin"], lay: ["baby aspirin", "junior aspirin", "daily aspirin", "an aspirin a day", "aspirin a day"], sources: MA },
  { canonical: "platelet aggregation inhibitors", heading: "Platelet Aggregation Inhibitors", synonyms: ["antiplatelet agents", "antiplatelet agent", "antiplatelet drugs", "antiplatelet therapy", "antiplatelets", "platelet inhibitors"], lay: ["blood thinners", "blood thinner"], members: ["aspirin", "clopidogrel", "ticagrelor", "prasugrel", "dipyridamole", "ticlopidine", "cilostazol"], sources: MA },
  { canonical: "kidney calculi", heading: "Kidney Calculi", synonyms: ["kidney stones", "kidney stone", "renal calculi", "renal stones", "renal stone", "nephrolithiasis", "renal calculus"], lay: ["stone in the kidney", "kidney gravel"], sources: MC },
  { canonical: "varicose veins", heading: "Varicose Veins", synonyms: ["varicose vein", "varicosities", "varices of the legs"], lay: ["bulging veins", "bulging leg veins", "swollen veins in the legs", "twisted veins"], sources: MC },
  { canonical: "leg ulcer", heading: "Leg Ulcer", synonyms: ["leg ulcers", "leg ulceration", "lower leg ulcer"], lay: ["leg sores", "sores on the legs", "open sore on the leg", "leg wound that won't heal"], members: ["venous leg ulcer", "venous leg ulcers", "varicose ulcer", "venous ulcers"], sources: MC },
  { canonical: "peripheral arterial disease", heading: "Peripheral Arterial Disease", synonyms: ["peripheral artery disease", "peripheral arterial occlusive disease", "lower extremity arterial disease", "lower extremity peripheral artery disease"], lay: ["poor circulation in the legs", "poor circulation in my legs", "blocked leg arteries", "clogged leg arteries", "narrowed leg arteries", "furred leg arteries", "blocked arteries in the legs"], sources: MC },
  { canonical: "intermittent claudication", heading: "Intermittent Claudication", lay: ["leg pain when walking", "calf pain when walking", "calf pain on walking", "leg cramps when walking", "pain in the legs when walking"], sources: MC },
  { canonical: "angina pectoris", heading: "Angina Pectoris", synonyms: ["angina", "anginal", "anginal pain"], lay: ["chest pain on exertion", "chest pain when walking", "heart pain", "heart pains", "chest tightness on exertion"], members: ["stable angina", "unstable angina", "microvascular angina"], sources: MC },
  // No MeSH descriptor of its own (MeSH files palpitations under the arrhythmias).
  { canonical: "palpitations", synonyms: ["palpitation", "heart palpitations", "cardiac palpitations"], lay: ["racing heart", "heart racing", "pounding heart", "heart pounding", "thumping heart", "skipped heartbeat", "skipped heartbeats", "skipped beats", "heart skipping a beat", "heart skipping beats", "missed heartbeats"], sources: MC },
  { canonical: "tremor", heading: "Tremor", synonyms: ["tremors", "tremulousness", "hand tremor"], lay: ["shaky hands", "shaky hand", "trembling hands", "hands shaking", "hands shake", "hand shaking"], members: ["essential tremor", "parkinsonian tremor"], sources: MC },
  { canonical: "parkinson disease", heading: "Parkinson Disease", synonyms: ["parkinson's disease", "parkinsons disease", "parkinson's", "paralysis agitans", "idiopathic parkinson's disease"], lay: ["shaking palsy", "parkinsons"], sources: MC },
  { canonical: "chronic pain", heading: "Chronic Pain", synonyms: ["persistent pain", "long-term pain", "chronic pain conditions"], lay: ["pain that won't go away", "constant pain", "ongoing pain", "living with pain"], sources: MC },
  { canonical: "post-acute covid-19 syndrome", heading: "Post-Acute COVID-19 Syndrome", synonyms: ["long covid", "post-covid-19 condition", "post-covid condition", "post-covid syndrome", "post-acute sequelae of sars-cov-2", "pasc", "long-haul covid"], lay: ["covid long-haulers", "still ill after covid", "not recovered from covid"], sources: MC },
  { canonical: "levothyroxine", synonyms: ["levothyroxine sodium", "l-thyroxine", "levothyroxine therapy", "synthroid", "eltroxin"], lay: ["thyroxine tablets", "thyroxine pills", "thyroid hormone tablets", "thyroid hormone pills"], sources: MA },
  { canonical: "antacids", heading: "Antacids", synonyms: ["antacid", "antacid therapy"], lay: ["indigestion tablets", "indigestion remedies", "indigestion medicine", "gaviscon", "rennies"], sources: MA },
  { canonical: "nicotine replacement therapy", synonyms: ["nicotine replacement", "nrt", "nicotine patch", "nicotine patches", "nicotine gum", "nicotine lozenges", "transdermal nicotine"], lay: ["quit smoking patches", "stop smoking patches", "nicotine spray"], sources: MC },

  // Everyday habits and what people take
  { canonical: "walking", heading: "Walking", synonyms: ["walking exercise", "walking programme", "walking program"], lay: ["going for walks", "going for a walk", "daily walk", "daily walks", "a walk every day", "regular walks"], sources: MC },
  // No MeSH descriptor: step counts are a measure of walking.
  { canonical: "step count", synonyms: ["step counts", "daily steps", "steps per day", "daily step count", "steps/day"], lay: ["10,000 steps", "10000 steps", "ten thousand steps", "steps a day", "how many steps"], sources: MC },
  { canonical: "fitness trackers", synonyms: ["fitness tracker", "activity tracker", "activity trackers", "wearable activity tracker", "wearable activity trackers", "pedometer", "pedometers", "step counter", "step counters"], lay: ["fitbit", "fitbits"], sources: MC },
  { canonical: "cognitive training", synonyms: ["computerized cognitive training", "computerised cognitive training", "brain training", "cognitive exercise", "cognitive exercises", "memory training"], lay: ["brain games", "brain-training games", "brain training games", "brain training apps", "brain exercises", "mental exercises", "memory games", "keeping the brain active", "keep the brain active", "keeping my brain active", "keeping the mind active", "keeping my mind active"], sources: MC },
  { canonical: "tai chi", heading: "Tai Ji", synonyms: ["tai ji", "tai chi chuan", "taiji", "taijiquan", "tai ji quan"], sources: MC },
  { canonical: "sunlight", heading: "Sunlight", synonyms: ["sun exposure", "sunlight exposure", "solar exposure"], lay: ["sunshine", "time in the sun", "getting sun", "sunbathing", "sitting in the sun", "being in the sun"], sources: MC },
  { canonical: "sunscreening agents", heading: "Sunscreening Agents", synonyms: ["sunscreen", "sunscreens", "sunblock", "sunblocks", "sunscreen use"], lay: ["sun cream", "suncream", "sun lotion", "sun block", "sun protection cream"], sources: MC },
  { canonical: "dietary supplements", heading: "Dietary Supplements", synonyms: ["dietary supplement", "nutritional supplements", "nutritional supplement", "food supplements", "dietary supplement use"], lay: ["health supplements", "supplement pills", "supplement tablets", "vitamins and supplements"], sources: MC },
  { canonical: "multivitamins", synonyms: ["multivitamin", "multivitamin supplements", "multivitamin supplement", "multivitamin-multimineral supplements", "multivitamin and mineral supplements"], lay: ["vitamin pills", "vitamin tablets", "daily vitamin pill", "a daily vitamin", "one-a-day vitamins"], sources: MC },
  { canonical: "fish oils", heading: "Fish Oils", synonyms: ["fish oil", "fish oil supplements", "fish oil supplementation"], lay: ["fish oil capsules", "fish oil pills", "fish oil tablets"], sources: MC },
  // "epa" and "dha" are left out as members: in a record they also abbreviate other names.
  { canonical: "fatty acids, omega-3", heading: "Fatty Acids, Omega-3", synonyms: ["omega-3 fatty acids", "omega-3 fatty acid", "n-3 fatty acids", "n-3 polyunsaturated fatty acids", "omega-3 polyunsaturated fatty acids", "omega-3 pufa", "n-3 pufa", "omega-3s", "omega-3"], lay: ["omega 3", "omega threes", "omega-3 supplements", "omega-3 pills", "omega-3 capsules"], members: ["eicosapentaenoic acid", "icosapent ethyl", "docosahexaenoic acid", "alpha-linolenic acid"], sources: MC },
  { canonical: "curcumin", heading: "Curcumin", synonyms: ["curcuminoids", "curcuminoid"], lay: ["turmeric", "turmeric supplements", "turmeric capsules", "turmeric pills"], sources: MC },
  { canonical: "coenzyme q10", heading: "Ubiquinone", synonyms: ["coq10", "co-enzyme q10", "ubiquinol", "ubiquinone"], lay: ["co q10", "co-q10"], sources: MC },
  { canonical: "probiotics", heading: "Probiotics", synonyms: ["probiotic", "probiotic supplements", "probiotic supplementation"], lay: ["good bacteria", "friendly bacteria", "probiotic yoghurt", "probiotic yogurt", "probiotic drinks", "live yoghurt", "live yogurt"], sources: MC },
  { canonical: "hypericum", heading: "Hypericum", synonyms: ["st john's wort", "st. john's wort", "saint john's wort", "st johns wort", "hypericum perforatum"], sources: MC },
  { canonical: "melatonin", heading: "Melatonin", synonyms: ["melatonin supplements", "exogenous melatonin", "prolonged-release melatonin"], lay: ["sleep hormone", "melatonin gummies", "melatonin tablets"], sources: MC },
  { canonical: "diet, vegetarian", heading: "Diet, Vegetarian", synonyms: ["vegetarian diet", "vegetarian diets", "vegetarianism", "vegetarians", "lacto-ovo vegetarian"], lay: ["going vegetarian", "cutting out meat", "giving up meat", "meat-free diet"], members: ["vegan diet", "vegan diets", "veganism", "vegans"], sources: MC },
  { canonical: "diet, vegan", heading: "Diet, Vegan", synonyms: ["vegan diet", "vegan diets", "veganism", "vegans"], lay: ["going vegan", "plant-only diet", "no animal products"], sources: MC },
  { canonical: "plant-based diet", synonyms: ["plant-based diets", "plant-based eating", "plant-rich diet"], lay: ["eating more plants", "mostly plants"], sources: MC },
  { canonical: "diet, ketogenic", heading: "Diet, Ketogenic", synonyms: ["ketogenic diet", "ketogenic diets", "keto diet", "very low-carbohydrate ketogenic diet"], lay: ["keto", "going keto", "keto diets"], sources: MC },
  { canonical: "diet, carbohydrate-restricted", heading: "Diet, Carbohydrate-Restricted", synonyms: ["low-carbohydrate diet", "low carbohydrate diet", "low-carbohydrate diets", "carbohydrate-restricted diet", "carbohydrate restriction", "low-carb diet", "low carb diet"], lay: ["cutting carbs", "cutting out carbs", "cutting down on carbs", "no-carb diet", "low carb", "low-carb"], members: ["ketogenic diet", "keto diet", "atkins diet"], sources: MC },
  { canonical: "diet, mediterranean", heading: "Diet, Mediterranean", synonyms: ["mediterranean diet", "mediterranean-style diet", "mediterranean dietary pattern"], lay: ["med diet", "mediterranean food", "mediterranean eating"], sources: MC },
  { canonical: "sodium chloride, dietary", heading: "Sodium Chloride, Dietary", synonyms: ["dietary salt", "salt intake", "dietary sodium", "sodium intake", "salt consumption", "sodium chloride intake"], lay: ["salty food", "salty foods", "too much salt", "cutting down on salt", "cutting out salt", "eating less salt", "salt in food", "adding salt"], sources: MC },
  { canonical: "dietary sugars", heading: "Dietary Sugars", synonyms: ["dietary sugar", "added sugar", "added sugars", "free sugars", "sugar intake", "sugar consumption"], lay: ["sugary foods", "sugary food", "sweet foods", "eating sugar", "cutting out sugar", "cutting down on sugar", "sweet treats"], sources: MC },
  { canonical: "dietary fiber", heading: "Dietary Fiber", synonyms: ["fiber intake", "dietary fiber intake", "high-fiber diet", "high fiber diet"], lay: ["roughage", "bran", "fiber-rich foods", "high-fiber foods"], sources: MC },
  { canonical: "botulinum toxins, type a", heading: "Botulinum Toxins, Type A", synonyms: ["botulinum toxin type a", "botulinum toxin a", "onabotulinumtoxina", "abobotulinumtoxina", "incobotulinumtoxina", "botox"], lay: ["botox injections", "botox jabs", "anti-wrinkle injections"], sources: MA },

  // The body and its everyday complaints
  { canonical: "coccyx", heading: "Coccyx", synonyms: ["coccygeal"], lay: ["tailbone", "tail bone"], sources: MC },
  { canonical: "zygoma", heading: "Zygoma", synonyms: ["zygomatic bone", "zygomatic bones"], lay: ["cheekbone", "cheekbones", "cheek bone"], sources: MC },
  { canonical: "achilles tendon", heading: "Achilles Tendon", synonyms: ["calcaneal tendon"], lay: ["heel cord", "heel tendon"], sources: MC },
  { canonical: "hallux", heading: "Hallux", synonyms: ["great toe"], lay: ["big toe", "big toes"], sources: MC },
  { canonical: "umbilicus", heading: "Umbilicus", synonyms: ["navel"], lay: ["belly button", "tummy button"], sources: MC },
  { canonical: "molar, third", heading: "Molar, Third", synonyms: ["third molar", "third molars"], lay: ["wisdom tooth", "wisdom teeth"], sources: MC },
  { canonical: "tooth, deciduous", heading: "Tooth, Deciduous", synonyms: ["primary teeth", "deciduous teeth", "primary dentition", "deciduous tooth", "primary tooth"], lay: ["baby teeth", "baby tooth", "milk teeth"], sources: MC },
  { canonical: "cerumen", heading: "Cerumen", synonyms: ["impacted cerumen", "cerumen impaction", "impacted earwax"], lay: ["earwax", "ear wax", "wax in the ears", "wax in my ears"], sources: MC },
  { canonical: "sinusitis", heading: "Sinusitis", synonyms: ["rhinosinusitis", "chronic rhinosinusitis", "acute rhinosinusitis", "acute sinusitis", "chronic sinusitis"], lay: ["sinus infection", "sinus infections", "blocked sinuses", "sinus trouble", "sinus problems"], sources: MC },
  { canonical: "nasal obstruction", heading: "Nasal Obstruction", synonyms: ["nasal congestion", "nasal blockage"], lay: ["blocked nose", "stuffy nose", "stuffed up nose", "bunged up nose"], sources: MC },
  { canonical: "olfaction disorders", heading: "Olfaction Disorders", synonyms: ["olfactory dysfunction", "olfactory impairment", "olfactory loss", "smell loss", "anosmia", "hyposmia", "smell disorders"], lay: ["loss of smell", "lost my sense of smell", "losing my sense of smell", "loss of sense of smell", "can't smell"], sources: MC },
  { canonical: "taste disorders", heading: "Taste Disorders", synonyms: ["taste dysfunction", "dysgeusia", "ageusia", "hypogeusia", "taste loss", "taste impairment"], lay: ["loss of taste", "lost my sense of taste", "can't taste", "metallic taste"], sources: MC },
  { canonical: "halitosis", heading: "Halitosis", synonyms: ["oral malodor", "oral malodour", "fetor oris"], lay: ["bad breath", "smelly breath"], sources: MC },
  { canonical: "bruxism", heading: "Bruxism", synonyms: ["sleep bruxism", "tooth grinding", "teeth grinding"], lay: ["grinding teeth", "grinding my teeth", "clenching teeth", "jaw clenching", "teeth clenching"], sources: MC },
  { canonical: "lymphadenopathy", heading: "Lymphadenopathy", synonyms: ["lymphadenopathies", "lymph node enlargement", "enlarged lymph nodes", "swollen lymph nodes"], lay: ["swollen glands", "swollen gland"], sources: MC },
  { canonical: "pruritus", heading: "Pruritus", synonyms: ["pruritic", "itch", "itching"], lay: ["itchy skin", "itchiness", "itchy"], sources: MC },
  { canonical: "paresthesia", heading: "Paresthesia", synonyms: ["paraesthesia", "paresthesias", "paraesthesiae"], lay: ["pins and needles", "tingling", "tingly", "numbness and tingling", "tingling and numbness"], sources: MC },
  { canonical: "muscle cramp", heading: "Muscle Cramp", synonyms: ["muscle cramps", "muscle cramping", "nocturnal leg cramps"], lay: ["leg cramps", "leg cramp", "night cramps", "cramps at night", "charley horse", "calf cramps"], sources: MC },
  { canonical: "hallux valgus", heading: "Hallux Valgus", synonyms: ["hallux abducto valgus"], lay: ["bunion", "bunions"], sources: MC },
  { canonical: "nails, ingrown", heading: "Nails, Ingrown", synonyms: ["ingrown toenail", "ingrown toenails", "onychocryptosis", "ingrown nail", "ingrowing toenail"], lay: ["ingrowing toenails"], sources: MC },
  { canonical: "onychomycosis", heading: "Onychomycosis", synonyms: ["tinea unguium", "fungal nail infection", "fungal nail infections"], lay: ["nail fungus", "toenail fungus", "fungal toenails", "fungal nails"], sources: MC },
  { canonical: "tinea pedis", heading: "Tinea Pedis", lay: ["athlete's foot", "athletes foot", "foot fungus"], sources: MC },
  { canonical: "medial tibial stress syndrome", heading: "Medial Tibial Stress Syndrome", synonyms: ["shin splints", "shin splint", "mtss"], sources: MC },
  { canonical: "patellofemoral pain syndrome", heading: "Patellofemoral Pain Syndrome", synonyms: ["patellofemoral pain", "pfps"], lay: ["runner's knee", "runners knee", "pain around the kneecap", "pain behind the kneecap"], sources: MC },
  { canonical: "plantar fasciitis", heading: "Fasciitis, Plantar", synonyms: ["plantar fasciopathy", "plantar heel pain"], lay: ["policeman's heel"], sources: MC },
  { canonical: "hydrarthrosis", heading: "Hydrarthrosis", synonyms: ["joint effusion", "knee effusion", "knee joint effusion"], lay: ["water on the knee", "fluid on the knee"], sources: MC },
  { canonical: "nocturnal enuresis", heading: "Nocturnal Enuresis", synonyms: ["nighttime enuresis", "bedwetting", "bed-wetting"], lay: ["bed wetting", "wetting the bed", "wets the bed"], sources: MC },
  { canonical: "ostomy", heading: "Ostomy", synonyms: ["ostomies"], lay: ["stoma bag", "stoma bags", "colostomy bag", "ostomy bag", "bag on the tummy"], members: ["colostomy", "ileostomy", "urostomy"], sources: MC },
];
