import { describe, expect, it } from "vitest";
import {
  chatRequestSchema,
  encryptedChatPlaintextSchema,
  encryptedLiteraturePlaintextSchema,
  literatureQueryRequestSchema,
  unstorableTextProblem,
  upstreamChatRequestBSchema,
} from "@/lib/shared/contracts";
import { validateBody } from "@/lib/shared/http";

describe("text PostgreSQL can store", () => {
  it("is any well-formed Unicode without NUL, bidirectional marks and astral characters included", () => {
    for (const text of ["", "rapamycin", "\u200f\u202eevil\u202c", "🧬 telomeres", "\ud83e\uddec", "\u0001\u001f", "\uffff"]) {
      expect(unstorableTextProblem(text)).toBeNull();
    }
  });

  it("is not text holding NUL or an unpaired surrogate, and the problem is named", () => {
    expect(unstorableTextProblem("a\u0000b")).toContain("NUL (U+0000)");
    expect(unstorableTextProblem("a\ud800")).toContain("unpaired surrogate (U+D800) at position 1");
    expect(unstorableTextProblem("\udc00\ud83e\uddec")).toContain("unpaired surrogate (U+DC00) at position 0");
    expect(unstorableTextProblem("\ud83e\ud83e\uddec")).toContain("(U+D83E) at position 0");
  });
});

describe("every request contract", () => {
  const refusal = (schema: Parameters<typeof validateBody>[0], value: unknown) => {
    try {
      validateBody(schema, value);
    } catch (err) {
      return (err as Error).message;
    }
    throw new Error("accepted");
  };

  it("refuses unstorable text in any string field, naming the field and the problem", () => {
    expect(refusal(chatRequestSchema, { message: "a\u0000b" })).toBe("Invalid request body: message: must not contain NUL (U+0000), which PostgreSQL cannot store");
    expect(refusal(upstreamChatRequestBSchema, { message: "\ud800" })).toContain("message: must be Unicode text: it holds an unpaired surrogate (U+D800)");
    expect(refusal(literatureQueryRequestSchema, { question: "rapamycin", tags: ["mtor", "x\ud800"] })).toContain("tags.1: must be Unicode text");
    expect(refusal(literatureQueryRequestSchema, { question: "rapamycin", sources: ["pubmed\u0000"] })).toContain("sources.0: must not contain NUL");
    expect(refusal(encryptedLiteraturePlaintextSchema, { question: "a\u0000" }).match(/question:/g)).toHaveLength(1);
    expect(
      refusal(encryptedChatPlaintextSchema, { message: "hi", attachments: [{ name: "notes.txt", mediaType: "text/plain", text: "x\u0000" }] }),
    ).toContain("attachments.0.text: must not contain NUL");
  });

  it("still accepts what it accepted, right-to-left marks and emoji included", () => {
    expect(validateBody(chatRequestSchema, { message: "\u202eDoes 🧬 rapamycin extend lifespan?" })).toEqual({ message: "\u202eDoes 🧬 rapamycin extend lifespan?" });
    expect(validateBody(literatureQueryRequestSchema, { question: "rapamycin", tags: ["\u200fmtor"] }).tags).toEqual(["\u200fmtor"]);
  });
});
