import { log } from "@/lib/log";
import type { AuditedReference } from "./audit";

/**
 * A language model behind any OpenAI-compatible `/chat/completions` endpoint (OpenAI, vLLM,
 * llama.cpp, Tinfoil, ...). It is given the numbered evidence and asked to cite it; what it writes
 * always goes through the citation audit before anyone sees it.
 */
export type LlmSettings = { baseUrl: string; apiKey?: string; model: string; timeoutMs: number };

const SYSTEM_PROMPT = [
  "You answer questions about aging, longevity and biomedicine for scientists.",
  "Use only the numbered evidence given. After every sentence that states a finding, cite the evidence it rests on as [N].",
  "Never cite a number that is not in the list, and never state anything the cited evidence does not say.",
  "Lead with the strongest evidence (systematic reviews and randomized trials before observational, preclinical and other work).",
  "Say plainly when the evidence is thin, only from animals or cells, or mixed. Answer in at most six sentences, without a reference list.",
].join(" ");

/** Asks the model; returns its answer text, or null when it failed or timed out (logged, never thrown). */
export async function writeWithModel({
  settings,
  question,
  references,
  signal,
}: {
  settings: LlmSettings;
  question: string;
  references: AuditedReference[];
  signal?: AbortSignal;
}): Promise<string | null> {
  const evidence = references
    .map((r) => `[${r.ordinal}] ${r.title} (${r.evidenceType.replace(/_/g, " ")}${r.year ? `, ${r.year}` : ""}): ${r.passage}`)
    .join("\n");
  const timeout = AbortSignal.timeout(settings.timeoutMs);
  try {
    const response = await fetch(`${settings.baseUrl.replace(/\/+$/, "")}/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json", ...(settings.apiKey ? { authorization: `Bearer ${settings.apiKey}` } : {}) },
      body: JSON.stringify({
        model: settings.model,
        temperature: 0,
        messages: [
          { role: "system", content: SYSTEM_PROMPT },
          { role: "user", content: `Question: ${question}\n\nEvidence:\n${evidence}` },
        ],
      }),
      signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
    });
    if (!response.ok) {
      log.warn("model answered an error", { status: response.status });
      return null;
    }
    const body = (await response.json()) as { choices?: { message?: { content?: string } }[] };
    const text = body.choices?.[0]?.message?.content;
    return typeof text === "string" && text.trim() ? text.trim() : null;
  } catch (err) {
    log.warn("model call failed", { error: err });
    return null;
  }
}
