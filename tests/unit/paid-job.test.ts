// @vitest-environment happy-dom
/**
 * usePaidJob, the one lifecycle of every paid request of the page, rendered in a DOM without a
 * browser: paying, following with its stages, the result, Retry, jobs that ended for good, the
 * resume after a reload, the page's one payment at a time, the leave warning of sealed jobs, and
 * stopping. Every step waits on a promise the test settles, never on time.
 */
import { act, createElement, type FunctionComponent } from "react";
import { createRoot, type Root } from "react-dom/client";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { JobEndedError, usePaidJob, type PaidJob, type PaidJobOptions, type StartedJob } from "@/lib/web/paid-job";
import { UserFacingError } from "@/lib/web/user-facing-error";

type Handle = { id: string };
type Job = StartedJob<Handle, string>;
type FollowCall = { signal: AbortSignal; report: (stage: string, percent?: number | null) => void; settle: Deferred<string> };

type Deferred<T> = { promise: Promise<T>; resolve: (value: T) => void; reject: (err: unknown) => void };
function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (err: unknown) => void;
  const promise = new Promise<T>((a, b) => {
    resolve = a;
    reject = b;
  });
  return { promise, resolve, reject };
}

/** A started job whose every follow is recorded and settled by the test. */
function startedJob(overrides: Partial<Job> = {}): Job & { follows: FollowCall[] } {
  const follows: FollowCall[] = [];
  return {
    handle: { id: "job-1" },
    question: "Does rapamycin extend lifespan?",
    sealed: false,
    firstStage: "Queued",
    follow: ({ signal, report }) => {
      const settle = deferred<string>();
      follows.push({ signal, report, settle });
      return settle.promise;
    },
    follows,
    ...overrides,
  };
}

