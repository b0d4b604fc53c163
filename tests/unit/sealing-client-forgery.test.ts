import { describe, expect, it } from "vitest";
import { encodeBase64, portablePrimitives as p, type Envelope, type SealedResponse } from "@/lib/sealing";
import {
  awaitPrivateChat,
  awaitPrivateDeepResearch,
  awaitPrivateLiterature,
  fetchEnclaveKey,
  PrivateModeError,
  startPrivate,
  type PrivateKind,
} from "@/lib/sealing/client";
import * as scheme from "@/lib/sealing/scheme";
import { buildChatResult, buildLiteratureJobResult } from "../support/builders";
import { forgeries, type ForgeryKind } from "../support/forgery";

/**
 * Issue 12, point 1, for the client helpers of lib/sealing/client.ts (which the CLI and the web app
 * use): a gateway that answers with its own sealed answer, made from the envelope it relays, is
 * refused with `answer_not_genuine` on every route, every way an answer arrives (chat's 200, chat's
 * poll, literature's poll, deep research's sealed poll); the genuine enclave's answers open.
 */
const gateway = "http://gateway.test";
const enclavePrivate = p.randomBytes(32);
const enclavePublicKey = encodeBase64(p.publicKey(enclavePrivate));
const harmful = { ...buildChatResult(), answer: "Take ten times the dose [1].", reply: "Take ten times the dose [1]." };

/**
 * A gateway in front of a genuine enclave (the real scheme, the enclave's key). With `forge`, it
 * replaces every sealed answer by its own, sealed to the envelope's E the way `forge` says.
 */
function gatewayDouble({ forge, chatSync = true }: { forge?: ForgeryKind; chatSync?: boolean }): typeof fetch {
  const envelopes = new Map<string, Envelope>();
  const answers: Record<PrivateKind, unknown> = { chat: buildChatResult(), literature: buildLiteratureJobResult({ status: "completed" }), "deep-research": { reply: "genuine", citations: [], worldState: {} } };
  const seal = (kind: PrivateKind, envelope: Envelope): SealedResponse => {
    if (forge) return forgeries[forge](envelope, kind === "literature" ? { ...buildLiteratureJobResult({ status: "completed" }), answer: harmful.answer } : harmful);
    const { replyTo } = scheme.openRequest(p, { enclavePrivateKey: enclavePrivate, envelope });
    return scheme.sealResponse(p, { ...replyTo, plaintext: answers[kind] });
  };
  const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
  return (async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input));
    const body = init?.body ? (JSON.parse(String(init.body)) as Envelope) : undefined;
    if (url.pathname === "/api/enclave-key") return json({ hpke_public_key: enclavePublicKey, attested: false, attestation: null });
    if (url.pathname === "/api/chat/encrypted") {
      if (chatSync) return json({ requestId: "r1", ...seal("chat", body!) });
      envelopes.set("r1", body!);
      return json({ requestId: "r1", status: "queued", pollUrl: `${gateway}/api/chat/encrypted/status/r1` }, 202);
    }
    if (url.pathname === "/api/chat/encrypted/status/r1") return json({ status: "completed", requestId: "r1", ...seal("chat", envelopes.get("r1")!) });
    if (url.pathname === "/api/literature/encrypted") {
      envelopes.set("l1", body!);
      return json({ requestId: "l1", status: "pending", pollUrl: `${gateway}/api/literature/encrypted/status/l1` }, 202);
    }
    if (url.pathname === "/api/literature/encrypted/status/l1") return json({ status: "completed", ...seal("literature", envelopes.get("l1")!) });
    if (url.pathname === "/api/deep-research/encrypted") return json({ messageId: "m1", status: "queued", pollUrl: `${gateway}/api/deep-research/encrypted/status/m1` }, 202);
    // Each deep-research poll is a sealed request of its own: the answer belongs to that poll.
    if (url.pathname === "/api/deep-research/encrypted/status/m1") return json({ status: "completed", ...seal("deep-research", body!) });
    return json({ error: "not found" }, 404);
  }) as typeof fetch;
}

async function run(kind: PrivateKind, fetchImpl: typeof fetch): Promise<unknown> {
  const enclave = await fetchEnclaveKey({ gateway, fetch: fetchImpl });
  const plaintext = kind === "literature" ? { question: "Does rapamycin extend lifespan in mice?" } : { message: "Does rapamycin extend lifespan in mice?" };
  const started = await startPrivate(kind, { gateway, fetch: fetchImpl, payFetch: fetchImpl, enclave, plaintext });
  const follow = { gateway, fetch: fetchImpl, intervalMs: 0 };
  if (kind === "chat") return awaitPrivateChat(started as never, follow);
  if (kind === "literature") return awaitPrivateLiterature(started as never, follow);
  return awaitPrivateDeepResearch(started as never, { ...follow, enclave, recoveryKey: "longevity_key_v1_" + "A".repeat(43) });
}

const cases: [string, PrivateKind, { chatSync?: boolean }][] = [
  ["chat answered at once (200)", "chat", { chatSync: true }],
  ["chat answered through its poll", "chat", { chatSync: false }],
  ["literature through its poll", "literature", {}],
  ["deep research through a sealed poll", "deep-research", {}],
];

describe.each(cases)("the client helpers, %s", (_name, kind, options) => {
  it.each(["oldWay", "guessedSecret"] as ForgeryKind[])("refuse an answer the gateway sealed itself (%s) with answer_not_genuine", async (forge) => {
    const err = await run(kind, gatewayDouble({ ...options, forge })).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(PrivateModeError);
    expect((err as PrivateModeError).code).toBe("answer_not_genuine");
    expect((err as PrivateModeError).message).toMatch(/not sealed by the enclave/);
    // Nothing of the forged content leaks into the error either.
    expect((err as PrivateModeError).message).not.toContain("ten times");
  });

  it("open the genuine enclave's answer", async () => {
    const result = (await run(kind, gatewayDouble(options))) as { answer?: string; reply?: string };
    expect(result.answer ?? result.reply).toBeTruthy();
    expect(result.answer ?? result.reply).not.toContain("ten times");
  });
});

describe("the literature poll", () => {
  it("waits out a 429 too_many_long_polls as its Retry-After says, then opens the answer", async () => {
    const genuine = gatewayDouble({});
    let refused = 0;
    const busy = (async (input: RequestInfo | URL, init?: RequestInit) => {
      if (String(input).includes("/api/literature/encrypted/status/") && refused === 0) {
        refused++;
        return new Response(JSON.stringify({ error: "Too many long-polls", reason: "too_many_long_polls" }), { status: 429, headers: { "retry-after": "1", "content-type": "application/json" } });
      }
      return genuine(input, init);
    }) as typeof fetch;
    const result = (await run("literature", busy)) as { answer?: string };
    expect(refused).toBe(1);
    expect(result.answer).toBeTruthy();
  });
});
