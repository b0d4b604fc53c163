import { describe, expect, it } from "vitest";
import { chatRequestSchema, deepResearchStartRequestSchema, literatureQueryRequestSchema, MAX_MESSAGE_CHARS, MAX_QUESTION_CHARS, MAX_TAGS } from "@/lib/shared/contracts";
import { buildLiteratureRequest, INITIAL_LITERATURE_FORM, type LiteratureForm } from "@/lib/web/literature-request";
import { buildChatRequest, buildResearchRequest, messageCount } from "@/lib/web/message-request";

/** A literature form as a person leaves it, with `overrides`. */
const buildForm = (overrides: Partial<LiteratureForm> = {}): LiteratureForm => ({ ...INITIAL_LITERATURE_FORM, question: "Does rapamycin extend lifespan in mice?", ...overrides });

/** Forms the page accepts: every body built from them must be one the contract accepts. */
const ACCEPTED_FORMS: [string, LiteratureForm][] = [
  ["the defaults", buildForm()],
  ["deep with recall", buildForm({ mode: "deep", recall: true })],
  ["every scope", buildForm({ scope: "trials" })],
  ["tags in fanout, one still typed", buildForm({ tags: ["rapamycin"], tagDraft: "metformin, ", tagMode: "fanout" })],
  ["tags combined", buildForm({ tags: ["rapamycin", "mTOR"], tagMode: "combined" })],
  ["one year", buildForm({ dateFilter: "years", yearFrom: "2020", yearTo: "2020" })],
  ["a year range open at the end", buildForm({ dateFilter: "years", yearFrom: "2015" })],
  ["a date range", buildForm({ dateFilter: "dates", dateFrom: "2019-01-31", dateTo: "2024-02-29" })],
  ["only a start date", buildForm({ dateFilter: "dates", dateFrom: "2019-01-31" })],
  ["raw with rejected, out of logs", buildForm({ filterReferences: false, includeRejected: true, keepOutOfLogs: true, maxResults: "200" })],
  ["a question of exactly the limit in code points", buildForm({ question: "🧬".repeat(MAX_QUESTION_CHARS) })],
];

/** Forms the page refuses: the contract must refuse what they would have sent, or the page says why first. */
const REFUSED_FORMS: [string, LiteratureForm, string][] = [
  ["a blank question", buildForm({ question: " \n\t " }), "question"],
  ["a 9,000-character paste", buildForm({ question: "a".repeat(9000) }), "question"],
  ["too many tags", buildForm({ tags: Array.from({ length: MAX_TAGS }, (_, i) => `t${i}`), tagDraft: "one more" }), "tags"],
  ["a year range that ends before it starts", buildForm({ dateFilter: "years", yearFrom: "2020", yearTo: "2010" }), "yearTo"],
  ["a date that does not exist", buildForm({ dateFilter: "dates", dateFrom: "2023-02-30" }), "dateFrom"],
  ["dates in the wrong order", buildForm({ dateFilter: "dates", dateFrom: "2024-01-01", dateTo: "2023-01-01" }), "dateTo"],
  ["too many results", buildForm({ maxResults: "201" }), "maxResults"],
];

describe("the literature request builder, against LiteratureQueryRequest", () => {
  it.each(ACCEPTED_FORMS)("%s: builds a body the contract accepts", (_, form) => {
    const built = buildLiteratureRequest(form, { thisYear: 2025 });
    if ("errors" in built) throw new Error(`refused: ${JSON.stringify(built.errors)}`);
    const parsed = literatureQueryRequestSchema.safeParse(built.body);
    expect(parsed.error?.issues ?? []).toEqual([]);
  });

  it("keeps what was asked: options, tags typed but not added, the open year range up to this year", () => {
    const built = buildLiteratureRequest(buildForm({ mode: "deep", tags: ["rapamycin"], tagDraft: "metformin", dateFilter: "years", yearFrom: "2015", keepOutOfLogs: true }), { thisYear: 2025 });
    expect("body" in built && built.body).toMatchObject({ mode: "deep", tags: ["rapamycin", "metformin"], tagMode: "fanout", year: "2015-2025", privacyMode: "strict" });
  });

  it.each(REFUSED_FORMS)("%s: refused with a message on its field", (_, form, field) => {
    const built = buildLiteratureRequest(form, { thisYear: 2025 });
    expect("errors" in built && built.errors[field as keyof typeof built.errors]).toMatch(/\w/);
  });

  it("an over-long question is never cut: the message gives its length and the limit", () => {
    const built = buildLiteratureRequest(buildForm({ question: "a".repeat(9000) }));
    expect("errors" in built && built.errors.question).toBe("The question is 9,000 characters long; at most 8,192 are accepted. Shorten it: nothing was cut and nothing was paid.");
    // The contract refuses what an unchecked page would have sent.
    expect(literatureQueryRequestSchema.safeParse({ question: "a".repeat(9000) }).success).toBe(false);
  });
});

describe("the chat and deep-research request builders, against ChatRequest and DeepResearchStartRequest", () => {
  const conversationId = "5f0c2a8e-2b1d-4c53-9a43-0d6f3f6f1b7a";

  it("build bodies the contract accepts, trimmed, with the conversation continued in deep research", () => {
    const chat = buildChatRequest({ message: "  Does metformin slow ageing?\n" });
    expect(chat).toEqual({ ok: true, body: { message: "Does metformin slow ageing?" } });
    expect(chat.ok && chatRequestSchema.safeParse(chat.body).success).toBe(true);
    const research = buildResearchRequest({ message: "And in women?", conversationId });
    expect(research).toEqual({ ok: true, body: { message: "And in women?", conversationId } });
    expect(research.ok && deepResearchStartRequestSchema.safeParse(research.body).success).toBe(true);
  });

  it("a chat follow-up continues the conversation it names; a first question names none", () => {
    const followUp = buildChatRequest({ message: "Why?", conversationId });
    expect(followUp).toEqual({ ok: true, body: { message: "Why?", conversationId } });
    expect(followUp.ok && chatRequestSchema.safeParse(followUp.body).success).toBe(true);
    expect(buildChatRequest({ message: "Why?", conversationId: null })).toEqual({ ok: true, body: { message: "Why?" } });
  });

  it.each([
    ["blank", " \n ", /empty/],
    ["over the limit", "x".repeat(MAX_MESSAGE_CHARS + 1), /32,001 characters long; at most 32,000/],
  ])("a %s message is refused in words, as the contract would refuse it", (_, message, words) => {
    for (const built of [buildChatRequest({ message }), buildResearchRequest({ message })]) {
      expect(built.ok).toBe(false);
      expect(!built.ok && built.error).toMatch(words);
    }
    expect(chatRequestSchema.safeParse({ message }).success).toBe(false);
    expect(deepResearchStartRequestSchema.safeParse({ message }).success).toBe(false);
  });

  it("the counter says how many characters are too many", () => {
    expect(messageCount("x".repeat(MAX_MESSAGE_CHARS + 5))).toEqual({ text: "32,005 / 32,000 characters — 5 too many", over: true });
    expect(messageCount("abc").over).toBe(false);
  });
});