beforeAll(() => {
  (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
});

const mounted: Root[] = [];
afterEach(() => {
  for (const root of mounted.splice(0)) act(() => root.unmount());
  sessionStorage.clear();
});

/** Renders the hooks of one or more panels; `hooks.chat.current` is the latest state. */
function renderPanels<K extends string>(optionsByPanel: Record<K, PaidJobOptions<Handle, string>>): { [P in K]: { current: PaidJob<Handle, string> } } & { unmount: () => void } {
  const results = {} as { [P in K]: { current: PaidJob<Handle, string> } };
  const probes = (Object.keys(optionsByPanel) as K[]).map((panel) => {
    results[panel] = { current: undefined as unknown as PaidJob<Handle, string> };
    const Probe: FunctionComponent = () => {
      results[panel].current = usePaidJob(optionsByPanel[panel]);
      return null;
    };
    return createElement(Probe, { key: panel });
  });
  const root = createRoot(document.createElement("div"));
  mounted.push(root);
  act(() => root.render(probes));
  return Object.assign(results, {
    unmount: () => {
      mounted.splice(mounted.indexOf(root), 1);
      act(() => root.unmount());
    },
  });
}

function options(overrides: Partial<PaidJobOptions<Handle, string>> = {}): PaidJobOptions<Handle, string> {
  return { panel: "chat", resume: () => startedJob(), ...overrides };
}

/** Lets effects' zero-delay timers (the resume after a reload) run, inside act. */
const flushTimers = () => act(() => new Promise<void>((resolve) => setTimeout(resolve, 0)));

/** Whether the page would ask before being left (a sealed job holds the warning). */
function asksBeforeLeaving(): boolean {
  const event = new Event("beforeunload", { cancelable: true });
  window.dispatchEvent(event);
  return event.defaultPrevented;
}

const pending = (panel: string) => sessionStorage.getItem(`lra:pending:${panel}`);

describe("usePaidJob", () => {
  it("pays, follows the job through its stages and delivers the result, forgetting it once delivered", async () => {
    const onDone = vi.fn();
    const hooks = renderPanels({ chat: options({ onDone }) });
    const pay = deferred<Job | null>();
    const job = startedJob();
    let running!: Promise<void>;
    act(() => void (running = hooks.chat.current.run(() => pay.promise)));
    expect(hooks.chat.current.phase).toEqual({ kind: "paying" });
    expect(hooks.chat.current.busy).toBe(true);

    await act(async () => pay.resolve(job));
    expect(hooks.chat.current.phase).toEqual({ kind: "working", stage: "Queued", percent: null });
    // Remembered for this tab while it is followed: a reload follows it again.
    expect(JSON.parse(pending("chat") ?? "null")).toEqual({ handle: { id: "job-1" }, question: job.question });

    act(() => job.follows[0]!.report("Searching PubMed", 40));
    expect(hooks.chat.current.phase).toEqual({ kind: "working", stage: "Searching PubMed", percent: 40 });

    await act(async () => {
      job.follows[0]!.settle.resolve("the answer");
      await running;
    });
    expect(hooks.chat.current.phase).toEqual({ kind: "done", result: "the answer" });
    expect(hooks.chat.current.busy).toBe(false);
    expect(onDone).toHaveBeenCalledExactlyOnceWith("the answer", job);
    expect(pending("chat")).toBeNull();
  });

  it("a follow that failed offers a Retry that follows the same paid job again", async () => {
    const hooks = renderPanels({ chat: options() });
    const job = startedJob();
    let running!: Promise<void>;
    await act(async () => void (running = hooks.chat.current.run(async () => job)));
    await act(async () => {
      job.follows[0]!.settle.reject(new UserFacingError("The research agent cannot be reached right now.", { status: 502 }));
      await running;
    });
    const failed = hooks.chat.current.phase;
    expect(failed.kind).toBe("failed");
    if (failed.kind !== "failed") return;
    expect(failed.error.message).toBe("The research agent cannot be reached right now.");
    expect(failed.retry).not.toBeNull();
    // Still paid for and not delivered: still remembered.
    expect(pending("chat")).not.toBeNull();

    act(() => failed.retry!());
    expect(job.follows).toHaveLength(2);
    expect(hooks.chat.current.phase.kind).toBe("working");
    await act(async () => job.follows[1]!.settle.resolve("the answer"));
    expect(hooks.chat.current.phase).toEqual({ kind: "done", result: "the answer" });
  });

  it.each([
    ["a JobEndedError", () => new JobEndedError("The search failed.", "Search again.")],
    ["a 404 (the service forgot the job)", () => new UserFacingError("Not found.", { status: 404 })],
  ])("%s ends the job for good: no Retry, `ended` hears why, and the job is forgotten", async (_name, failure) => {
    const hooks = renderPanels({ chat: options() });
    const ended = vi.fn();
    const job = startedJob({ ended });
    let running!: Promise<void>;
    await act(async () => void (running = hooks.chat.current.run(async () => job)));
    await act(async () => {
      job.follows[0]!.settle.reject(failure());
      await running;
    });
    const phase = hooks.chat.current.phase;
    expect(phase.kind).toBe("failed");
    if (phase.kind !== "failed") return;
    expect(phase.retry).toBeNull();
    expect(ended).toHaveBeenCalledExactlyOnceWith(phase.error);
    expect(pending("chat")).toBeNull();
  });

  it("a reload follows the job remembered for this tab again, with the banner's question, and forgets it once delivered", async () => {
    sessionStorage.setItem("lra:pending:literature", JSON.stringify({ handle: { id: "job-7" }, question: "Metformin and lifespan?" }));
    const job = startedJob({ handle: { id: "job-7" }, question: "Metformin and lifespan?" });
    const resume = vi.fn(() => job);
    const onResume = vi.fn();
    const hooks = renderPanels({ literature: options({ panel: "literature", resume, onResume }) });
    await flushTimers();
    const remembered = { handle: { id: "job-7" }, question: "Metformin and lifespan?" };
    expect(resume).toHaveBeenCalledExactlyOnceWith(remembered);
    expect(onResume).toHaveBeenCalledExactlyOnceWith(remembered);
    expect(hooks.literature.current.resumed).toEqual(remembered);
    expect(hooks.literature.current.phase.kind).toBe("working");

    await act(async () => job.follows[0]!.settle.resolve("the results"));
    expect(hooks.literature.current.phase).toEqual({ kind: "done", result: "the results" });
    expect(hooks.literature.current.resumed).toBeNull();
    expect(pending("literature")).toBeNull();
  });

  it("nothing remembered, nothing resumed; a malformed memory is ignored", async () => {
    sessionStorage.setItem("lra:pending:research", "{not json");
    const resume = vi.fn(() => startedJob());
    const hooks = renderPanels({ research: options({ panel: "research", resume }) });
    await flushTimers();
    expect(resume).not.toHaveBeenCalled();
    expect(hooks.research.current.phase).toEqual({ kind: "idle" });
  });

  it("one payment at a time: a repeated click pays nothing more, and another panel is told why", async () => {
    const hooks = renderPanels({ chat: options(), literature: options({ panel: "literature" }) });
    const pay = deferred<Job | null>();
    const payChat = vi.fn(() => pay.promise);
    const payLiterature = vi.fn(async () => startedJob());
    let running!: Promise<void>;
    act(() => {
      // Three clicks within one task: `busy` is not rendered yet for the second and third.
      running = hooks.chat.current.run(payChat);
      void hooks.chat.current.run(payChat);
      void hooks.literature.current.run(payLiterature);
    });
    expect(payChat).toHaveBeenCalledTimes(1);
    expect(payLiterature).not.toHaveBeenCalled();
    expect(hooks.chat.current.phase).toEqual({ kind: "paying" });
    const refused = hooks.literature.current.phase;
    expect(refused.kind === "failed" && refused.error.message).toBe("Another payment from this page is under way.");

    // Released once the paid request is answered: the other panel may pay.
    const job = startedJob();
    await act(async () => pay.resolve(job));
    await act(async () => void hooks.literature.current.run(payLiterature));
    expect(payLiterature).toHaveBeenCalledTimes(1);
    await act(async () => {
      job.follows[0]!.settle.resolve("the answer");
      await running;
    });
  });

  it("a sealed job asks before the page is left from the signature until its answer is opened, and is never stored", async () => {
    const hooks = renderPanels({ chat: options() });
    const pay = deferred<Job | null>();
    let running!: Promise<void>;
    expect(asksBeforeLeaving()).toBe(false);
    act(() => void (running = hooks.chat.current.run(() => pay.promise, { sealed: true })));
    expect(asksBeforeLeaving()).toBe(true);

    const job = startedJob({ handle: null, sealed: true, firstStage: "Sealed: waiting for the enclave" });
    await act(async () => pay.resolve(job));
    expect(hooks.chat.current.phase).toEqual({ kind: "working", stage: "Sealed: waiting for the enclave", percent: null });
    expect(asksBeforeLeaving()).toBe(true);
    // Its key lives only in this page's memory: nothing for a reload to follow.
    expect(pending("chat")).toBeNull();

    await act(async () => {
      job.follows[0]!.settle.resolve("the opened answer");
      await running;
    });
    expect(asksBeforeLeaving()).toBe(false);
  });

  it("a failure before the job was accepted shows no Retry, stops asking before leaving and frees the payment", async () => {
    const hooks = renderPanels({ chat: options() });
    await act(async () => hooks.chat.current.run(async () => Promise.reject(new UserFacingError("You declined the signature, so nothing was paid.", { action: "Press the button again." })), { sealed: true }));
    const phase = hooks.chat.current.phase;
    expect(phase.kind === "failed" && phase.error.message).toBe("You declined the signature, so nothing was paid.");
    expect(phase.kind === "failed" && phase.retry).toBeNull();
    expect(asksBeforeLeaving()).toBe(false);

    const pay = vi.fn(async () => null);
    await act(async () => hooks.chat.current.run(pay));
    expect(pay).toHaveBeenCalledTimes(1);
    // Nothing to follow (the panel refused before paying): back to idle.
    expect(hooks.chat.current.phase).toEqual({ kind: "idle" });
  });

  it("stop: the follow is aborted, its late answer ignored, and the job forgotten", async () => {
    const hooks = renderPanels({ chat: options() });
    const job = startedJob();
    await act(async () => void hooks.chat.current.run(async () => job));
    const follow = job.follows[0]!;
    act(() => hooks.chat.current.stop());
    expect(follow.signal.aborted).toBe(true);
    expect(hooks.chat.current.phase).toEqual({ kind: "idle" });
    expect(pending("chat")).toBeNull();

    act(() => follow.report("Searching", 10));
    await act(async () => follow.settle.resolve("too late"));
    expect(hooks.chat.current.phase).toEqual({ kind: "idle" });
  });

  it("a new job replaces the one followed before; the panel going away stops following", async () => {
    const hooks = renderPanels({ chat: options() });
    const first = startedJob();
    await act(async () => void hooks.chat.current.run(async () => first));
    const second = startedJob({ handle: { id: "job-2" } });
    await act(async () => void hooks.chat.current.run(async () => second));
    expect(first.follows[0]!.signal.aborted).toBe(true);
    expect(JSON.parse(pending("chat") ?? "null")).toEqual({ handle: { id: "job-2" }, question: second.question });

    hooks.unmount();
    expect(second.follows[0]!.signal.aborted).toBe(true);
  });

  it("refuse shows a failure that happened before anything was paid", () => {
    const hooks = renderPanels({ chat: options() });
    const error = new UserFacingError("Write a question first.");
    act(() => hooks.chat.current.refuse(error));
    expect(hooks.chat.current.phase).toEqual({ kind: "failed", error, retry: null });
  });
});
