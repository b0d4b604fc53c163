import type { LiteratureRecord } from "./record";
import { splitSentences } from "./sentences";
import { sectionsOf } from "./stance/sections";
import { isAimSentence } from "./findings";

/**
 * Studies of what people think, know or would do ("Willingness of older adults to adopt calorie
 * restriction…", "Attitudes of surgeons toward…", "Knowledge and perceptions of…"): they measure
 * the attitude, not what the intervention does, so they test only a question that asks about
 * attitudes (roles.ts). Read from the record's own title (a derived one is the abstract's first
 * sentence, which may be background), whose head names what was measured. The nouns are those of
 * MeSH's "Attitude" and "Health Knowledge, Attitudes, Practice" headings and their entry terms.
 */
const ATTITUDE_NOUNS = "attitudes?|willingness|perceptions?|opinions?|beliefs?|acceptability|preferences?|awareness|knowledge";

/** The title opens with the attitude, maybe after whose it is ("Patients' attitudes toward …"). */
/** The attitude and what it is of: "knowledge and attitudes among …", "perceptions of …". */
const ATTITUDE_PHRASE = `(?:${ATTITUDE_NOUNS})\\b(?:(?:,\\s*|,?\\s+(?:and|or)\\s+)(?:${ATTITUDE_NOUNS}|practices?|behaviou?rs?))*\\s+(?:of|to|toward|towards|about|on|regarding|among|in)\\b`;
const ATTITUDE_TITLE = new RegExp(`^(?:[\\w-]+(?:'s?|s')?\\s+){0,2}?${ATTITUDE_PHRASE}`, "i");

/** An aim that is to measure an attitude: "To examine patterns of knowledge and attitudes among adults …". */
const ATTITUDE_AIM = new RegExp(
  `^(?:the (?:aim|objective|purpose|goal) of (?:this|the|our) (?:study|survey) (?:was|is) )?to (?:examine|assess|evaluate|explore|describe|determine|investigate|measure|survey|identify|compare|ascertain|elicit|characteri[sz]e)\\s+(?:the\\s+)?(?:[\\w-]+\\s+){0,2}?${ATTITUDE_PHRASE}`,
  "i",
);

/** An aim that is to see what people would choose: "Examine whether patients with prostate cancer choose the more aggressive …". */
const CHOICE_AIM =
  /^(?:to\s+)?(?:examine|assess|determine|explore|investigate|evaluate|establish)\s+whether\s+(?:\w+\s+){0,2}(?:patients|people|persons|women|men|parents|physicians|doctors|surgeons|adults|consumers|participants)\b[^.;]{0,60}?\b(?:choose|prefer|want|wish|would (?:accept|choose|prefer|trade|opt))\b/i;

/**
 * Read from the record's own title; where the library has none (it derived one from the abstract),
 * from the abstract's stated aim, which says the same of what was measured.
 */
export function studiesAttitudes(record: Pick<LiteratureRecord, "title" | "titleDerived"> & Partial<Pick<LiteratureRecord, "abstract">>): boolean {
  if (!record.titleDerived) return ATTITUDE_TITLE.test(record.title.trim());
  const aims = sectionsOf(record.abstract ?? "").flatMap((s) => (s.role === "aim" ? splitSentences(s.text) : []));
  return [record.title, ...aims].some((sentence) => ATTITUDE_AIM.test(sentence.trim()) || CHOICE_AIM.test(sentence.trim()));
}

/** A question about what people think, want, know or would do ("Do patients want…?", "Are doctors aware…?"). */
const ATTITUDE_QUESTION =
  /\b(wants?|wish(es)?|willing(ness)?|prefers?|preferences?|accepts?|acceptable|acceptability|acceptance|attitudes?|opinions?|views?|believes?|beliefs?|thinks?|perceives?|perceived|perceptions?|aware|awareness|knows?|knowledge|satisf\w*|agrees?|expect\w*|fears?|worr\w*|concerns?|feels?|recogni[sz]e\w*)\b/i;

export function asksAboutAttitudes(question: string): boolean {
  return ATTITUDE_QUESTION.test(question);
}

/**
 * Surveys of how many people use something ("Use of anti-aging supplements and drugs among adults
 * aged 50 and older: a cross-sectional survey", "Prevalence of dietary supplement use among older
 * adults"): they count users and what users say of it, not what it does, so like attitude surveys
 * they test only a question about its use (roles.ts). Read from the record's own title: the use
 * of something among a population, or a title that calls the study a survey of use.
 */
const USE_TITLE = /^(?:the\s+)?(?:(?:use|usage|utili[sz]ation|uptake|consumption)\s+of\b[^:]*\bamong\b|prevalence\s+(?:and\s+[\w-]+\s+)?of\s+[^:]*\buse\b)/i;

export function studiesUse(record: Pick<LiteratureRecord, "title" | "titleDerived">): boolean {
  return !record.titleDerived && USE_TITLE.test(record.title.trim());
}

/**
 * Trials of ways to get people to use something ("Can tailored interventions increase mammography
 * use?", "telephone counselling for promoting mammography screening"): its use is their outcome,
 * so they test the reminder or the counselling, not what mammography does (roles.ts). Read from the
 * title, and where the library has none, from the stated aim.
 */
const PROMOTES_USE =
  /\b(?:increas\w*|improv\w*|promot\w*|encourag\w*|enhanc\w*|rais\w*|boost\w*)\s+(?:the\s+)?(?:(?:[\w-]+\s+){0,2}?(?:use|uptake|attendance|participation|utili[sz]ation|adherence|screening)\b|(?:use|uptake|attendance|participation|utili[sz]ation|adherence)\s+(?:of|in|to|for)\b)/i;
/** A question about such a way ("Do reminder letters increase mammography uptake?"). */
export function asksToPromoteUse(question: string): boolean {
  return PROMOTES_USE.test(question);
}
export function promotesUse(record: Pick<LiteratureRecord, "title" | "titleDerived"> & Partial<Pick<LiteratureRecord, "abstract">>): boolean {
  if (!record.titleDerived) return PROMOTES_USE.test(record.title);
  // An aim said anywhere ("This study addressed the question: … for promoting mammography screening?").
  const aims = sectionsOf(record.abstract ?? "").flatMap((s) => splitSentences(s.text).filter((t) => isAimSentence(t)));
  // Not the derived title: the abstract's first sentence is often background ("… has increased the use of other dose forms").
  return aims.some((sentence) => PROMOTES_USE.test(sentence));
}

/** A question about how many use something or who does ("How common is metformin use among older adults?"). */
const USE_QUESTION = /\b(how (?:many|common|often|widely)|prevalence|usage|uptake|popular\w*|users?|use of|consumption)\b/i;

export function asksAboutUse(question: string): boolean {
  return USE_QUESTION.test(question);
}
