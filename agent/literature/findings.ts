/**
 * Reading what a sentence of an abstract finds, deterministically: whether it states an effect or
 * association (`found`), its absence (`none`), or nothing clear; which way the effect goes (a
 * benefit, a harm, or neither, as for an association); and how hedged it is. The study snapshot
 * (snapshot.ts) and the stance of a reference toward a question (verdict.ts) are built on it.
 */

type Effect = "found" | "none" | "unclear";
export type Valence = "benefit" | "harm" | "neutral";

export type FindingReading = {
  effect: Effect;
  valence: Valence;
  /** Whether the finding is about safety or harm-type outcomes only ("no serious adverse events"). */
  safety: boolean;
  /** 1 for a plain statement, less for a hedged one ("may", "might", "suggests"). */
  certainty: number;
  /** An association rather than an intervention's effect ("was associated with", "predicted"). */
  association: boolean;
  /** For `none`: the finding is that things are alike ("did not differ", "similar", p > 0.05), not another negation ("not all patients need …"). */
  alike?: boolean;
};

/** Words that mark a sentence stating a finding rather than background or methods. */
export const FINDING_CUES =
  /\b(conclu|suggest|found|find|show|demonstrat|associat|reduc|increas|improv|extend|lower|higher|decreas|no significant|did not|was not|were not|significant|correlat|predict|differ|prolong|shorten|delay|prevent|protect|benefi|effective|feasib|accura|reliab|sensitiv|safe|tolerat|odds ratio|hazard ratio|relative risk|insufficient|inadequate|unnecessary|ineffective|unreliable|inaccurate)/i;

/** A sentence that says what a study set out to do, not what it found. */
const AIM =
  /\b(aims?|aimed|objectives?|purpose|goals? (?:of (?:this|the present|our)|was to|were to|is to)|our goals?|we (sought|hypothesi[sz]ed|investigated|examined|evaluated|assessed|explored|asked|studied|compared)|this study (investigated|examined|evaluated|assessed|explored|addressed)|to (determine|assess|evaluate|investigate|examine|explore|compare|test) (whether|if|the)|whether|remains? (to be|unknown|unclear)|little is known|has not been)\b/i;
/** An aim put another way: "To study whether …", "This study was undertaken to …", "This study looks for …". */
const AIM_FORM =
  /^(to|in order to) [a-z]+\b|\b(study|trial|analysis|review|survey|investigation|work|project|paper|report)\s+(was|is)\s+(done|undertaken|designed|conducted|performed|carried out|initiated|aimed|intended|planned)\s+to\b|\b(looks?|looked) for\b|\b(sought|set out|attempted|tried) to\b|\bthe present study was to\b/i;
const QUESTION_MARK = /\?\s*$/;

/**
 * A sentence that says what was done, not what was found: "The charts of 31 patients were
 * reviewed", "Patients were randomized to …", "Group 1 consisted of …". A sentence that also states
 * a result (a significant difference, a p-value, "was associated with") is not one.
 */
const METHOD_FORM =
  /\b(were|was|are|is) (retrospectively |prospectively |randomly |then |also |subsequently |consecutively |further )?(reviewed|recorded|measured|assessed|collected|included|enrolled|recruited|randomi[sz]ed|calculated|analy[sz]ed|used|obtained|performed|examined|studied|followed|interviewed|asked|selected|identified|divided|allocated|assigned|evaluated|determined|tested|investigated|treated|operated|surveyed|defined|classified|matched|administered|given|screened|scored|categori[sz]ed|stratified|sampled|applied|registered|monitored|documented|extracted|abstracted|conducted|carried out|estimated|quantified|counted|invited|informed|offered|submitted|exposed|injected|fed|implanted|harvested|stained|sequenced|genotyped|imaged|scanned|photographed|compared using|modell?ed)\b|\b(consisted of|comprised|underwent|were divided|was defined as|were defined as|we (used|reviewed|recorded|measured|collected|included|enrolled|recruited|randomi[sz]ed|analy[sz]ed|performed|conducted|identified|surveyed|interviewed|selected|calculated|estimated|examined|studied|compared|evaluated|assessed|investigated|developed|designed|constructed|applied|searched|extracted|followed))\b|^(data|information|records|questionnaires|samples|specimens|patients|participants|subjects) (were|was) /i;
const RESULT_SIGNS = /\b(significant\w*|p\s*[<>=≤≥]|associated with|correlat\w*|higher|lower|greater|fewer|more likely|less likely|increased|decreased|reduced|improved|differ\w*|similar|no (effect|change)|odds ratio|hazard ratio|relative risk|\d+(\.\d+)?\s*%)/i;

/** True when a sentence says what was done (methods), not what was found. */
export function isMethodSentence(sentence: string): boolean {
  return METHOD_FORM.test(sentence) && !RESULT_SIGNS.test(sentence);
}

/** True when a sentence states an aim or an open question (what was set out to learn). */
export function isAimSentence(sentence: string): boolean {
  return AIM.test(sentence) || AIM_FORM.test(sentence.trim()) || QUESTION_MARK.test(sentence);
}

/** A p-value above 0.05 ("p = 0.05" itself is read as the threshold met, as authors mostly mean it). */
const P_NOT_SIGNIFICANT = /\bp\s*(>|≥)\s*0?\.0[5-9]|\bp\s*=\s*0?\.(05\d*[1-9]|0[6-9]|[1-9])/i;

/**
 * A confidence interval: its label ("95% CI", "95% confidence interval [CI]", "CI:") and its two
 * bounds, joined by "to", a dash or a comma ("0.97-1.50", "-13 to -5", "0.71 to 1.14", "(1.2, 3.4)").
 */
const NUMBER = String.raw`[-−–]?\s?\d*\.?\d+`;
const INTERVAL = new RegExp(String.raw`(?:\b(?:9[05]|99)\s?%\s*)?(?:\bCI\b|\bC\.I\.|\bconfidence intervals?\b)(?:\s*[[(]CI[\])])?\s*[,:;=]?\s*[([]?\s*(${NUMBER})\s*(?:to|[-–—,;]|\.\.)\s*(${NUMBER})`, "gi");
/**
 * What an estimate before its interval is: a ratio, null at 1 ("OR 1.21", "rate ratio 0.90",
 * "adjusted HR"), or a difference, null at 0 ("mean difference", "β", "SMD"). Abbreviations only
 * in capitals: "or" is a conjunction.
 */
const RATIO_WORDS = /\b(?:(?:odds|hazards?|risk|rate|incidence rate|prevalence|incidence|likelihood) ratios?|relative (?:risks?|hazards?|odds))\b/gi;
const RATIO_ABBREVIATIONS = /\b(?:a|adj\.?\s*)?(?:OR|HR|RR|IRR|PR|SHR|sHR|aOR|AOR|aHR|AHR|aRR|ARR)s?\b/g;
const DIFFERENCE_NAME = /\b(?:(?:mean|median|absolute|risk|weighted mean|standardi[sz]ed mean) )?differences?\b|\b(?:mean|median) changes?\b|\b(?:MD|SMD|WMD|RD|ARD)\b|\b(?:β|beta|coefficients?|slopes?)\b/gi;
const toNumber = (n: string) => Number(n.replace(/[−–]/, "-").replace(/\s/g, ""));

/**
 * Whether a text states an estimate whose confidence interval includes no effect: a ratio's that
 * runs across 1 ("OR 1.21, 95% CI 0.97-1.50"), a difference's across 0 ("95% CI -2.9 to 4.1"); an
 * interval from below zero to above it is a difference's whatever it is called, since no ratio is
 * negative. An interval of anything else (a mean age) says nothing of an effect.
 */
