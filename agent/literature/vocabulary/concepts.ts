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
  { canonical: "aging", heading: "Aging", synonyms: ["ageing", "senescence", "biological aging"], lay: ["getting older", "growing old", "growing older"], sources: MC },
  { canonical: "longevity", heading: "Longevity", synonyms: ["lifespan", "life span", "life-span", "survival", "life expectancy"], lay: ["live longer", "living longer", "long life", "add years to my life", "add years to life", "years to my life", "extra years of life"], sources: MC },
  { canonical: "healthspan", synonyms: ["health span", "healthy life expectancy", "healthy aging", "healthy ageing"], sources: M },
  { canonical: "mortality", heading: "Mortality", synonyms: ["death", "deaths", "survival", "death rate", "fatality", "fatalities"], lay: ["dying", "die", "died", "alive", "risk of dying", "live longer", "living longer", "longer life", "add years to my life", "add years to life"], sources: MC },
  { canonical: "cardiovascular mortality", synonyms: ["cardiovascular death", "cardiovascular deaths", "cardiac death", "fatal cardiovascular disease", "fatal coronary heart disease", "cardiovascular disease mortality"], lay: ["deaths from heart disease", "death from heart disease", "dying of heart disease", "heart deaths"], sources: MC },
  { canonical: "older adults", heading: "Aged", synonyms: ["elderly", "older people", "older persons", "older patients", "older adult", "geriatric", "elderly patients", "older individuals", "senior citizens"], lay: ["old people", "older folks", "old folks", "pensioners", "grandma", "grandpa", "grandparents", "the aged", "seniors"], members: ["octogenarians", "nonagenarians", "centenarians"], sources: MC },
  { canonical: "frailty", heading: "Frailty", synonyms: ["frail", "frail elderly"], lay: ["weak and frail"], sources: MC },
  { canonical: "sarcopenia", heading: "Sarcopenia", synonyms: ["age-related muscle loss"], lay: ["muscle loss", "losing muscle"], sources: MC },
  { canonical: "caloric restriction", heading: "Caloric Restriction", synonyms: ["calorie restriction", "dietary restriction", "energy restriction"], lay: ["eating less", "cutting calories"], sources: MC },
  { canonical: "protein restriction", synonyms: ["dietary protein restriction", "low-protein diet", "low protein diet", "low-protein diets", "low protein intake", "protein-restricted diet"], lay: ["eating less protein", "less protein", "cutting down on protein"], sources: MC },
  { canonical: "dietary proteins", heading: "Dietary Proteins", synonyms: ["dietary protein", "protein intake", "protein consumption"], lay: ["eating less protein", "eating more protein", "eating protein", "less protein", "more protein"], sources: MC },
  { canonical: "intermittent fasting", heading: "Intermittent Fasting", synonyms: ["time-restricted eating", "time-restricted feeding", "alternate-day fasting"], lay: ["fasting diet"], sources: MC },
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
  { canonical: "general practice", heading: "General Practice", synonyms: ["general practitioners", "general practitioner", "primary care", "primary health care", "family practice", "family physicians", "family medicine", "gp"], lay: ["gps", "family doctor", "family doctors", "gp surgeries", "gp surgery", "local doctor"], sources: MC },
  { canonical: "pharmacists", heading: "Pharmacists", synonyms: ["pharmacist", "pharmacy", "pharmacies"], lay: ["chemist"], sources: MC },
  { canonical: "intensive care unit", heading: "Intensive Care Units", synonyms: ["intensive care units", "icu", "critical care", "intensive care", "critically ill"], lay: ["intensive care ward"], sources: MC },
  { canonical: "emergency department", heading: "Emergency Service, Hospital", synonyms: ["emergency departments", "emergency room", "accident and emergency", "emergency medicine"], lay: ["a&e"], sources: MC },
  { canonical: "nursing homes", heading: "Nursing Homes", synonyms: ["nursing home", "long-term care", "care homes", "care home", "residential care", "long-term care facilities"], lay: ["old people's home", "retirement home"], sources: MC },
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
  { canonical: "thyroid gland", heading: "Thyroid Gland", synonyms: ["thyroid"], sources: MC },
  { canonical: "spine", synonyms: ["spinal", "vertebral", "vertebrae", "vertebra"], lay: ["backbone", "back bone"], members: ["lumbar spine", "cervical spine", "thoracic spine"], sources: MC },
  { canonical: "skeleton", synonyms: ["bone", "bones", "skeletal", "osseous"], sources: M },
  { canonical: "skin", synonyms: ["cutaneous", "dermal", "dermatologic"], sources: M },
  { canonical: "eye", synonyms: ["eyes", "ocular", "ophthalmic", "ophthalmologic"], sources: M },
  { canonical: "blood vessels", heading: "Blood Vessels", synonyms: ["vascular"], lay: ["vessels"], members: ["microvascular", "arteries", "veins", "capillaries"], sources: MC },
  { canonical: "lymph nodes", heading: "Lymph Nodes", synonyms: ["lymph node", "nodal", "lymphatic"], lay: ["glands", "lymph glands"], sources: MC },
  { canonical: "heart valves", heading: "Heart Valves", synonyms: ["heart valve", "valvular"], members: ["mitral valve", "aortic valve", "tricuspid valve"], sources: MC },
  { canonical: "intervertebral disc", heading: "Intervertebral Disc", synonyms: ["intervertebral", "intervertebral discs", "nucleus pulposus"], sources: MC },
  { canonical: "knee", synonyms: ["knees", "knee joint"], sources: M },
  { canonical: "shoulder", synonyms: ["shoulders", "shoulder joint", "rotator cuff"], sources: M },
  { canonical: "hip", synonyms: ["hips", "hip joint"], sources: M },

  // Conditions, lay ↔ technical
  { canonical: "hip fractures", heading: "Hip Fractures", synonyms: ["hip fracture", "femoral neck fracture", "femoral neck fractures", "proximal femoral fracture", "proximal femoral fractures", "proximal femur fracture", "fracture of the proximal femur", "fractures of the proximal femur", "intertrochanteric fracture", "trochanteric fracture", "fractured neck of femur", "fractured hip"], lay: ["broken hip", "broke her hip", "broke his hip", "broken hips"], sources: MC },
  { canonical: "fractures", heading: "Fractures, Bone", synonyms: ["fracture", "fractured"], lay: ["broken bone", "broken bones", "broken"], sources: MC },
  { canonical: "rehabilitation", heading: "Rehabilitation", synonyms: ["rehabilitative", "rehabilitation ward", "rehabilitation unit", "rehabilitation programme", "rehabilitation program"], lay: ["rehab", "rehab unit", "rehab ward", "getting back on their feet"], members: ["physiotherapy", "physical therapy", "occupational therapy"], sources: MC },
  { canonical: "diabetes mellitus", heading: "Diabetes Mellitus", synonyms: ["diabetes", "diabetic", "diabetics"], lay: ["high sugar", "high blood sugar", "sugar disease", "sugar diabetes"], sources: MC },
  { canonical: "gestational diabetes", heading: "Diabetes, Gestational", synonyms: ["gestational diabetes mellitus", "gdm", "diabetes in pregnancy"], lay: ["pregnancy diabetes", "sugar in pregnancy"], sources: MC },
  { canonical: "hypoglycemia", heading: "Hypoglycemia", synonyms: ["hypoglycaemia", "hypoglycemic", "hypoglycaemic", "low blood glucose"], lay: ["low sugar", "low blood sugar", "hypo", "hypos"], sources: MC },
  { canonical: "insulin", heading: "Insulin", synonyms: ["insulin therapy", "insulin-treated", "basal insulin", "insulin glargine"], lay: ["insulin jabs", "insulin shots"], sources: MC },
  { canonical: "blood glucose", heading: "Blood Glucose", synonyms: ["glucose", "glycemia", "glycaemia", "glycemic", "glycaemic", "hba1c"], lay: ["blood sugar", "sugar levels", "sugar level"], sources: MC },
  { canonical: "hypertension", heading: "Hypertension", synonyms: ["hypertensive", "high blood pressure", "elevated blood pressure"], lay: ["high bp"], sources: MC },
  { canonical: "blood pressure", heading: "Blood Pressure", synonyms: ["systolic", "diastolic"], lay: ["bp machine"], sources: MC },
  { canonical: "myocardial infarction", heading: "Myocardial Infarction", synonyms: ["myocardial infarct", "acute myocardial infarction", "stemi", "nstemi"], lay: ["heart attack", "heart attacks"], sources: MC },
  { canonical: "heart failure", heading: "Heart Failure", synonyms: ["cardiac failure", "congestive heart failure"], lay: ["weak heart", "failing heart", "enlarged heart"], sources: MC },
  { canonical: "atrial fibrillation", heading: "Atrial Fibrillation", synonyms: ["af", "afib"], lay: ["irregular heartbeat", "irregular beat", "irregular heart beat", "heart flutter"], sources: MC },
  { canonical: "stroke", heading: "Stroke", synonyms: ["strokes", "cerebrovascular accident", "cerebral infarction", "ischemic stroke", "ischaemic stroke", "haemorrhagic stroke", "hemorrhagic stroke"], lay: ["brain attack", "mini-stroke", "brain bleed"], sources: MC },
  { canonical: "thrombosis", heading: "Thrombosis", synonyms: ["thrombus", "thrombotic"], lay: ["blood clot", "blood clots", "clot", "clots"], members: ["venous thromboembolism", "deep vein thrombosis", "pulmonary embolism", "thromboembolism"], sources: MC },
  { canonical: "anticoagulants", heading: "Anticoagulants", synonyms: ["anticoagulant", "anticoagulation", "antithrombotic"], lay: ["blood thinner", "blood thinners", "blood-thinning"], members: ["heparin", "low-molecular-weight heparin", "enoxaparin", "warfarin", "dabigatran", "rivaroxaban", "apixaban"], sources: MA },
  { canonical: "dementia", heading: "Dementia", synonyms: ["major neurocognitive disorder", "dementias", "demented"], lay: ["memory loss", "senility", "losing their memory"], members: ["alzheimer", "alzheimer's", "alzheimer's disease", "alzheimer disease", "vascular dementia", "lewy body dementia", "frontotemporal dementia"], sources: MC },
  { canonical: "cognitive dysfunction", heading: "Cognitive Dysfunction", synonyms: ["cognitive decline", "cognitive impairment", "cognitive deficits"], lay: ["memory problems", "brain fog", "getting forgetful"], members: ["mild cognitive impairment"], sources: MC },
  { canonical: "depression", heading: "Depression", synonyms: ["depressive disorder", "major depression", "major depressive disorder", "depressive symptoms", "depressed"], lay: ["low mood", "feeling low", "feeling down"], sources: MC },
  { canonical: "bipolar disorder", heading: "Bipolar Disorder", synonyms: ["bipolar", "mania", "manic", "hypomania", "hypomanic", "bipolar spectrum"], lay: ["manic depression", "mood swings"], sources: MC },
  { canonical: "schizophrenia", heading: "Schizophrenia", synonyms: ["schizophrenic", "schizoaffective"], lay: ["hearing voices"], sources: MC },
  { canonical: "suicide", heading: "Suicide", synonyms: ["suicidal", "suicides"], lay: ["taking their own lives", "taking their own life", "killing themselves", "took their own life"], sources: MC },
  { canonical: "obesity", heading: "Obesity", synonyms: ["obese", "overweight", "adiposity", "morbid obesity", "severe obesity"], lay: ["chubby", "too heavy", "very overweight", "plump"], sources: MC },
  { canonical: "body weight", heading: "Body Weight", synonyms: ["body mass index", "bmi", "body size"], lay: ["how heavy", "heaviness"], sources: MC },
  { canonical: "thinness", heading: "Thinness", synonyms: ["underweight"], lay: ["skinny"], sources: MC },
  { canonical: "bariatric surgery", heading: "Bariatric Surgery", synonyms: ["gastric bypass", "sleeve gastrectomy", "gastric banding", "weight loss surgery"], lay: ["stomach stapling", "weight-loss surgery", "gastric band"], sources: MC },
  { canonical: "sleep initiation and maintenance disorders", heading: "Sleep Initiation and Maintenance Disorders", synonyms: ["insomnia", "primary insomnia", "chronic insomnia", "insomnia disorder"], lay: ["trouble sleeping", "sleeplessness", "can't sleep", "cannot sleep", "poor sleep", "sleep problems"], sources: MC },
  { canonical: "sleep latency", heading: "Sleep Latency", synonyms: ["sleep onset latency", "sleep-onset latency", "time to sleep onset"], lay: ["fall asleep", "falling asleep", "get to sleep", "getting to sleep", "sleep faster", "time to fall asleep"], sources: MC },
  { canonical: "sleep apnea", heading: "Sleep Apnea, Obstructive", synonyms: ["obstructive sleep apnea", "obstructive sleep apnoea", "sleep apnoea", "osa", "sleep-disordered breathing"], sources: MC },
  { canonical: "continuous positive airway pressure", heading: "Continuous Positive Airway Pressure", synonyms: ["cpap", "positive airway pressure", "autocpap", "cpap titration"], lay: ["breathing mask"], sources: MC },
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
  { canonical: "influenza", heading: "Influenza, Human", synonyms: ["grippe"], lay: ["flu", "flu jab", "flu shot"], sources: MC },
  { canonical: "substance abuse, intravenous", heading: "Substance Abuse, Intravenous", synonyms: ["injection drug use", "injecting drug use", "intravenous drug use", "people who inject drugs"], lay: ["shooting up", "injecting drugs"], sources: MC },
  { canonical: "opioids", heading: "Analgesics, Opioid", synonyms: ["opioid", "opiate", "opiates", "opioid analgesics"], lay: ["strong painkiller", "strong painkillers"], members: ["fentanyl", "morphine", "oxycodone", "heroin", "methadone", "buprenorphine", "tramadol", "codeine"], sources: MA },
  { canonical: "analgesics", heading: "Analgesics", synonyms: ["analgesic", "analgesia"], lay: ["painkiller", "painkillers", "pain killers", "pain pills"], sources: MC },
  { canonical: "neoplasms", heading: "Neoplasms", synonyms: ["cancer", "cancers", "tumor", "tumors", "tumour", "tumours", "carcinoma", "malignancy", "malignancies", "neoplasm"], lay: ["malignant growth"], sources: MC },
  { canonical: "neoplasm metastasis", heading: "Neoplasm Metastasis", synonyms: ["metastasis", "metastases", "metastatic", "metastasized"], lay: ["has spread", "had spread", "cancer spread", "spread to"], sources: MC },
  { canonical: "melanoma", heading: "Melanoma", synonyms: ["melanomas", "malignant melanoma", "cutaneous melanoma"], sources: MC },
  { canonical: "lung neoplasms", heading: "Lung Neoplasms", synonyms: ["lung cancer", "non-small cell lung cancer", "nsclc", "small cell lung cancer", "bronchogenic carcinoma"], sources: MC },
  { canonical: "breast neoplasms", heading: "Breast Neoplasms", synonyms: ["breast cancer", "breast carcinoma", "breast tumor", "breast tumour"], sources: MC },
  { canonical: "colorectal neoplasms", heading: "Colorectal Neoplasms", synonyms: ["colorectal cancer", "colon cancer", "rectal cancer", "rectal carcinoma", "colorectal carcinoma"], lay: ["bowel cancer"], sources: MC },
  { canonical: "endometrial neoplasms", heading: "Endometrial Neoplasms", synonyms: ["endometrial cancer", "endometrial carcinoma", "uterine cancer"], lay: ["womb cancer", "cancer of the womb"], sources: MC },
  { canonical: "thyroid neoplasms", heading: "Thyroid Neoplasms", synonyms: ["thyroid cancer", "thyroid carcinoma", "papillary thyroid carcinoma", "differentiated thyroid cancer"], sources: MC },
  { canonical: "prostatic neoplasms", heading: "Prostatic Neoplasms", synonyms: ["prostate cancer", "prostate carcinoma"], sources: MC },
  { canonical: "mammography", heading: "Mammography", synonyms: ["mammogram", "mammograms", "mammographic", "breast cancer screening", "breast screening"], lay: ["breast x-ray", "breast x-rays"], sources: MC },
  { canonical: "scoliosis", heading: "Scoliosis", synonyms: ["idiopathic scoliosis", "adolescent idiopathic scoliosis"], lay: ["curved spine"], sources: MC },
  { canonical: "intervertebral disc displacement", heading: "Intervertebral Disc Displacement", synonyms: ["disc herniation", "herniated disc", "disk herniation", "herniated disk", "disc prolapse"], lay: ["slipped disc", "slipped disk", "pinched nerve", "trapped nerve"], sources: MC },
  { canonical: "menopause", heading: "Menopause", synonyms: ["menopausal", "perimenopause", "perimenopausal", "postmenopausal", "climacteric"], lay: ["the change", "change of life"], sources: MC },
  { canonical: "retinopathy of prematurity", heading: "Retinopathy of Prematurity", synonyms: ["rop"], sources: MC },
  { canonical: "infant, small for gestational age", heading: "Infant, Small for Gestational Age", synonyms: ["small for gestational age", "sga"], lay: ["small baby"], sources: MC },
  { canonical: "anorectal malformations", heading: "Anorectal Malformations", synonyms: ["anorectal malformation", "imperforate anus", "anal atresia"], sources: MC },
  { canonical: "urinary incontinence", heading: "Urinary Incontinence", synonyms: ["incontinence", "stress incontinence"], lay: ["leaking urine", "bladder leaks", "weak bladder"], sources: MC },
  { canonical: "pressure ulcer", heading: "Pressure Ulcer", synonyms: ["pressure ulcers", "decubitus ulcer", "pressure sore", "pressure sores", "pressure injury"], lay: ["bedsore", "bedsores", "bed sores"], sources: MC },
  { canonical: "accidental falls", heading: "Accidental Falls", synonyms: ["falls", "fallers"], lay: ["tripping", "taking a tumble"], sources: MC },
  { canonical: "osteoporosis", heading: "Osteoporosis", synonyms: ["osteoporotic"], lay: ["brittle bones", "thin bones", "weak bones", "bone thinning", "thinning bones"], sources: MC },
  { canonical: "osteoarthritis", heading: "Osteoarthritis", synonyms: ["osteoarthritic", "degenerative joint disease", "knee osteoarthritis"], lay: ["wear and tear arthritis", "worn joints"], sources: MC },
  { canonical: "pain", heading: "Pain", synonyms: ["painful", "ache", "aching"], lay: ["hurts", "hurting"], sources: MC },
  { canonical: "chronic kidney disease", heading: "Renal Insufficiency, Chronic", synonyms: ["chronic renal failure", "renal insufficiency", "end-stage renal disease", "ckd", "kidney failure", "renal failure"], lay: ["kidney disease", "failing kidneys"], sources: MC },
  { canonical: "heart arrest", heading: "Heart Arrest", synonyms: ["cardiac arrest", "cardiopulmonary arrest", "sudden cardiac death"], lay: ["heart stopped", "heart stopping"], sources: MC },
  { canonical: "hemorrhage", heading: "Hemorrhage", synonyms: ["haemorrhage", "bleeding", "hemorrhagic", "haemorrhagic"], lay: ["bleed", "bleeds"], sources: MC },
  { canonical: "smoking", heading: "Smoking", synonyms: ["smokers", "smoker", "tobacco", "cigarette", "cigarettes", "tobacco use"], lay: ["smokes"], sources: MC },
  { canonical: "alcohol drinking", heading: "Alcohol Drinking", synonyms: ["alcohol", "alcohol consumption", "alcohol use", "alcohol intake"], lay: ["booze", "drinks"], sources: MC },
  { canonical: "drug overdose", heading: "Drug Overdose", synonyms: ["overdose", "overdoses"], lay: ["od", "ods"], sources: MC },
  { canonical: "wounds and injuries", heading: "Wounds and Injuries", synonyms: ["injury", "injuries"], lay: ["hurt"], sources: MC },
  { canonical: "quality of life", heading: "Quality of Life", synonyms: ["health-related quality of life", "hrqol", "qol", "well-being", "wellbeing"], lay: ["day to day life", "life quality"], sources: MC },
  { canonical: "exercise", heading: "Exercise", synonyms: ["physical activity", "physical exercise", "exercise training", "physical training", "workout"], lay: ["working out", "staying active", "keeping active", "keeping fit"], sources: MC },
  { canonical: "cardiorespiratory fitness", heading: "Cardiorespiratory Fitness", synonyms: ["aerobic fitness", "aerobic capacity", "vo2max", "maximal oxygen uptake"], lay: ["fitness level", "being fit"], sources: MC },
  { canonical: "muscle strength", heading: "Muscle Strength", synonyms: ["muscular strength", "grip strength", "handgrip strength", "knee extensor strength", "leg strength"], lay: ["muscle weakness", "weak muscles", "weaker muscles", "strong muscles", "stronger muscles"], sources: MC },
  { canonical: "muscle weakness", heading: "Muscle Weakness", synonyms: ["muscular weakness", "loss of muscle strength", "reduced muscle strength"], lay: ["weak muscles", "weaker muscles"], sources: MC },
  { canonical: "myalgia", heading: "Myalgia", synonyms: ["muscle pain", "muscular pain", "muscle symptoms", "statin-associated muscle symptoms", "myalgias"], lay: ["muscle aches", "muscle ache", "aching muscles", "sore muscles", "muscle soreness"], sources: MC },
  { canonical: "loneliness", heading: "Loneliness", synonyms: ["lonely", "lonesome", "perceived social isolation"], lay: ["feeling lonely", "feeling alone", "being lonely"], sources: MC },
  { canonical: "social isolation", heading: "Social Isolation", synonyms: ["socially isolated", "social disconnection", "social contact"], lay: ["cut off from people", "seeing few people", "living alone"], sources: MC },
  { canonical: "steam bath", heading: "Steam Bath", synonyms: ["sauna", "saunas", "sauna bathing", "sauna use", "finnish sauna"], lay: ["sauna sessions"], sources: MC },
  { canonical: "cold temperature", heading: "Cold Temperature", synonyms: ["cold exposure", "cold acclimation", "mild cold exposure", "cold-water immersion", "cold water immersion"], lay: ["spending time in the cold", "being in the cold", "cold showers", "cold swims"], sources: MC },
  { canonical: "resistance training", heading: "Resistance Training", synonyms: ["strength training", "resistance exercise", "weight training", "weightlifting", "weight lifting", "progressive resistance training", "progressive resistance exercise"], lay: ["lifting weights", "heavy weightlifting", "pumping iron", "weights"], sources: MC },
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
  { canonical: "fatigue", heading: "Fatigue", synonyms: ["tiredness", "exhaustion", "fatigability"], lay: ["tired", "worn out"], sources: MC },

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
  { canonical: "vaccination", heading: "Vaccination", synonyms: ["vaccine", "vaccines", "immunization", "immunisation", "vaccinated"], lay: ["jab", "jabs"], sources: MC },
  { canonical: "adrenal cortex hormones", heading: "Adrenal Cortex Hormones", synonyms: ["corticosteroid", "corticosteroids", "glucocorticoid", "glucocorticoids", "steroid", "steroids"], lay: ["steroid tablets", "steroid jabs"], members: ["prednisone", "prednisolone", "dexamethasone", "methylprednisolone", "hydrocortisone", "triamcinolone", "betamethasone", "cortisone", "deflazacort", "fludrocortisone", "budesonide", "fluticasone", "beclomethasone", "beclometasone", "mometasone", "ciclesonide", "flunisolide", "clobetasol"], sources: MA },
  { canonical: "anti-bacterial agents", heading: "Anti-Bacterial Agents", synonyms: ["antibiotic", "antibiotics", "antimicrobial", "antimicrobials", "antibiotic therapy"], members: ["vancomycin", "amoxicillin", "penicillin", "ceftriaxone", "ciprofloxacin", "doxycycline", "azithromycin", "linezolid"], sources: MA },
  { canonical: "hydroxymethylglutaryl-coa reductase inhibitors", heading: "Hydroxymethylglutaryl-CoA Reductase Inhibitors", synonyms: ["statins", "statin", "hmg-coa reductase inhibitors", "hmg-coa reductase inhibitor", "statin therapy"], lay: ["cholesterol pills", "cholesterol tablets", "cholesterol-lowering drugs"], members: ["atorvastatin", "simvastatin", "rosuvastatin", "pravastatin", "lovastatin", "fluvastatin", "pitavastatin"], sources: MA },
  { canonical: "antihypertensive agents", heading: "Antihypertensive Agents", synonyms: ["antihypertensive", "antihypertensives", "blood pressure lowering", "blood pressure-lowering drugs"], lay: ["blood pressure pills", "blood pressure tablets", "blood pressure medication"], members: ["ace inhibitors", "angiotensin receptor blockers", "beta blockers", "calcium channel blockers", "diuretics", "thiazide"], sources: MA },
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
  { canonical: "iodine radioisotopes", heading: "Iodine Radioisotopes", synonyms: ["radioactive iodine", "radioiodine", "i-131", "131i", "radioiodine-refractory", "radioiodine therapy"], sources: MC },
  { canonical: "drug therapy", heading: "Drug Therapy", synonyms: ["pharmacotherapy", "drug treatment", "medication", "medications"], lay: ["pills", "tablets"], sources: MC },
  { canonical: "antineoplastic agents", heading: "Antineoplastic Agents", synonyms: ["chemotherapy", "chemotherapeutic", "anticancer drugs", "cytotoxic"], lay: ["chemo", "cancer drugs"], sources: MC },
  { canonical: "prescriptions", heading: "Drug Prescriptions", synonyms: ["prescription", "prescribing", "prescribed", "prescribers", "prescription drugs"], lay: ["scripts", "script"], sources: MC },
  { canonical: "drugs, generic", heading: "Drugs, Generic", synonyms: ["generic drugs", "generic", "generics", "brand-name drugs", "branded drugs", "formulary"], sources: MC },
  { canonical: "costs and cost analysis", heading: "Costs and Cost Analysis", synonyms: ["cost", "costs", "expenditure", "expenditures"], lay: ["pricey", "expensive", "cheaper", "cheap", "money"], sources: MC },
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
];
