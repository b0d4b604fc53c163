/**
 * The word classes the follow-up decision (./follow-up.ts) reads a message with: which words name
 * a subject of their own and which only point back (pronouns), narrow (people, species), ask about
 * an aspect of what came before (safety, dose) or relate and judge. Lower case; a word in no class
 * names a subject.
 */

const set = (words: string) => new Set(words.split(/\s+/).filter(Boolean));

/** Grammar and question words: they name nothing. */
export const FUNCTION_WORDS = set(`
  a an the and or but so nor yet then also too as well either neither both
  what what's whats how how's why when where which who whom whose whether if
  is are was were be been being am isn't aren't wasn't weren't
  do does did doing done don't doesn't didn't can could should would will may might must shall
  can't couldn't shouldn't wouldn't won't
  i me my mine myself we us our you your yours he him his she her they'd i'm i've i'd you're we're
  of in on for to with at by from about into onto over under after before during between among amongst
  against without within than via per like versus vs
  there here any some more most less least much many few lot lots every each all other another else
  same such just only really actually still even instead again already ever very quite rather
  not no yes ok okay please thanks thank hi hello
  tell say said know mean think get got give go going come make let see show look find want need try
  one ones thing things way kind sort part anything something everything nothing
  now today currently known current new there's
  specifically particularly especially exactly generally mainly mostly usually enough happen happens happened
  has have had having
`);

/** Pronouns that stand for something said before (entity or claim). */
export const PRONOUNS = set(`it its it's itself this that these those they them their theirs`);

/** Heads of a definite phrase that points back ("the drug", "this supplement", "the same study"). */
export const POINTING_HEADS = set(`
  drug drugs medicine medication medications pill pills supplement supplements compound compounds substance
  treatment treatments therapy therapies intervention interventions regimen diet diets program programme
  study studies trial trials paper papers result results finding findings effect effects evidence
  claim answer association link benefit benefits approach method
`);

/** People and species: a follow-up's population or species replaces the earlier one's. */
export const POPULATION_NOUNS = set(`
  women woman men man females female males male girls boys
  children child kids kid teenagers teens adolescents infants babies newborns toddlers
  adults adult elderly seniors people persons humans human patients individuals population populations
  athletes runners smokers diabetics veterans twins centenarians students workers
  mice mouse rats rat rodents monkeys monkey primates macaques dogs dog cats cat pigs pig
  worms worm nematodes flies fly drosophila yeast fish zebrafish killifish animals animal cells cell
  pregnancy
`);

/** Words that qualify people ("older women", "postmenopausal women", "healthy adults"). */
export const POPULATION_QUALIFIERS = set(`
  older old younger young middle-aged aged elderly healthy sick frail obese overweight lean
  postmenopausal premenopausal menopausal pregnant diabetic hypertensive sedentary active
  male female human white black asian
`);

/** What a question can ask of a subject already named: safety, dose, timing, how it works, how sure. */
export const ASPECT_WORDS = set(`
  safe safer safest safety unsafe dangerous danger harmful harm harms risky risks toxic toxicity
  side adverse tolerated tolerable
  dose doses dosage dosing dosages amount mg milligrams grams much often frequently long how-long
  daily weekly take taking taken takes start starts started starting stop stopping begin begins timing schedule duration
  late later early earlier age ages
  day days week weeks month months year years cup cups glass glasses times hours minutes mg g iu grams
  observational randomized randomised controlled placebo cohort cohorts meta-analysis meta-analyses review reviews rct rcts
  work works working mechanism mechanisms
  evidence proof data research studies study trials trial sources source references citations
  true sure certain strong stronger weak weaker convincing reliable robust settled proven
  good bad better worse best worst effective effectiveness efficacy useful worth worthwhile recommended recommend
  benefit benefits helpful harmless healthy unhealthy okay fine
  cost costs price expensive cheap available legal prescription
  interact interacts interaction interactions combine combined combination together
  hold holds apply applies case cases generalize generalise replicate replicated
  why when long-term short-term term
  level levels aim target goal brand brands buy bought purchase cheapest cheaper pill pills tablet tablets capsule capsules
  largest biggest latest newest recent first main key detail details summary
`);

/** Verbs and words that relate a subject to an outcome or say which way: they are not subjects. */
export const RELATION_WORDS = set(`
  reduce reduces reduced reducing increase increases increased increasing improve improves improved improving
  extend extends extended extending slow slows slowed slowing prevent prevents prevented preventing
  help helps helped helping affect affects affected affecting lower lowers lowered raise raises raised
  cause causes caused protect protects protected worsen worsens delay delays delayed boost boosts
  shorten shortens prolong prolongs promote promotes change changes changed influence influences alter alters
  lead leads linked link associated association associations related relation relationship correlated
  correlate correlates predict predicts decrease decreases decreased
  live lives living die dies
  effect effects impact impacts role
  compare compares compared comparison reverse reverses reversed
`);

/**
 * Words that name an outcome rather than an intervention: "What about dementia?" puts dementia in
 * place of the earlier outcome, "What about metformin?" metformin in place of the intervention.
 */
export const OUTCOME_WORDS = set(`
  lifespan life span longevity healthspan aging ageing survival mortality death deaths
  dementia alzheimer alzheimer's cognition cognitive memory frailty falls fractures fracture
  cancer cancers heart cardiovascular stroke strokes diabetes obesity weight blood pressure cholesterol
  muscle muscles strength mass sarcopenia bone bones osteoporosis sleep mood depression anxiety
  inflammation disease diseases function decline health fatigue pain recovery fitness endurance
  kidney liver brain skin hair vision hearing immunity infection infections
`);

/** After these, "it" does not point back: "is it true that…", "is it safe to…" carry their own subject. */
export const DUMMY_IT_FOLLOWERS = set(`true possible safe okay ok worth better best wise advisable necessary known likely good bad healthy normal common fine important`);

/** Before these, "that" introduces a clause ("evidence that coffee…"), not a pronoun. */
export const CLAUSE_THAT_BEFORE = set(`
  true evidence possible think say said shown show shows know known sure claim claims idea likely mean means
  suggest suggests believe heard read fact proof so seems seem study studies trial trials data
`);

/** Cues that open or close an elliptical continuation ("And in women?", "What about mice?", "…too?"). */
export const OPENING_CUES = [["and"], ["but"], ["also"], ["or"], ["so"], ["what", "about"], ["how", "about"], ["same", "for"], ["same", "in"], ["then"]] as const;
export const CLOSING_CUES = set(`too instead also`);

/** Auxiliaries: a message that opens with one is a question of its own grammar, not a bare fragment. */
export const AUXILIARIES = set(`is are was were do does did can could should would will may might must has have had am`);

/** Aspects that ask whether the earlier finding holds elsewhere ("Would it work in men too?"), not about the intervention itself. */
export const HOLDS_WORDS = set(`work works working hold holds apply applies true case same also too generalize generalise replicate replicated why sure certain convincing settled proven`);
