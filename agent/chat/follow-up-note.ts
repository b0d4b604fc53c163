import type { ChatResult, FollowUpReading } from "@/lib/shared/contracts";

/**
 * What a person sees of how their message was read: an answer to a follow-up opens with one short
 * paragraph naming the question it follows and what it answered, and every reading made within a
 * conversation is in the metadata (`followUp`). A new topic's answer is left as written.
 */
export function withReading<T extends ChatResult>(result: T, reading: FollowUpReading | null): T {
  if (!reading) return result;
  const metadata = { ...result.metadata, followUp: reading };
  if (reading.kind !== "follow_up" || !reading.follows) return { ...result, metadata };
  const note = followUpNote(reading);
  const answer = `${note}\n\n${result.answer}`;
  return { ...result, answer, reply: answer, text: `${note}\n\n${result.text}`, metadata };
}

/** "Read as a follow-up to: “…”. Answered as: “…”." (the second part when the question was read anew). */
function followUpNote(reading: Pick<FollowUpReading, "follows" | "question">): string {
  const answered = reading.question === reading.follows ? "" : ` Answered as: “${quoted(reading.question)}”.`;
  return `Read as a follow-up to: “${quoted(reading.follows ?? "")}”.${answered}`;
}

/** A person's words inside the answer: their brackets cannot become a citation marker ("[2]"). */
function quoted(text: string): string {
  return text.replace(/\[/g, "(").replace(/\]/g, ")");
}