export function intervalSpansNull(text: string): boolean {
  for (const m of text.matchAll(INTERVAL)) {
    const [lo, hi] = [toNumber(m[1]!), toNumber(m[2]!)].sort((a, b) => a - b) as [number, number];
    if (!Number.isFinite(lo) || !Number.isFinite(hi)) continue;
    if (lo < 0 && hi > 0) return true;
    // The estimate's name nearest before the interval, within its clause.
    const before = text.slice(Math.max(0, m.index - 80), m.index).split(/\.(?:\s|$)/).at(-1)!;
    const ratio = Math.max([...before.matchAll(RATIO_WORDS)].at(-1)?.index ?? -1, [...before.matchAll(RATIO_ABBREVIATIONS)].at(-1)?.index ?? -1);
    const difference = [...before.matchAll(DIFFERENCE_NAME)].at(-1)?.index ?? -1;
    if (ratio > difference && lo <= 1 && hi >= 1) return true;
    if (difference > ratio && lo <= 0 && hi >= 0) return true;
  }
  return false;
}
const NULL_CUES = [
  // "Mortality remained high despite statin therapy": what the clause names after "despite" left it as it was.
  /\b(?:remained|remains|persisted|persists|stayed|stays|continued to be|was still|were still)\b[^.;]{0,60}?\bdespite\b/i,
  /\bno (statistically |clinically )?significant\b/i,
  /\bnot (statistically |clinically )?significant(ly)?\b/i,
  /\bnon-?significant(ly)?\b/i,
  /\b(did|does|do|was|were|is|are|has|have|had) not (significantly |substantially |meaningfully )?(differ|change|affect|improve|reduce|increase|decrease|alter|influence|predict|extend|prolong|lower|raise|modify|show|find|reach|correlate|associate|associated|related|correlated|linked|predictive|different|superior|inferior|effective|beneficial|benefit)/i,
  /\b(was|were|is|are) not (significantly |independently )?(associated|related|correlated|linked|predictive|different|superior|effective|beneficial)\b/i,
  /\bno (clear |meaningful |detectable |measurable |apparent |significant |independent |overall |additional )?(effect|effects|difference|differences|change|changes|association|associations|relationship|correlation|benefit|improvement|impact|influence|increase|reduction|decrease|advantage|role)\b/i,
  /\b(failed|fail) to\b/i,
  // "are unlikely to be detected", "is unlikely to benefit": the statement is held not to hold.
  /\b(unlikely|not likely) to\b/i,
  // "there is no awareness", "there were no differences": an absence stated outright.
  /\bthere (is|are|was|were|exists?) (still )?no\b/i,
  // Outcomes said to be alike; not a subject described so ("a group of similar size", "patients
  // with comparable baseline risk"), which states no finding.
  /(?<!\b(of|with|than) (a )?)\b(similar|comparable|unchanged|unaffected|equivalent|not different)\b(?!\s+(findings|results|trends?|conclusions|patterns|observations|((?!(in|among|between|across|for|with|to|at)\b)\w+[- ])?(patients|women|men|children|people|participants|subjects|controls|individuals|groups?|populations?|cohorts?|adults|infants|hospitals|schools|practices|cases))\b)/i,
  /\bneither\b.*\bnor\b/i,
  // A finding said alike ("was associated with similar analgesia use to standard care"): unlike "in
  // patients with similar baseline risk", it follows a verb of outcome.
  /\b(associated with|resulted in|led to|yielded|produced|achieved|showed|had|gave|presented with|reported|experienced|received)\s+(\w+\s+)?(similar|comparable|equivalent|identical)\b(?!\s+(findings|results|trends?|conclusions|patterns|observations)\b)/i,
  // "no more effective than placebo", "no better than usual care", "not more accurate than": no gain over the comparator.
  /\b(no|not|nothing)\s+(more|better|less|worse|greater|superior)\b[^.;]{0,50}?\bthan\b/i,
  // "occurred at the same low rates after either closure", "detected it with the same accuracy as
  // CT": alike. Not whom a study compared ("men with the same pain scores").
  /(?<!\b(of|with|for|in) )\bthe same (\w+[- ]){0,2}(rates?|profiles?|proportions?|frequenc\w*|outcomes?|results?|accuracy|response|remission|efficacy|effectiveness|risk|control|survival|mortality)\b/i,
  /\b(the same|identical) (\w+[- ]){0,2}(rates?|profiles?|proportions?|frequenc\w*|outcomes?|results?|accuracy|response|remission|efficacy|effectiveness|risk|control|survival|mortality|sensitivity|specificity) as\b/i,
  // "The apparent survival advantage of tea drinkers was explained by their income": confounding, not an effect.
  /\b(advantage|association|difference|effect|benefit|link|relationship|excess|gap|variation|disparity)\b[^.;]{0,60}?\b(was|were|is|are) ((largely |fully |entirely |mostly |wholly )?(explained|accounted for)|(largely |fully |entirely |mostly |wholly |completely )mediated) by\b/i,
  // "The apparent increase in incidence reflects improved detection", "the apparent protection of
  // drinking was an artefact of selective survival": an effect seen, then explained away.
  /\b(apparent|observed|seeming|reported|putative)\s+(\w+\s+){0,2}?(increases?|rises?|decreases?|declines?|protection|protective effects?|benefits?|advantages?|associations?|effects?|links?|excess|differences?|paradox|epidemic)\b[^.;]{0,80}?\b(reflect\w*|(was|were|is|are) (largely |entirely |mostly |probably |likely )?(an? )?(artefacts?|artifacts?|due to|attributable to|attributed to|explained by)|result(s|ed)? from|stem(s|med)? from)\b/i,
  // "Cases after vaccination were attributable to coincident infections": another cause.
  /\b(attributable|attributed|due|owing) to (other|coincident|coincidental|alternative|unrelated|concurrent|intercurrent) (causes?|factors?|infections?|conditions?|diseases?|illness\w*)\b/i,
  // "The association was weak and inconsistent": not held to be real; not "weak but significant".
  // "The quality of the information was highly variable": not to be relied on.
  /\b(was|were|is|are) (highly |very |extremely |widely )?(variable|inconsistent)\b(?![^.;]*\bsignificant)/i,
  // "carried no excess risk", "with no increased rate of falls": the risk not raised.
  /\bno (\w+ )?(increased|excess|additional|higher|greater|elevated|extra) (\w+ ){0,2}?(risks?|rates?|incidence|odds|hazard|mortality|morbidity)\b/i,
  // "Access was equitable across groups", "outcomes equal to those of consultants": alike.
  /\b(equitabl[ey]|evenly distributed|equally distributed)\b|\b(outcomes?|results?|rates?|scores?)\s+(equal|equivalent|similar|comparable|identical) to\b/i,
  // "offers little over a careful examination", "contributes little to the risk": next to nothing.
  /\b(offers?|offered|adds?|added|contributes?|contributed|provides?|provided|gains?|gained|changes?|changed) (very )?little\b/i,
  // "Our findings challenge the view that stress causes ulcers", "fears that it causes autism are
  // unfounded": a belief the study speaks against. Not "contrary to expectations, X rose", a finding.
  /\b(challenge|challenges|challenged|contradicts?|contradicted|refutes?|refuted|dispels?|dispelled|debunks?|debunked) (the |a |this |that )?(common |popular |widespread |prevailing |traditional |long-held |current )?(view|notion|belief|assumption|hypothesis|idea|claim|dogma|concept|perception|myth)s?\b|\bunfounded\b|\b(is|are|was|were) (a )?myths?\b/i,
  // "is no substitute for a visit": it cannot stand in.
  /\bno (substitute|replacement) for\b/i,
  // "Patient reports agreed poorly with pharmacy records", "predicted outcome poorly".
  /\b(agreed|correlated|performed|predicted|discriminated|matched|correlates|agrees|performs|predicts) (only )?(poorly|badly|weakly)\b|\bpoorly (correlated|predictive|reproducible|reliable|agreed|discriminat\w*)\b/i,
  // "has become obsolete": no longer of use.
  /\b(obsolete|outdated|superseded|redundant)\b/i,
  // "explained only a small fraction of the variance": next to nothing of it.
  /\bexplain\w* (only )?(a )?(small|minor|tiny|negligible|little|modest) (fraction|proportion|part|share|amount|percentage) of\b/i,
  // "The ECG missed most cases": it fails at what it is for.
  /\bmissed (most|many|the majority|more than half|half|nearly half|a third|a large (number|proportion|share))\b/i,
  // "added operating time without measurable benefit": nothing gained.
  /\bwithout (any |a |measurable |clear |significant |demonstrable |additional |added |proven |obvious )?(benefits?|advantages?|improvements?|gains?)\b/i,
  // "The seasonal pattern has disappeared in recent decades": no longer there.
  /\b(has|have|had) (now |largely |since |all but )?(disappeared|vanished|ceased)\b/i,
  /\b(associations?|correlations?|relationships?|links?|effects?)\b[^.;]{0,60}?\b(was|were|is|are|remained) (\w+ )?(weak|inconsistent)\b(?![^.;]*\bsignificant)/i,
  // "The benefit of physiotherapy was lost at one year", "the effect waned": it did not last.
  /\b(benefits?|effects?|improvements?|gains?|advantages?|differences?)\b[^.;]{0,60}?\b((was|were) (lost|not (sustained|maintained))|waned|faded|wore off|disappeared|vanished|did not (persist|last))\b/i,
  // "The risk was the same in vaccinated and unvaccinated children", "evidence against the hypothesis".
  /\b(was|were|is|are|remained) (\w+ )?the same (in|for|among|between|across|with|after|whether)\b|\b(evidence|argues?|argued|speaks?) against\b|\bagainst the hypothesis\b|\b(refutes?|refuted|disproves?|disproved)\b/i,
  // "The association disappeared after adjustment for age": explained by other factors, not an effect.
  /\b(disappeared|vanished|was lost|lost (its )?(statistical )?significance|did not persist|(was|were|is|are) no longer (statistically )?(significant|present|evident|apparent)|(was|were) (fully |completely )?(attenuated|abolished|nullified))\b[^.;]{0,40}?\b(after|when|once|on|following|with|in) (adjust\w*|controll\w*|accounting|multivariat\w*|multivariable|correct\w*)/i,
  // "QTd was related to neither end point", "in neither group": nothing found in either.
  /\bneither\s+(?:of\s+(?:the|these|them)\s+)?(?:\w+\s+){0,2}?(?:end ?points?|outcomes?|groups?|arms?|measures?|sexes|cohorts?|treatments?|analys[ie]s|variables?|markers?|periods?)\b/i,
  // "Mice lacking Sirt1 lived as long as wild-type littermates", "healed as quickly as": no difference.
  /\b(lived|survived|lasted|grew|performed|functioned|recovered|healed|responded|walked)\s+(\w+\s+)?as (long|well|fast|quickly|often|far|much) as\b/i,
  // "received analgesia as often and as promptly as younger patients", "as likely as men to be
  // referred": no difference. Not a magnitude ("by as much as half", "twice as often as"), nor the
  // conjunctions "as well as" and "as long as", which the verbs above take only after an outcome verb.
  /(?<!\b(?:twice|times|half|by|up to|of)\s)\bas (?:often|frequently|promptly|quickly|rapidly|readily|likely|good|effective|efficacious|safe|accurate|reliable|sensitive|specific|common|prevalent|frequent)\b(?:\s+and\s+as\s+\w+)?\s+as\b(?!\s+\d)/i,
  // "There is a knowledge deficit regarding the goal": not known.
  /\b(knowledge|awareness|understanding) (deficits?|gaps?)\b|\b(deficits?|gaps?) in (their |the )?(knowledge|awareness|understanding)\b/i,
  // "Caffeine was ruled out as a cause": excluded, unlike "could not be ruled out" (an open question).
  /(?<!\b(?:not|cannot)\s)\b(?:was|were|is|are|been|be)\s+(?:\w+ly\s+)?ruled out\b/i,
  // "the routine admission of these patients should be reconsidered": a practice put in doubt.
  /\bshould be (re-?considered|re-?evaluated|questioned|re-?examined|revisited)\b/i,
  // "added nothing to nasal suction", "it has no place in routine care": no benefit.
  /\b(add|adds|added|adding|offer|offers|offered|confer|confers|conferred|provide|provides|provided) (nothing|no (\w+ )?(benefit|advantage|value|gain|improvement|information))\b|\bno place (in|for)\b|\bhas no place\b/i,
  // "non-inferior to intravenous therapy": shown no worse, so alike (an equivalence holds, a superiority does not).
  /\bnon-?inferior(ity)?\b/i,
  // Falling short of what was asked: "fell well short of the one-hour target".
  /\b(fell|falls?|falling|came|comes) (\w+ )?short\b|\bshort of (the |its |their )?(\w+ )?(target|goal|standard|recommendations?|guidelines?|benchmark|threshold)\b/i,
  // The second half of "associated with X, but not with Y": a clause that opens on its negation.
  /^not\b(?!\s+only\b)/i,
  /\bno longer\b/i,
  /\b(nearly |almost |virtually )?identical\b/i,
  /\bno (evidence|indication|sign) (of|for|that)\b/i,
  /\b(did not|failed to|does not) reach (statistical )?significance\b/i,
  // Not "independent of", "irrespective of", "regardless of": "associated with Y independent of age"
  // states an effect held after adjustment, not its absence.
  /\b(insignificant|unrelated)\b/i,
  // "an absence of a July effect", "no general gains", "low diagnostic efficiency" (issue 25).
  /\b(absence|lack) of (a |an |any )?(\w+ ){0,3}?(effects?|differences?|associations?|relationships?|correlations?|benefits?|improvements?|gains?|impact|influence|advantages?|changes?|evidence|efficacy|response)\b/i,
  /\bno (\w+ ){0,3}?(effects?|differences?|changes?|associations?|relationships?|correlations?|benefits?|improvements?|gains?|impact|influence|advantages?|role|link|need|value|use|evidence|reduction|increase|decrease|significance|importance|relevance|preferences?|relief|protection)\b/i,
  /\bno statistical(ly)? significan\w*/i,
  // Said to happen hardly ever, or held in doubt: "rarely changed management", "its value remains questionable".
  /\b(rarely|seldom|hardly ever|scarcely)\b/i,
  /\b(questionable|doubtful|unproven|not proven|unconvincing)\b/i,
  // "could have occurred merely by chance": the finding is not held to be real.
  /\b(by chance|chance (finding|observation|association)|due to chance)\b/i,
  // A contribution said to be small: "will only make a small contribution", "a limited effect", "trivial impact".
  /\b(small|limited|minor|trivial|negligible|marginal|minimal|little) (\w+ )?(effects?|impacts?|contributions?|benefits?|roles?|improvements?|gains?|influence)\b/i,
  /\b(low|poor|limited|modest|weak) (\w+ )?(efficiency|efficacy|accuracy|sensitivity|specificity|validity|reliability|yield|value|performance|agreement|utility|usefulness|predictive (value|power|ability))\b/i,
  /\b(no|not|poor|weak) (correlation|correlated|predictive|predictor|agreement|association)\b/i,
  P_NOT_SIGNIFICANT,
  // A p-value reported as not significant: "P = NS", "(p = n.s.)", "(NS)".
  /\bp\s*[=:]?\s*n\.?s\.?(?![a-z])|\(\s*n\.?s\.?\s*\)/i,
  // A negated statement on the finding itself: "was not found to be a predictor", "is not safe",
  // "are not adequate predictors", "there is no advantage", "a lack of understanding".
  /\b(is|are|was|were|be|been|being|seems?|appears?|did|does|do|could|can|will|would|should)\s+not\b(?!\s+(only|just|merely)\b)|\bcannot\b|\b\w+n't\b|\bnot (a|an|the)\b(?!\s+only\b)|\bno (\w+ )?(advantage|role|benefit|link|need|value|use|impact|evidence)\b|\b(a|the) lack of\b|\black(s|ed)? (any |a )?(\w+ )?(effect|association|benefit|evidence|difference|correlation|efficacy|sensitivity|specificity|accuracy|validity|power|support|improvement|relationship)s?\b|\bunable to\b|\b(cast|casts|raise|raises) doubts?\b|\b(poor|inadequate|insufficient|disappointing|limited) (knowledge|understanding|predictor|accuracy|value|agreement|performance)\b/i,
  // Saying something falls short: "current guidelines are inadequate", "little need to", "of low
  // yield", "there are no data to support", "none of the identifiers … have been validated".
  /\b(insufficient|inadequate|unsatisfactory|ineffective|unreliable|inaccurate|unnecessary|disappointing)\b|\blittle (evidence|need|benefit|value|effect|impact|support|role|use)\b|\bof (low|limited|little|minor|no) (yield|value|importance|benefit|use|relevance|significance)\b|\bno (data|systematic|consistent|convincing|reliable)\b|\bnone of\b|\b(may|might|must|need|should)\s+not\b/i,
  /\b(no|without) (serious |major |severe |significant |treatment-related |drug-related )?(adverse (events?|effects?|reactions?)|side effects?|complications?|toxicit\w*)\b/i,
];

