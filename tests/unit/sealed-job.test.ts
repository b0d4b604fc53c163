// @vitest-environment happy-dom
/**
 * Private mode's one start-and-follow (components/app/sealed-job.ts), the same for chat,
 * literature and deep research: the payment recorded as its kind is settled, the question entered
 * in the thread and finished with the opened answer, and a follow failure that polling again
 * cannot mend ending the request for good. The sealing client is replaced by a recording double:
 * sealing itself is tested in sealing-client*.test.ts and in the browser suite.
 */
import { beforeEach, describe, expect, it, vi } from "vitest";
import type { PrivateKind } from "@/lib/client/sealing/client";
import { PrivateModeError } from "@/lib/client/sealing/private-mode-error";
import { JobEndedError } from "@/lib/web/paid-job";
import type { Payer } from "@/lib/web/types";
import { startSealedJob, type SealedRequest } from "@/components/app/sealed-job";

const client = vi.hoisted(() => ({
  startPrivate: vi.fn(),
  awaitPrivateChat: vi.fn(),
  awaitPrivateLiterature: vi.fn(),
  awaitPrivateDeepResearch: vi.fn(),
}));
vi.mock("@/lib/client/sealing/client", () => client);

const payer: Payer = { kind: "test", address: "0x94E818d942fdDce92e0521707860767a7B347234", payFetch: vi.fn() as unknown as typeof fetch, messageSigner: { address: "0x94E818d942fdDce92e0521707860767a7B347234", signMessage: vi.fn() } };
const enclave = { publicKey: "cHVibGlj", attested: false };
const settledHeader = btoa(JSON.stringify({ transaction: "0xabc" }));

function app() {
  return { recordPayment: vi.fn(), markDelivered: vi.fn(), thread: { begin: vi.fn(() => "entry-1"), finish: vi.fn(), resumed: vi.fn() } };
}

/** The request each kind's panel makes, its opened answer handed back as the result. */
function request<K extends PrivateKind>(kind: K, shared: ReturnType<typeof app>, overrides: Partial<SealedRequest<K, unknown>> = {}): SealedRequest<K, unknown> {
  const plaintext = { chat: { message: "q" }, literature: { question: "q" }, "deep-research": { message: "q", recoveryKey: "longevity_key_v1_x" } }[kind];
  return {
    kind,
    app: shared,
    payer,
    enclave,
    plaintext: plaintext as SealedRequest<K, unknown>["plaintext"],
    question: "Does rapamycin extend lifespan?",
    firstStage: "Sealed: waiting for the enclave",
    stage: (status) => `Sealed: ${status}`,
    open: async (opened) => ({ result: opened, outcome: { kind: kind === "deep-research" ? "research" : kind, result: opened } as never }),
    restore: vi.fn(),
    limitMs: 60_000,
    ...overrides,
  };
}

const follow = { signal: new AbortController().signal, report: vi.fn() };
const AWAIT = { chat: client.awaitPrivateChat, literature: client.awaitPrivateLiterature, "deep-research": client.awaitPrivateDeepResearch } as const;

beforeEach(() => {
  vi.clearAllMocks();
  client.startPrivate.mockImplementation(async (kind: PrivateKind) => ({ kind, body: {}, response: new Response(null, { headers: { "payment-response": settledHeader } }), answerKey: {}, path: "noble" }));
});

describe("startSealedJob", () => {
  it.each([
    ["chat", "chatEncrypted", { transaction: "0xabc", settled: true, receipt: null }, "chat"],
    ["literature", "literatureEncrypted", { transaction: "0xabc", settled: true, receipt: null }, "literature"],
    ["deep-research", "deepResearchEncrypted", { transaction: null, settled: false }, "research"],
  ] as const)("%s: pays, records %s, enters the thread, and finishes its entry with the opened answer", async (kind, operation, payment, threadKind) => {
    const shared = app();
    const job = await startSealedJob(request(kind, shared));
    expect(client.startPrivate).toHaveBeenCalledWith(kind, expect.objectContaining({ enclave, payFetch: payer.payFetch }));
    expect(shared.recordPayment).toHaveBeenCalledExactlyOnceWith(operation, payment);
    expect(shared.thread.begin).toHaveBeenCalledExactlyOnceWith({ kind: threadKind, question: "Does rapamycin extend lifespan?", payer, sealed: true });
    expect(job).toMatchObject({ handle: null, sealed: true, firstStage: "Sealed: waiting for the enclave" });

    AWAIT[kind].mockResolvedValueOnce({ opened: kind });
    await expect(job.follow(follow)).resolves.toEqual({ opened: kind });
    expect(shared.thread.finish).toHaveBeenCalledExactlyOnceWith("entry-1", { outcome: { kind: threadKind, result: { opened: kind } } });
    // Only deep research is settled on delivery.
    expect(shared.markDelivered.mock.calls).toEqual(kind === "deep-research" ? [["deepResearchEncrypted"]] : []);
  });

  it("the sealed statuses reach the progress line in the panel's words", async () => {
    const job = await startSealedJob(request("literature", app()));
    client.awaitPrivateLiterature.mockImplementationOnce(async (_started: unknown, options: { onStatus: (s: string) => void }) => {
      options.onStatus("active");
      return {};
    });
    await job.follow(follow);
    expect(follow.report).toHaveBeenCalledWith("Sealed: active");
  });

  it("deep research polls with the recovery key it was started with", async () => {
    const job = await startSealedJob(request("deep-research", app()));
    client.awaitPrivateDeepResearch.mockResolvedValueOnce({});
    await job.follow(follow);
    expect(client.awaitPrivateDeepResearch).toHaveBeenCalledWith(expect.anything(), expect.objectContaining({ enclave, recoveryKey: "longevity_key_v1_x" }));
  });

  it.each(["chat", "literature", "deep-research"] as const)("%s: an answer that does not open ends the request for good, in words, and its entry says why", async (kind) => {
    const shared = app();
    const restore = vi.fn();
    const job = await startSealedJob(request(kind, shared, { restore }));
    AWAIT[kind].mockRejectedValueOnce(new PrivateModeError("answer_not_genuine", "The answer could not be opened (x)"));
    const failure = await job.follow(follow).catch((err: unknown) => err);
    expect(failure).toBeInstanceOf(JobEndedError);
    expect((failure as JobEndedError).action).toMatch(/^Nothing from it is shown/);
    job.ended!(failure as JobEndedError);
    expect(shared.thread.finish).toHaveBeenCalledExactlyOnceWith("entry-1", { failure: "The answer could not be opened (x)" });
    expect(restore).toHaveBeenCalledExactlyOnceWith("Does rapamycin extend lifespan?");
  });

  it("a follow that only gave up waiting is left to Retry", async () => {
    const job = await startSealedJob(request("literature", app()));
    const gaveUp = new PrivateModeError("gave_up", "No answer after 300 s");
    client.awaitPrivateLiterature.mockRejectedValueOnce(gaveUp);
    await expect(job.follow(follow)).rejects.toBe(gaveUp);
  });

  it("a refused start records nothing and enters nothing in the thread", async () => {
    const shared = app();
    client.startPrivate.mockRejectedValueOnce(new PrivateModeError("request_refused", "answered 503", 503, { error: "private_chat_unavailable" }));
    await expect(startSealedJob(request("chat", shared))).rejects.toBeInstanceOf(PrivateModeError);
    expect(shared.recordPayment).not.toHaveBeenCalled();
    expect(shared.thread.begin).not.toHaveBeenCalled();
  });
});
