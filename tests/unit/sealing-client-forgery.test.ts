import { describe, expect, it } from "vitest";
import { encodeBase64, portablePrimitives as p, type Envelope, type SealedResponse } from "@/lib/shared/sealing";
import {
  awaitPrivateChat,
  awaitPrivateDeepResearch,
  awaitPrivateLiterature,
  fetchEnclaveKey,
  startPrivate,
  type PrivateKind,
} from "@/lib/client/sealing/client";
import { PrivateModeError } from "@/lib/client/sealing/private-mode-error";
import * as scheme from "@/lib/shared/sealing/scheme";
import { buildChatResult, buildLiteratureJobResult } from "../support/builders";
import { forgeries, type ForgeryKind } from "../support/forgery";

/**
 * Issue 12, point 1, for the client helpers of lib/client/sealing/client.ts (which the CLI and the web app
 * use): a gateway that answers with its own sealed answer, made from the envelope it relays, is
 * refused with `answer_not_genuine` on every route, every way an answer arrives (chat's 200, chat's
 * poll, literature's poll, deep research's sealed poll); the genuine enclave's answers open.
 */
const gateway = "http://gateway.test";
const enclavePrivate = p.randomBytes(32);
const enclavePublicKey = encodeBase64(p.publicKey(enclavePrivate));
const harmful = { ...buildChatResult(), answer: "Take ten times the dose [1].", reply: "Take ten times the dose [1]." };

/** The enclave's receipt of a deep-research start: `{messageId, status}` sealed to the start's key. */
function receipt(envelope: Envelope, messageId: string): SealedResponse {
  const { replyTo } = scheme.openRequest(p, { enclavePrivateKey: enclavePrivate, envelope });
  return scheme.sealResponse(p, { ...replyTo, plaintext: { messageId, status: "queued" } });
}

/**
 * A gateway in front of a genuine enclave (the real scheme, the enclave's key). With `forge`, it
 * replaces every sealed answer by its own, sealed to the envelope's E the way `forge` says.
 */
function gatewayDouble({ forge, chatSync = true }: { forge?: ForgeryKind; chatSync?: boolean }): typeof fetch {
  const envelopes = new Map<string, Envelope>();
  const answers: Record<PrivateKind, unknown> = { chat: buildChatResult(), literature: buildLiteratureJobResult({ status: "completed" }), "deep-research": { messageId: "m1", reply: "genuine", citations: [], worldState: {} } };
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
    if (url.pathname === "/api/deep-research/encrypted") return json({ messageId: "m1", status: "queued", pollUrl: `${gateway}/api/deep-research/encrypted/status/m1`, ...receipt(body!, "m1") }, 202);
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

/**
 * Issue 24, item 9: a gateway that passes off one run of a recovery key as another. The enclave
 * here is genuine (its key, the real scheme) and holds two runs of the same key: `old`, finished
 * long ago, and `new`, the one this client just started. Whatever the gateway claims or routes,
 * the client accepts only an answer that the enclave sealed for its own run.
 */
describe("a deep-research run, bound to its start", () => {
  const recoveryKey = "longevity_key_v1_" + "A".repeat(43);
  type Attack = {
    /** What the gateway's 202 says (the enclave started `new`). */
    claim?: "old" | "none" | "forgedReceipt";
    /** Which run's result the poll gets: the enclave's genuine answer to this very poll, of `answer`'s run. */
    answer?: "old" | "new";
    /** The gateway answers the poll: the run failed, for this payment reason. */
    failed?: "authorization_expired" | "settlement_failed";
  };
  function runs({ claim, answer = "new", failed }: Attack) {
    const polls: unknown[] = [];
    const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
    const fetchImpl = (async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(String(input));
      const body = init?.body ? (JSON.parse(String(init.body)) as Envelope) : undefined;
      if (url.pathname === "/api/enclave-key") return json({ hpke_public_key: enclavePublicKey, attested: false, attestation: null });
      if (url.pathname === "/api/deep-research/encrypted") {
        const named = claim === "old" ? "old" : "new";
        const sealed = claim === "none" ? {} : claim === "forgedReceipt" ? forgeries.oldWay(body!, { messageId: "old", status: "queued" }) : receipt(body!, "new");
        return json({ messageId: named, status: "queued", pollUrl: `${gateway}/api/deep-research/encrypted/status/${named}`, ...sealed }, 202);
      }
      if (url.pathname.startsWith("/api/deep-research/encrypted/status/") && failed) return json({ status: "failed", reason: failed, error: "the payment failed" });
      if (url.pathname.startsWith("/api/deep-research/encrypted/status/")) {
        const { plaintext, replyTo } = scheme.openRequest(p, { enclavePrivateKey: enclavePrivate, envelope: body! });
        polls.push(plaintext);
        return json({ status: "completed", ...scheme.sealResponse(p, { ...replyTo, plaintext: { messageId: answer, status: "completed", reply: `the ${answer} run's answer`, citations: [], worldState: {} } }) });
      }
      return json({ error: "not found" }, 404);
    }) as typeof fetch;
    return { fetchImpl, polls };
  }
  async function follow(attack: Attack) {
    const { fetchImpl, polls } = runs(attack);
    const enclave = await fetchEnclaveKey({ gateway, fetch: fetchImpl });
    const outcome = await startPrivate("deep-research", { gateway, fetch: fetchImpl, payFetch: fetchImpl, enclave, plaintext: { message: "q", recoveryKey } })
      .then((started) => awaitPrivateDeepResearch(started, { gateway, fetch: fetchImpl, intervalMs: 0, enclave, recoveryKey }))
      .then(
        (result) => ({ result, error: null }),
        (error: unknown) => ({ result: null, error }),
      );
    return { ...outcome, polls };
  }

  it.each([
    ["a 202 naming an older run of the same recovery key", { claim: "old" }],
    ["a 202 without the enclave's receipt", { claim: "none" }],
    ["a 202 whose receipt the gateway sealed itself", { claim: "forgedReceipt" }],
    ["the older run's genuine result, sealed to the new run's poll (an enclave that did not check the poll's run)", { answer: "old" }],
  ] as [string, Attack][])("refuses %s with answer_not_genuine, showing nothing of it", async (_, attack) => {
    const { error, result } = await follow(attack);
    expect(result).toBeNull();
    expect(error).toBeInstanceOf(PrivateModeError);
    expect((error as PrivateModeError).code).toBe("answer_not_genuine");
    expect((error as PrivateModeError).message).not.toContain("the old run's answer");
  });

  it.each([
    ["authorization_expired", "payment_expired"],
    ["settlement_failed", "request_failed"],
  ] as const)("reads a run failed for %s by its reason field: %s", async (reason, code) => {
    const { error } = await follow({ failed: reason });
    expect(error).toBeInstanceOf(PrivateModeError);
    expect((error as PrivateModeError).code).toBe(code);
  });

  it("opens its own run's result, and every poll names that run", async () => {
    const { error, result, polls } = await follow({});
    expect(error).toBeNull();
    expect(result).toMatchObject({ messageId: "new", reply: "the new run's answer" });
    expect(polls).toEqual([{ recoveryKey, messageId: "new" }]);
  });
});