/** The absences that say things are alike: what an equivalence claim asks for. */
const ALIKE =
  /\b(no (statistically |clinically )?significant|not (statistically |clinically )?significant(ly)?|non-?significant(ly)?|no statistical(ly)? significan\w*|(did|does|do|was|were|is|are) not (significantly )?(differ|change)|no (\w+ ){0,2}?differences?|not different|similar|comparable|unchanged|unaffected|equivalent|identical|equal(ly)?|the same|as (good|effective|safe|accurate|reliable) as|non-?inferior(ity)?|interchangeable|no (more|better|less|worse)\b[^.;]{0,50}?\bthan)\b|\bthe same (\w+[- ]){0,3}(as|rates?|accuracy|outcomes?|results?|response)\b|\bp\s*(>|≥)\s*0?\.0[5-9]|\bp\s*=\s*0?\.(05\d*[1-9]|0[6-9]|[1-9])/i;

/** Sameness denied: "not all patients need the same dose", "are not equivalent". */
const NOT_ALIKE = /\b(not|no|never)\b[^.;]{0,60}\b(the same|similar|equal|equivalent|comparable|identical|interchangeable)\b|\bnot (all|every|everyone|each)\b[^.;]{0,120}\b(the same|similar|equal|identical)\b/i;

/** A significant p-value. */
const SIGNIFICANT_P = /\bp\s*(<|≤|=)\s*0?\.0([0-4]\d*|0\d*)\b/i;

