import type { LiteratureRecord } from "./record";

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
const ATTITUDE_TITLE = new RegExp(`^(?:[\\w-]+(?:'s?|s')?\\s+){0,2}?(?:${ATTITUDE_NOUNS})\\b(?:(?:,\\s*|,?\\s+(?:and|or)\\s+)(?:${ATTITUDE_NOUNS}|practices?|behaviou?rs?))*\\s+(?:of|to|toward|towards|about|on|regarding|among|in)\\b`, "i");

export function studiesAttitudes(record: Pick<LiteratureRecord, "title" | "titleDerived">): boolean {
  return !record.titleDerived && ATTITUDE_TITLE.test(record.title.trim());
}

/** A question about what people think, want, know or would do ("Do patients want…?", "Are doctors aware…?"). */
const ATTITUDE_QUESTION =
  /\b(wants?|wish(es)?|willing(ness)?|prefers?|preferences?|accepts?|acceptable|acceptability|acceptance|attitudes?|opinions?|views?|believes?|beliefs?|thinks?|perceives?|perceived|perceptions?|aware|awareness|knows?|knowledge|satisf\w*|agrees?|expect\w*|fears?|worr\w*|concerns?|feels?|recogni[sz]e\w*)\b/i;

export function asksAboutAttitudes(question: string): boolean {
  return ATTITUDE_QUESTION.test(question);
}
