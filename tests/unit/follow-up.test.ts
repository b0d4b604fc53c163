import { describe, expect, it } from "vitest";
import { decideFollowUp } from "@/agent/chat/follow-up";
import { withReading } from "@/agent/chat/follow-up-note";
import { readMarkers } from "@/agent/chat/quality";
import type { ChatResult } from "@/lib/shared/contracts";

/**
 * Issue 25, item 1: a message sent within a conversation is a follow-up only when it leans on the
 * question before it; one that names its own subject is read on its own words. The sentences here
 * are this file's own (the follow-up evaluation set is measured by `npm run bench -- follow-up`).
 */

const decide = (earlier: string | string[], message: string) => decideFollowUp({ earlier: Array.isArray(earlier) ? earlier : [earlier], message });

describe("follow-ups said in other ways (sentences written here, 2026-11-27 late)", () => {
  // Each was read as a new topic before: a comparison with the earlier subject, a request for
  // more, a level or a brand of it, and a person's circumstances before a question whose "it" is
  // the earlier subject.
  it.each([
    ["Does metformin slow aging in humans?", "How does rapamycin compare?", /rapamycin/i],
    ["Does exercise improve muscle strength in older adults?", "Tell me more about the largest trial.", /exercise/i],
    ["Does vitamin D prevent falls in older people?", "What blood level should I aim for?", /vitamin D/i],
    ["Does vitamin D prevent falls in older people?", "Which brand is cheapest?", /vitamin D/i],
    ["Does vitamin D prevent falls in older people?", "I'm 72 and fell twice last year. Should I take it?", /^I'm 72 and fell twice last year\. .*vitamin D/i],
  ])("after “%s”: “%s”", (earlier, message, question) => {
    const decision = decide(earlier, message);
    expect(decision.kind).toBe("follow_up");
    expect(decision.question).toMatch(question);
  });

  it("circumstances that name a thing of their own keep “it” for that thing", () => {
    expect(decide("Does vitamin D prevent falls in older people?", "I take lisinopril every day. Should I stop it?").kind).toBe("new_topic");
  });
});

describe("a new topic is read on its own words", () => {
  it.each([
    ["Does exercise slow muscle aging?", "What's a good recipe for sourdough bread?"],
    ["Does exercise slow muscle aging?", "How do I repot an orchid?"],
    ["Does rapamycin extend lifespan in mice?", "Does taurine extend lifespan in mice?"],
    ["Does metformin reduce frailty in older adults?", "Is it true that coffee prevents dementia?"],
    ["Does metformin reduce frailty in older adults?", "I take lisinopril every day. Is it safe to combine with alcohol?"],
    ["Do omega-3 supplements lower triglycerides?", "When does the pharmacy open this weekend?"],
    ["Does creatine improve strength in older women?", "Do cats dream?"],
  ])("after “%s”: “%s”", (earlier, message) => {
    const decision = decide(earlier, message);
    expect(decision.kind).toBe("new_topic");
    expect(decision.question).toBe(message);
    expect(decision.follows).toBeNull();
    expect(decision.reason).toMatch(/own words/);
  });

  it("the earlier question's words are never in what a new topic searches", () => {
    const { question } = decide("Does resistance exercise slow muscle loss in skiers?", "What's a good recipe for sourdough bread?");
    expect(question).not.toMatch(/exercise|muscle|skiers/i);
  });

  it("a first message, with nothing before it, is its own question", () => {
    expect(decide([], "And in women?")).toMatchObject({ kind: "new_topic", question: "And in women?", follows: null });
  });
});

describe("a message without a subject of its own follows up", () => {
  it("a population replaces the earlier one, it is not appended", () => {
    const decision = decide("Does resistance exercise increase muscle mass in older men?", "And in women?");
    expect(decision).toMatchObject({ kind: "follow_up", question: "Does resistance exercise increase muscle mass in women?", follows: "Does resistance exercise increase muscle mass in older men?" });
    expect(decision.question).not.toMatch(/\bmen\b/);
  });

  it("a population is added to a question that named none", () => {
    expect(decide("Does exercise slow muscle aging?", "And in women?").question).toBe("Does exercise slow muscle aging in women?");
  });

  it("a species replaces the earlier species", () => {
    expect(decide("Does taurine extend lifespan in worms?", "What about rats?").question).toBe("Does taurine extend lifespan in rats?");
    expect(decide("Does taurine extend lifespan in worms?", "Does that hold in humans too?").question).toBe("Does taurine extend lifespan in humans?");
  });

  it("a population with what qualifies it is kept whole", () => {
    expect(decide("Does creatine improve memory in older adults?", "What about in people with kidney disease?").question).toBe("Does creatine improve memory in people with kidney disease?");
  });

  it("a pronoun is replaced by the earlier intervention, the earlier people kept", () => {
    expect(decide("Does creatine improve memory in older adults?", "Is it safe?")).toMatchObject({ kind: "follow_up", question: "Is creatine safe in older adults?" });
    expect(decide("Does creatine improve memory in older adults?", "Does it help sleep as well?").question).toBe("Does creatine help sleep as well in older adults?");
  });

  it("an animal species is not carried to a question asked of the intervention", () => {
    expect(decide("Does taurine extend lifespan in worms?", "Is it safe?").question).toBe("Is taurine safe?");
  });

  it("a dose question is asked of the earlier intervention", () => {
    const decision = decide("Does magnesium improve sleep in older adults?", "How much should I take?");
    expect(decision.kind).toBe("follow_up");
    expect(decision.question).toBe("Magnesium in older adults: how much should I take?");
  });

  it("a pointing phrase (“this supplement”) stands for the earlier subject", () => {
    expect(decide("Does ashwagandha lower cortisol?", "Is this supplement safe for teenagers?").question).toBe("Is ashwagandha safe for teenagers?");
  });

  it("one concept after “what about” takes the place of the matching part", () => {
    expect(decide("Does rapamycin extend lifespan in mice?", "What about acarbose?").question).toBe("Does acarbose extend lifespan in mice?");
    // An outcome takes the outcome's place, and a verb that fits lifespan only becomes neutral.
    expect(decide("Does rapamycin extend lifespan in mice?", "What about cancer?").question).toBe("Does rapamycin affect cancer in mice?");
    expect(decide("Do statins lower the risk of stroke?", "And dementia?").question).toBe("Do statins lower the risk of dementia?");
  });

  it("a question that asks whether it is sure or why asks the earlier question again", () => {
    for (const message of ["Why?", "Really? How sure is that?", "Tell me more."]) {
      expect(decide("Does creatine improve memory in older adults?", message)).toMatchObject({ kind: "follow_up", question: "Does creatine improve memory in older adults?" });
    }
  });

  it("says why, naming the message", () => {
    expect(decide("Does creatine improve memory in older adults?", "Is it safe?").reason).toMatch(/follow-up.*“it”/);
  });
});

describe("a message that names its own subject and asks again about the earlier intervention", () => {
  it("is a follow-up read on its own words", () => {
    const decision = decide("Does creatine improve memory in older adults?", "Does creatine also help bone density?");
    expect(decision).toMatchObject({ kind: "follow_up", question: "Does creatine also help bone density?" });
    // Its own pronoun ("it" after "creatine.") is its own, not the earlier question's.
    const own = "I take creatine every day. Is it safe to combine with caffeine?";
    expect(decide("Does creatine improve memory in older adults?", own)).toMatchObject({ kind: "follow_up", question: own });
  });
});

describe("a chain of follow-ups keeps the subject the conversation started with", () => {
  it("each earlier question is read in the light of those before it", () => {
    const earlier = ["Does resistance exercise increase muscle mass in older men?", "And in women?"];
    expect(decide(earlier, "Is it safe?").question).toBe("Is resistance exercise safe in women?");
  });

  it("a new topic in the middle starts a subject of its own", () => {
    const earlier = ["Does exercise slow muscle aging?", "Does green tea lower blood pressure?"];
    expect(decide(earlier, "How many cups a day?").question).toBe("Green tea: how many cups a day?");
  });
});

describe("the answer says how it read the message", () => {
  const result = { answer: "Bottom line: it helps [1].", reply: "Bottom line: it helps [1].", text: "Bottom line: it helps [1].\n\n[1] A study", metadata: { writer: "extractive" } } as unknown as ChatResult;

  it("a follow-up's answer opens with the question it follows and what it answered; the metadata holds the reading", () => {
    const reading = decide("Does creatine improve memory in older adults?", "Is it safe?");
    const out = withReading(result, reading);
    expect(out.answer).toBe("Read as a follow-up to: “Does creatine improve memory in older adults?”. Answered as: “Is creatine safe in older adults?”.\n\nBottom line: it helps [1].");
    expect(out.reply).toBe(out.answer);
    expect(out.text.startsWith(out.answer)).toBe(true);
    expect(out.metadata?.followUp).toEqual(reading);
  });

  it("a new topic's answer is left as written, its reading in the metadata only", () => {
    const reading = decide("Does creatine improve memory in older adults?", "How do I repot an orchid?");
    const out = withReading(result, reading);
    expect(out.answer).toBe(result.answer);
    expect(out.metadata?.followUp).toMatchObject({ kind: "new_topic" });
  });

  it("brackets a person typed never become a citation marker", () => {
    const out = withReading(result, decide("Does creatine [2] improve memory?", "And in women [3]?"));
    expect(readMarkers(out.answer)).toEqual([1]);
  });
});