/** A cost added or above what is accepted: "added cost and time", "exceeds the willingness-to-pay threshold": a harm, and a finding. */
const ADDED_COST = String.raw`add(?:s|ed|ing)? (?:\w+ )?(?:costs?|time|burden|morbidity|complexity|delays?|expense)|exceed\w* (?:the |usual |accepted |conventional |commonly used )*(?:willingness[- ]to[- ]pay |cost[- ]effectiveness )?thresholds?|more\b[^.;]{0,40}?\bthan (?:is )?(?:usually |generally |commonly |conventionally )?(?:accepted|considered acceptable|considered cost[- ]effective)`;
const EFFECT_CUES = new RegExp(String.raw`\b((remains?|is|was) (still )?the (gold standard|standard of care|mainstay|first[- ]line)|encouraging|promising|valuable|worthwhile|advantageous|advantages?|helpful|preferred|preferable|of choice|adequate (alternative|substitute|method|tool|option|means)|significant(ly)?|associated with|association (between|with|of)|correlated|correlation|predict(s|ed|or|ors|ive)?|improv\w*|increas\w*|decreas\w*|reduc\w*|lower(ed)?|higher|greater|fewer|less|more likely|less likely|(later|earlier|longer|shorter) than|(more|less) often|extend\w*|prolong\w*|shorten\w*|delay\w*|prevent\w*|protect\w*|enhanc\w*|attenuat\w*|inhibit\w*|suppress\w*|promot\w*|elevat\w*|raised|halved|doubled|tripled|diminish\w*|worsen\w*|impair\w*|benefi\w*|effective|efficacious|superior|inferior|feasible|feasibility|accura\w*|reliab\w*|sensitivity|specificity|well tolerated|safe|harmless|should be (offered|retained|continued|maintained|kept)|outperform\w*|differ(ed|ent|ence)|depend\w*|linked|related (?:to|with)|risk factors?|hazard ratio|odds ratio|relative risk|restor\w*|rescu\w*|alleviat\w*|ameliorat\w*|induc\w*|(?<!-)caus(?:e|es|ed|ing)(?![-\w])(?!\s+(?:\w+ly\s+)?by\b)|accelerat\w*|slow\w*|blunt\w*|dampen\w*|abolish\w*|abrogat\w*|weaken\w*|counteract\w*|premature (death|mortality|aging|ageing|senescence)|` + ADDED_COST + String.raw`|should be (abandoned|discontinued|avoided|discouraged|abolished|stopped|eliminated|withdrawn))\b`, "i");
/** Effect sizes written as abbreviations (case matters: "OR" is an odds ratio, "or" is not). */
const EFFECT_SIZE = /\b(HR|OR|RR|aOR|aHR)\b\s*[=:(,]?\s*\d/;

const HEDGE_STRONG = /\b(may|might|could|possibly|potentially|perhaps|plausibl\w*|speculat\w*)\b/i;
const HEDGE_MILD = /\b(suggests?|suggested|suggesting|appears?|seems?|likely|tend(s|ed)? to|trend)\b/i;
const UNCERTAIN = /\b(inconclusive|uncertain|unclear|unknown|controversial|conflicting|remains? to be|warrant\w*|further (studies|research|investigation|trials)|more (studies|research) (is|are) needed|needs? to be)\b/i;

/** "…, without side effects", "with no serious adverse events": safety said beside a finding, to the end of its clause. */
const SAFETY_ASIDE =
  /,?\s+\b(?:without|with no|and no|and without)\s+(?:any\s+)?(?:serious |major |severe |significant |notable |clinically (?:significant|relevant) |treatment-related |drug-related )?(?:adverse (?:events?|effects?|reactions?)|side[- ]effects?|complications?|toxicit\w*)\b[^,;]*/gi;
/** A negation within a few words before a harm: "no serious adverse events", "did not increase complications". */
const SAFETY_NEGATED =
  /\b(no|not|without|nor|never|rarely|seldom|free of|n't)\b(\W+\w+){0,4}?\W+(adverse|side effects?|toxicit\w*|complications?|harms?|serious (events|reactions)|bleeding)\b/gi;
/**
 * What a negation before a harm may negate and still state safety: "did not increase complications"
 * does, "did not reduce complications" and "did not affect complications" do not (no benefit, no change).
 */
const NOT_SAFETY = /\b(reduc|decreas|lower|prevent|improv|affect|alter|chang|influenc|differ|modif|diminish|lessen|mitigat|attenuat|eliminat|avoid|protect|predict)\w*/i;
function negatesHarm(text: string): boolean {
  return [...text.matchAll(SAFETY_NEGATED)].some((m) => !NOT_SAFETY.test(m[0]));
}
/** Harms whose absence is stated outright ("no perforations", "did not present with recurrence"): a finding of safety. */
const HARM_ABSENT =
  /\b(no|without|free of|never)\b(\W+\w+){0,3}?\W+(perforations?|strictures?|infections?|leaks?|leakage|recurrences?|deaths?|malfunctions?|relapses?|reoperations?|readmissions?)\b|\bnot (develop|experience|present with|suffer|lead to|result in|cause)\w*\b(\W+\w+){0,3}?\W+(perforations?|strictures?|infections?|leaks?|leakage|recurrences?|deaths?|malfunctions?|relapses?)\b/i;
const SAFETY_OBJECT = /\b(adverse|side effects?|toxicit\w*|safety|complications?|harms?|serious (events|reactions)|tolerab\w*|bleeding)\b/i;

const UP = /\b(increas\w*|higher|greater|more|elevat\w*|rais\w*|(?<!-)caus(?:e|es|ed|ing)(?![-\w])(?!\s+(?:\w+ly\s+)?by\b)|enhanc\w*|longer|extend\w*|prolong\w*|boost\w*|accelerat\w*|promot\w*|induc\w*|rise|rose|gain\w*|exceed\w*|positively (?:associated|correlated|related))\b/gi;
/** "inversely associated with the risk of MI": a link that goes the other way is a change down of what it is linked with. */
const DOWN = /\b(inversely (?:associated|correlated|related)|negatively (?:associated|correlated|related)|decreas\w*|lower(ed)?(?!\s+(?:limbs?|extremit\w*|legs?|back|abdom\w*|urinary|gastrointestinal|GI|lips?|eyelids?|jaw|lobes?|pole|body|respiratory|airways?|tract|oesophag\w*|esophag\w*|motor neurons?|quadrant)\b)|reduc\w*|fewer|less|diminish\w*|attenuat\w*|declin\w*|shorter|shorten\w*|suppress\w*|inhibit\w*|slow\w*|delay\w*|prevent\w*|protect\w*|loss|lost|drop\w*|fell|fall|blunt\w*|dampen\w*|abolish\w*|abrogat\w*|weaken\w*|counteract\w*)\b/gi;
/** A change named as a noun, the object of a change word before it: "(counteracts) the selective loss of …". */
const CHANGE_OBJECT = /^\s+(?:(?:the|a|an|its|their|this|that|any)\s+)?((?:[\w-]+\s+){0,2}?)(loss|losses|decline|declines|drop|fall|reduction|decrease|gain|gains|increase|increases|rise|accumulation)(?=\s+(?:of|in)\b|\s*$|\s*[.)])/i;
const UP_NOUN = /^(gain|gains|increase|increases|rise|accumulation)$/i;
/** A change word right before another ("blunted the gain in muscle mass"): the second is what the first changes. */
const CHANGED_BY_PREVIOUS = new RegExp(`\\b(?:${[UP, DOWN].map((re) => re.source.replace(/^\\b\(|\)\\b$/g, "")).join("|")})\\s+(?:the\\s+|a\\s+|an\\s+|its\\s+|their\\s+)?$`, "i");

/** Outcomes whose increase is bad for the patient. */
const BAD =
  /\b(mortality|death|deaths|die|died|dying|risk|risks|incidence|disease|diseases|frailty|decline|complications?|adverse|toxicit\w*|morbidity|hospitali[sz]ations?|readmissions?|pain|symptoms?|inflammat\w*|fractures?|falls|cancers?|tumou?rs?|recurrence|failure|dementia|depression|disability|burden|injury|injuries|infections?|events|damage|lesions?|atrophy|fibrosis|obesity|stress|senescen\w*|relapse|exacerbations?|hypertension|glucose|cholesterol|weight gain|resistance|errors?|delirium|length of stay|costs?|aging|ageing|isch(?:a)?emia|necrosis|compartment syndromes?|vomiting|nausea|ha?emorrhages?|bleeding|pneumonia|sepsis|strokes?|thrombos[ie]s|embolism|infarction|anxiety|insomnia|constipation|diarrho?ea|amputations?)\b/i;
/** Outcomes whose increase is good for the patient. */
const GOOD =
  /\b(survival|lifespan|life span|life expectancy|longevity|healthspan|function|functioning|strength|quality of life|health|performance|speed|density|sensitivity|cognition|cognitive (function|performance|score)|memory|adherence|remission|response|recovery|satisfaction|independence|mobility|capacity|fitness|accuracy|efficacy|benefit|wellbeing|well-being|cure|healing|resilience|clearance|autophagy|vo2max|muscle|muscle mass|lean (body )?mass|bone mass|hdl|detection( rates?)?|diagnostic yield)\b/i;

const BENEFIT_WORDS =
  /\b((remains?|is|was) (still )?the (gold standard|standard of care|mainstay|first[- ]line)|encouraging|promising|valuable|worthwhile|advantageous|advantages?|helpful|preferred|preferable|(procedure|treatment|method|option|approach|technique) of choice|adequate (alternative|substitute|method|tool|option|means)|improv\w*|benefi\w*|effective|efficacious|superior|better|favou?rable|success\w*|feasib\w*|safe|harmless|well tolerated|should be (offered|retained|continued|maintained|kept)|restor\w*|rescu\w*|alleviat\w*|ameliorat\w*|relie\w*|outperform\w*|accurate|reliable|valid|useful|suitable|acceptable|sufficient|protective|protected|prevented|preventing|extended (median |maximal |mean )?(lifespan|life span|survival))\b/i;
const OUTWEIGH = /\b(benefits?|advantages?|risks?|harms?|costs?|disadvantages?)\b[^.;]{0,50}?\boutweigh\w*/i;
const BENEFIT_SHRINKS =
  /\b(benefits?|advantages?|value|usefulness|utility|yield|accuracy|efficacy|effectiveness)\b[^.;,]{0,40}?\b(less|lower|smaller|limited|reduced|minimal|decreas\w*|diminish\w*)\b/i;
const HARM_WORDS = new RegExp(String.raw`\b(worse|worsen\w*|premature (death|mortality|aging|ageing|senescence)|impair\w*|harm(?!less)\w*|detriment\w*|deleterious|toxic|(?<!non-?)inferior|adverse(ly)? affect\w*|shortened (lifespan|life span|survival)|poorer|unsafe|dangerous|` + ADDED_COST + String.raw`|should be (abandoned|discontinued|avoided|discouraged|abolished|stopped|eliminated|withdrawn))\b`, "i");

const INTERVENTION_CONTEXT = /\b(treat\w*|therap\w*|randomi[sz]\w*|supplement\w*|administ\w*|interventions?|placebo|dose|doses|dosing|received|receiving|given|fed|injected|exposure to|training|program\w*|arm|group)\b/i;
const ASSOCIATION_CONTEXT = /\b(associat\w*|correlat\w*|predict\w*|risk factors?|hazard ratio|odds ratio|relative risk|linked|related (?:to|with))\b/i;

/**
 * A withholding denied is a recommendation: "should not be withheld on the basis of age", "should
 * not be a barrier to treatment", "need not be avoided". Two negatives, read as the one positive.
 */
const WITHHOLDING_DENIED =
  /\b(should|must|need|ought to|can)\s+not\s+be\s+(withheld|denied|delayed|deferred|avoided|feared|discouraged|restricted|excluded|(a|an)\s+(barrier|obstacle|contraindication|reason (not )?to \w+))\b/gi;

/**
 * "…, and the gap was not explained by age or comorbidity": a finding said to hold after
 * adjustment, not an absence; read as an aside.
 */
const NOT_EXPLAINED_BY =
  /,?\s*(?:and\s+)?(?:the|this|these|that)\s+(?:gap|difference|differences|association|associations|effect|excess|disparity|disparities|relationship|link)\s+(?:was|were|is|are)\s+not\s+(?:\w+ly\s+)?(?:explained|accounted for|attenuated|removed)\s+by\b[^,;.]*/gi;

/**
 * How good a measure, test or practice was found, by the conventions authors grade their statistics
 * with: the area under the ROC curve (or c-statistic) below 0.7 poor, from 0.8 good (Hosmer and
 * Lemeshow); Cohen's kappa below 0.4 poor, from 0.6 good (Landis and Koch); the intraclass
 * correlation below 0.5 poor, from 0.75 good (Koo and Li); Cronbach's alpha below 0.6 poor, from 0.7
 * good; sensitivity and specificity both below 70% poor. Or in words, a measure's quality said to be
 * good or poor ("test-retest reliability was poor", "agreement was excellent"). Null when nothing is
 * graded, or when good and poor are both said. Values between the bounds grade nothing.
 */
const STATISTIC_VALUE = String.raw`\s*(?:\([^)]{0,20}\)\s*)?(?:of|was|were|is|=|:|≥|>|<|≤|,)?\s*(?:of\s+)?(0?\.\d+|1\.0+|0|1)\b`;
const GRADED_STATISTICS: { name: RegExp; poorBelow: number; goodFrom: number }[] = [
  { name: new RegExp(String.raw`\b(?:AUC|AUROC|ROC AUC|c-?statistics?|c-?index|C statistic|area under the (?:receiver operating characteristics? |ROC )?curves?(?: \(AUC\))?(?: for \w+(?: \w+)?)?)${STATISTIC_VALUE}`, "gi"), poorBelow: 0.7, goodFrom: 0.8 },
  { name: new RegExp(String.raw`(?:\bkappa|κ)(?: statistic| coefficient| value)?${STATISTIC_VALUE}`, "gi"), poorBelow: 0.4, goodFrom: 0.6 },
  { name: new RegExp(String.raw`\b(?:ICC|intraclass correlation(?: coefficient)?)s?${STATISTIC_VALUE}`, "gi"), poorBelow: 0.5, goodFrom: 0.75 },
  { name: new RegExp(String.raw`\b(?:Cronbach's alpha|Cronbach’s alpha|Cronbach's α|Cronbach’s α|Cronbach alpha)(?: coefficient)?${STATISTIC_VALUE}`, "gi"), poorBelow: 0.6, goodFrom: 0.7 },
];
const SENSITIVITY = /\bsensitivity (?:of |was |=\s*|:\s*)?(\d{1,3}(?:\.\d+)?)\s?%/i;
const SPECIFICITY = /\bspecificity (?:of |was |=\s*|:\s*)?(\d{1,3}(?:\.\d+)?)\s?%/i;
/**
 * Qualities of a measure or a test. Not outcomes a treatment may move ("adherence was low with the
 * new regimen" answers a claim that it lowers adherence), which the directions read.
 */
const QUALITY_NOUN =
  "(?:reliability|validity|agreement|concordance|consistency|reproducibility|repeatability|precision|accuracy|sensitivity|specificity|discrimination|calibration|responsiveness)";
const STATED_POOR = new RegExp(
  String.raw`\b${QUALITY_NOUN}\b[^.;]{0,60}?\b(?:was|were|is|are|remained|proved|appeared|seemed)\s+(?:\w+ly\s+)?(?:poor|low|weak|unacceptable|unsatisfactory|inadequate|suboptimal|slight)\b`,
  "i",
);
const STATED_GOOD = new RegExp(
  String.raw`\b${QUALITY_NOUN}\b[^.;]{0,60}?\b(?:was|were|is|are|remained|proved|appeared|seemed)\s+(?:\w+ly\s+)?(?:excellent|good|high|strong|substantial|satisfactory|acceptable|almost perfect|near-perfect|perfect|outstanding)\b`,
  "i",
);

export function gradedQuality(text: string): "good" | "poor" | null {
  const grades = new Set<"good" | "poor">();
  for (const { name, poorBelow, goodFrom } of GRADED_STATISTICS) {
    for (const m of text.matchAll(name)) {
      const v = Number(m[1]);
      if (v < poorBelow) grades.add("poor");
      else if (v >= goodFrom) grades.add("good");
    }
  }
  const sensitivity = SENSITIVITY.exec(text);
  const specificity = SPECIFICITY.exec(text);
  if (sensitivity && specificity && Number(sensitivity[1]) < 70 && Number(specificity[1]) < 70) grades.add("poor");
  if (STATED_POOR.test(text)) grades.add("poor");
  if (STATED_GOOD.test(text)) grades.add("good");
  return grades.size === 1 ? [...grades][0]! : null;
}

const NOT_EXCLUDED = /\b(?:cannot|can not|can't|could not|couldn't)\s+be\s+(?:completely\s+|entirely\s+|fully\s+)?(?:excluded|ruled out|dismissed)\b/i;
/**
 * Two groups' shares set side by side where the text gives no test of its own (no p-value, no
 * interval): "31 of 150 patients on statins (20.7%) and 33 of 148 controls" is tested as two
 * proportions (a two-sided z-test at 5%); with percentages alone, two within 1.5 points or 5% of
 * each other ("in 14% of deficient and 13% of sufficient participants", "11.0% before and 10.6%
 * after") are alike, since no study of a size that reports percentages finds that a difference.
 * Only shares in parallel, the second right after "and", "vs" or "compared with"; not counts of two
 * things in one group ("upstaged in 3 of 36 cases and downstaged disease in 5 of 36"), nor accuracy
 * figures ("a sensitivity of 91% and a specificity of 86%"). Two means with their SDs, and a
 * correlation coefficient, are read by Cohen's bounds of a negligible effect. "differ" only from
 * counts; null when nothing is compared.
 */
const JOINED = String.raw`[^;]{0,60}?\b(?:and|vs\.?|versus|compared (?:with|to)|than)\s+(?:in\s+|of\s+|among\s+|for\s+)?`;
const PARALLEL_COUNTS = new RegExp(String.raw`\b(\d{1,6})\s*(?:of|out of)\s*(\d{1,6})\b${JOINED}(\d{1,6})\s*(?:of|out of)\s*(\d{1,6})\b`, "i");
const PARALLEL_SHARES = new RegExp(String.raw`(\d{1,3}(?:\.\d+)?)\s?(?:%|percent\b)${JOINED}(\d{1,3}(?:\.\d+)?)\s?(?:%|percent\b)`, "i");
const PARALLEL_MEANS = new RegExp(String.raw`(-?\d+(?:\.\d+)?)\s*(?:±|\+/-|\+-)\s*(\d+(?:\.\d+)?)${JOINED}(-?\d+(?:\.\d+)?)\s*(?:±|\+/-|\+-)\s*(\d+(?:\.\d+)?)`, "i");
const CORRELATION = /\b(?:r|rho|ρ|r\s?s|Spearman's rho|Pearson's r|correlation coefficient)\s*(?:=|:|was|of)\s*([-−–]?\s?0?\.\d+)/i;
export function comparedByNumbers(text: string): "alike" | "differ" | null {
  if (/\bp\s*[<>=≤≥]|\b(CI|confidence interval)\b|\b(sensitivity|specificity|predictive value|PPV|NPV|accuracy)\b/i.test(text)) return null;
  const counts = PARALLEL_COUNTS.exec(text);
  if (counts) {
    const [k1, n1, k2, n2] = counts.slice(1, 5).map(Number) as [number, number, number, number];
    if (n1 > 0 && n2 > 0 && k1 <= n1 && k2 <= n2) {
      const pooled = (k1 + k2) / (n1 + n2);
      const se = Math.sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n2));
      if (se === 0) return null;
      return Math.abs(k1 / n1 - k2 / n2) / se >= 1.96 ? "differ" : "alike";
    }
  }
  // Two means with their SDs ("42.1 ± 8.2 with music and 42.9 ± 7.9 without"): a standardised
  // difference under 0.2 is negligible (Cohen), alike whatever the sample.
  const means = PARALLEL_MEANS.exec(text);
  if (means) {
    const [m1, sd1, m2, sd2] = means.slice(1, 5).map(Number) as [number, number, number, number];
    const pooled = Math.sqrt((sd1 * sd1 + sd2 * sd2) / 2);
    if (pooled > 0 && Math.abs(m1 - m2) / pooled < 0.2) return "alike";
  }
  // A correlation coefficient under 0.1 is negligible (Cohen): "barely correlated (r = 0.06)".
  const correlation = CORRELATION.exec(text);
  if (correlation && Math.abs(toNumber(correlation[1]!)) < 0.1) return "alike";
  const shares = PARALLEL_SHARES.exec(text);
  if (!shares) return null;
  const [a, b] = [Number(shares[1]), Number(shares[2])];
  return Math.abs(a - b) <= 1.5 || Math.abs(a - b) / Math.max(a, b) <= 0.05 ? "alike" : null;
}


const SPARED_NEEDLESS = /\b(?:avoid|prevent|reduc|spar|eliminat|minimi[sz]|cut|decreas|lower)\w*\s+(?:\w+\s+){0,3}?(?:unnecessary|needless|futile|inappropriate|avoidable|unneeded)\s+[\w-]+/gi;
/** Reads one sentence (or clause) of an abstract. */
export function readFinding(sentence: string): FindingReading {
  // "The benefit was not lost at five years": a loss denied is the benefit kept.
  const whole = sentence.replace(/\s+/g, " ").replace(/\b(was|were) not (lost|diminished)\b/gi, "$1 maintained").replace(WITHHOLDING_DENIED, "should be offered").replace(NOT_EXPLAINED_BY, " ");
  // "improved heart function … without side effects": a finding of effect, its safety said beside
  // it. The trailing absence of harm is read as an aside, never as the absence of the effect.
  const aside = whole.replace(SAFETY_ASIDE, " ");
  const chosen = aside !== whole && EFFECT_CUES.test(aside) && !NULL_CUES.some((re) => re.test(aside)) ? aside : whole;
  // "avoided unnecessary laparotomy": sparing patients a needless thing is a benefit, not a shortfall.
  const text = chosen.replace(SPARED_NEEDLESS, "prevented harm");
  const uncertain = UNCERTAIN.test(text);
  const spansNull = intervalSpansNull(text);
  const quality = gradedQuality(text);
  const compared = comparedByNumbers(text);
  const nullHit = NULL_CUES.some((re) => re.test(text)) || spansNull || quality === "poor" || compared === "alike";
  const effectHit = EFFECT_CUES.test(text) || EFFECT_SIZE.test(text) || SIGNIFICANT_P.test(text) || compared === "differ";
  const association = ASSOCIATION_CONTEXT.test(text) && !INTERVENTION_CONTEXT.test(text);
  // "could not be confirmed", "cannot be recommended" state a negative plainly: not a hedge.
  const unhedged = text.replace(/\b(could|can)\s+not\b|\bcannot\b|\bcouldn't\b/gi, " ");
  const certainty = HEDGE_STRONG.test(unhedged) ? 0.6 : HEDGE_MILD.test(unhedged) ? 0.85 : 1;
  const safety = SAFETY_OBJECT.test(text);
  // "A causal role could not be ruled out": a possibility left open, said as a hedge, not an absence.
  if (NOT_EXCLUDED.test(text)) return { effect: "found", valence: valenceOf(text.replace(NOT_EXCLUDED, " ")), safety, certainty: Math.min(certainty, 0.6), association };
  if (nullHit) {
    // "No serious adverse events occurred" is a finding of safety: a benefit, not an absent effect.
    // Only when the negation is on the harm itself: "a poor knowledge of the side effects" is not.
    if ((negatesHarm(text) || HARM_ABSENT.test(text)) && !GOOD.test(text.replace(SAFETY_OBJECT, " "))) return { effect: "found", valence: "benefit", safety: true, certainty, association };
    return { effect: "none", valence: "neutral", safety, certainty, association, alike: (ALIKE.test(text) && !NOT_ALIKE.test(text)) || spansNull || compared === "alike" };
  }
  // A measure graded good ("agreement was excellent", "an AUC of 0.91") is a finding in its favour.
  if (quality === "good") return { effect: "found", valence: "benefit", safety, certainty, association };
  if (!effectHit) return { effect: "unclear", valence: "neutral", safety, certainty, association };
  if (uncertain && certainty < 1) return { effect: "unclear", valence: "neutral", safety, certainty, association };
  // "…leads to epithelial damage and fibrosis, suggesting a protective role for the receptor": the
  // interpretation after "suggesting" is the authors' gloss, and the finding's valence is the finding's.
  const finding = text.split(INTERPRETATION)[0]!;
  const valence = finding !== text && EFFECT_CUES.test(finding) ? valenceOf(finding) : valenceOf(text);
  return { effect: "found", valence, safety, certainty, association };
}

/** Where a finding's interpretation begins: ", suggesting a protective role". */
const INTERPRETATION = /,\s+(?:suggesting|indicating|implying|consistent with|supporting|which suggests?|which indicates?)\b/i;
/**
 * Benefit or harm of a stated change: an explicit word ("improved", "worsened"), else the way a
 * change goes on what it changes ("lower mortality" is a benefit, "lower survival" a harm).
 */
export function valenceOf(text: string): Valence {
  // "the risks of the operation outweigh its benefits": whichever is said to outweigh decides.
  const weighed = OUTWEIGH.exec(text);
  if (weighed) return /^(benefit|advantage)/i.test(weighed[1]!) ? "benefit" : "harm";
  // "the benefit of SL will become even less": a benefit said to shrink is no benefit.
  const shrinking = BENEFIT_SHRINKS.test(text);
  const benefit = BENEFIT_WORDS.test(text) && !shrinking;
  const harm = HARM_WORDS.test(text) || shrinking;
  if (benefit && !harm) return "benefit";
  if (harm && !benefit) return "harm";
  let score = 0;
  const changes = [...[...text.matchAll(UP)].map((m) => ({ m, sign: 1 })), ...[...text.matchAll(DOWN)].map((m) => ({ m, sign: -1 }))].sort((a, b) => a.m.index! - b.m.index!);
  /** Change words read as the object of an earlier one ("counteracts the selective loss"), not as changes of their own. */
  const objects = new Set<number>();
  for (const { m: match, sign } of changes) {
    if (objects.has(match.index!)) continue;
    // "blunted the gain": the gain is what was blunted, not a change of its own.
    if (CHANGED_BY_PREVIOUS.test(text.slice(Math.max(0, match.index! - 40), match.index!))) continue;
    // What the change is about: the words that follow it, up to the end of the clause.
    const after = text.slice(match.index! + match[0].length).split(/[,;:]|\b(and|but|whereas|while|than|compared)\b/)[0] ?? "";
    // A change of a change ("counteracts the selective loss of muscle fibres", "prevented the decline
    // in function"): what is changed is the inner change of its own object, so their signs compose:
    // a loss of something good is bad, and countering a bad thing is a benefit.
    const inner = CHANGE_OBJECT.exec(after);
    if (inner) {
      // Its object: what follows "of" or "in" ("loss of muscle"), else the words before it ("muscle loss").
      const rest = after.slice(inner[0].length);
      const of = /^\s+(of|in)\b/i.test(rest) ? rest.slice(0, 80) : inner[1]!;
      const good = GOOD.test(of) && !BAD.test(of);
      const bad = BAD.test(of) && !GOOD.test(of);
      if (good || bad) {
        objects.add(match.index! + match[0].length + inner[0].length - inner[2]!.length);
        score += sign * (UP_NOUN.test(inner[2]!) ? 1 : -1) * (good ? 1 : -1);
        continue;
      }
    }
    const before = text.slice(Math.max(0, match.index! - 60), match.index!);
    const target = `${after.slice(0, 80)} ${/\b(of|in)\s*$/.test(before) ? "" : before.split(/[,;]/).pop() ?? ""}`;
    const bad = BAD.test(after.slice(0, 80)) || (!GOOD.test(after.slice(0, 80)) && BAD.test(target));
    const good = GOOD.test(after.slice(0, 80)) || (!BAD.test(after.slice(0, 80)) && GOOD.test(target));
    if (bad && !good) score -= sign;
    else if (good && !bad) score += sign;
  }
  return score > 0 ? "benefit" : score < 0 ? "harm" : "neutral";
}

/** True when a sentence states what was found, not the background, aims or methods. */
export function isFindingSentence(sentence: string): boolean {
  // A negated or falling-short statement is a finding too ("no general gains", "low diagnostic efficiency").
  return (FINDING_CUES.test(sentence) || NULL_CUES.some((re) => re.test(sentence))) && !isAimSentence(sentence) && !isMethodSentence(sentence);
}

/** The clauses of a sentence that may state different findings ("X improved, but Y did not"). */
/** A predicate denied or fallen short of: "hardly", "not", "failed to", "little". */
/** A change gone without, and the verb its denial takes: "without (significantly) reducing". */
const WITHOUT_VERBS: Record<string, string> = {
  improving: "improve", reducing: "reduce", lowering: "lower", decreasing: "decrease", preventing: "prevent", shortening: "shorten",
  prolonging: "prolong", extending: "extend", affecting: "affect", changing: "change", altering: "alter", influencing: "influence",
  increasing: "increase", enhancing: "enhance", benefiting: "benefit", benefitting: "benefit", raising: "raise",
};
const WITHOUT_CHANGING = new RegExp(String.raw`,?\s+without\s+((?:significantly|substantially|meaningfully|materially|measurably|any)\s+)?(${Object.keys(WITHOUT_VERBS).join("|")})\b`, "i");
const DENIED_FIRST = /\b(?:not|no|never|hardly|barely|scarcely|little|failed|without|neither|nor)\b|n't\b/i;
export function clauses(sentence: string): string[] {
  // "Although X, Y" and "Despite X, Y": the finding is Y; X is conceded.
  // "While X, Y" and "Whereas X, Y" set two findings side by side: both are read.
  // "Because history alone identified none of them, testing should be retained": the finding is what follows.
  // "Mortality, however, did not differ": a "however" between commas after a short subject joins the
  // sentence to the one before; it splits nothing.
  const main = sentence.replace(/^([^,]{1,60}),\s*however,\s*/i, "$1 ").replace(/^(although|though|despite|even though|in spite of|because)\b[^,]{0,200},\s*/i, "").replace(/^(while|whereas)\s+([^,]{0,200}),\s*/i, "$2; ");
  // "Daily multivitamins, but not cocoa extract, improved cognition": the exclusion between commas
  // is an aside; the sentence goes on with what the first did.
  // "had lower, not higher, rates of caesarean delivery": the word denied between commas is the
  // correction's other half; the sentence says the first.
  const aside = main.replace(/,\s+but not\s+[^,;]{1,50},\s+(?=[a-z])/i, " ").replace(/,\s+not\s+[a-z-]+,\s+(?=[a-z])/i, " ");
  // "linked to X rather than to Y", "X instead of Y": Y is what it is not. In the subject ("starting
  // metformin rather than a sulfonylurea was associated with …") it only names the comparator.
  const contrasted = aside
    .replace(/\s+\b(?:rather than|instead of)\b\s+[^,;]*?\s+(?=(?:was|were|is|are|has|have|had)\b)/i, " ")
    .replace(/,?\s+\b(rather than|instead of)\b\s+/i, "; not ")
    // "depended on the number of drugs taken, not on age": the denied half is a finding of its own.
    .replace(/,\s+(not\s+(?:on|with|to|by|in|for|of|among|from)\s+[^,;]+)$/i, "; $1");
  // A semicolon inside brackets separates statistics ("(HR, 1.13; 95% CI, 1.02-1.26)"), not findings.
  // "cannot yet replace", "has yet to be shown", "as yet": "yet" is an adverb there, not a contrast.
  const guarded = contrasted
    .replace(/\([^()]*\)/g, (inside) => inside.replace(/;/g, "\u0000"))
    .replace(/\b(cannot|can't|not|never|has|have|had|as)\s+yet\b/gi, "$1 \u0001")
    // "weak but significant": one finding, its size and its significance, not two.
    .replace(/\b(weak|small|modest|slight|marginal)\s+but\s+(?=(?:statistically\s+)?significant)/gi, "$1 \u0002 ");
  // "pantoprazole halved bleeding and did not increase fractures": two predicates of one subject,
  // one of them denied, are two findings; the denial does not reach back over the first.
  // Not when the first is denied too ("hardly replenished iron stores and did not improve …"): one finding.
  return guarded
    .split(/(?:,|;)?\s+\b(?:but|whereas|while|although|though|however|yet)\b,?\s+|;\s+/i)
    .flatMap((c) => {
      // "increased hypoglycaemia without reducing mortality", "added cost without improving
      // outcome": the change it went without is a finding denied, read as its own clause ("did not
      // reduce mortality"), not as part of the first.
      const without = WITHOUT_CHANGING.exec(c);
      return without && !DENIED_FIRST.test(c.slice(0, without.index)) ? [c.slice(0, without.index), `did not ${without[1] ?? ""}${WITHOUT_VERBS[without[2]!.toLowerCase()]}${c.slice(without.index + without[0].length)}`] : [c];
    })
    .flatMap((c) => {
      // So is "fewer complications and no increase in operating time".
      const and = /,?\s+and\s+(?=(?:did|does|do|was|were|had|has|have)\s+not\b|(?:did|does|do|was|were)n't\b|no\s+(?:\w+\s+)?(?:increase|rise|change|difference|effect|loss)\b)/i.exec(c);
      return and && !DENIED_FIRST.test(c.slice(0, and.index)) ? [c.slice(0, and.index), c.slice(and.index + and[0].length)] : [c];
    })
    .map((c) => c.replace(/\u0000/g, ";").replace(/\u0001/g, "yet").replace(/\u0002/g, "but").trim())
    // "not on age": a denied half is short and still a finding.
    .filter((c) => c.length > 12 || /^not\s+\w+\s+\w/i.test(c));
}
