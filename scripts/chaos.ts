/**
 * `npm run chaos`: the whole stack under a steady mix of paid and free requests while faults are
 * injected, then checks that nothing was lost or charged twice (issue 14, "Faults, injected").
 *
 * The stack is the demo's, with parts that can fail on purpose: a real PostgreSQL server (not the
 * embedded one, so it can be stopped and started), the local chain (Hardhat, Circle's USDC) behind a
 * TCP proxy that can be cut, a hosted x402 facilitator (the official facilitator code over HTTP, as
 * Coinbase's would be reached) behind another, the agent as its own process, and the gateway under
 * `npm start`. Paying users are the official x402 client with the chain's test wallets.
 *
 * Faults, one after another with the load running throughout (CHAOS_FAULT_SECONDS, default 30):
 * 1. the agent is killed (SIGKILL) and started again after 10 s;
 * 2. PostgreSQL is stopped (fast shutdown: open connections cut) and started again after 10 s;
 * 3. the chain's RPC is unreachable for CHAOS_FAULT_SECONDS;
 * 4. the facilitator is unreachable for CHAOS_FAULT_SECONDS.
 * Then the load stops, every accepted request is followed to its end, and the settlement cron
 * (called every 5 s here instead of Vercel's minute, so the run stays short) settles what is due.
 *
 * Checked, and printed as a table (also saved under bench-results/):
 * - every request got a definite answer (2xx, 4xx) or a retryable one (429 or 503 with
 *   Retry-After); anything else (a 5xx without Retry-After, a reset connection) is counted;
 * - no paid request lost its answer: every authorization used on chain belongs to a request whose
 *   answer was delivered (a completed result), and no request was charged for a failure;
 * - no request was charged twice (two of its authorizations used on chain);
 * - the gateway's ledger agrees with the chain (every settled row's authorization used, and every
 *   authorization used is a settled row);
 * - every job finished or failed visibly (no agent job left queued or running);
 * - the gateway's /api/health showed each outage and recovered: seconds from the fault's end to
 *   healthy, and to the first paid request served.
 * The exit code is 1 when any check fails.
 */
import { randomBytes, randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { getAddress, parseAbiItem, type Hex, type PublicClient } from "viem";
import { importLibraryFile } from "../agent/library/import";
import { createChainReaderFor } from "../lib/gateway/payments/chain";
import { createPayingFetch } from "../lib/client/payments/client";
import { decodePaymentHeader } from "../lib/gateway/payments/verify-locally";
import { exactEvmPayloadSchema } from "../lib/shared/payments/exact-payload";
import { poll, sleep } from "../lib/client/poll";
import { startFacilitatorDouble } from "../tests/support/facilitator-double";
import { findPostgresBin, freePort, startThrowawayPostgres, type ThrowawayPostgres } from "../tests/support/postgres";
import { percentile, root, saveResults } from "./bench/common";
import { startFaultProxy } from "./lib/fault-proxy";
import { startLocalChain } from "./lib/local-chain";
import { ensureBuild, gatewayServerArgs, startService, waitForHttp, type Service } from "./lib/processes";

const FAULT_SECONDS = Number(process.env.CHAOS_FAULT_SECONDS ?? 30);
const SETTLE_SECONDS = Number(process.env.CHAOS_SETTLE_SECONDS ?? 15);
const PAYING_USERS = Number(process.env.CHAOS_PAYING_USERS ?? 4);
const FREE_USERS = Number(process.env.CHAOS_FREE_USERS ?? 2);
const CRON_EVERY_MS = 5_000;
const FREE_PACE_MS = 4_000;
const HEALTH_EVERY_MS = 500;
/** How long a request may keep being retried (429/503) or followed before it counts as lost. */
const FOLLOW_LIMIT_MS = 240_000;
const LIBRARY = path.join(root, "tests/fixtures/library/records.jsonl");
const QUESTIONS = [
  "Does rapamycin extend lifespan in mice?",
  "Is telomere length associated with mortality?",
  "Does metformin reduce mortality in older adults?",
  "Does resistance training improve muscle strength in older adults?",
  "Does caloric restriction extend lifespan?",
];

type Kind = "chat" | "literature" | "deep-research" | "free-health" | "free-chat";
type Attempt = { at: number; status: number | null; retryAfter: string | null; reason: string | null };
type Outcome = {
  id: string;
  kind: Kind;
  paid: boolean;
  startedAt: number;
  attempts: Attempt[];
  /** The authorizations this request signed (payer, nonce), in order. */
  authorizations: { payer: string; nonce: Hex }[];
  /** The end: a completed result, a definite refusal, a job that failed visibly, or lost. */
  end: "delivered" | "refused" | "failed-visibly" | "gave-up";
  detail: string;
  finishedAt: number;
};
type Fault = { name: string; startedAt: number; endedAt: number; component: string; healthShown: boolean; healthyAfterS: number | null; servedAfterS: number | null };

const now = () => Date.now();

async function main(): Promise<void> {
  const bin = findPostgresBin();
  if (!bin) throw new Error("PostgreSQL server binaries not found (install Debian's postgresql package)");
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "lra-chaos-"));
  const cleanups: (() => Promise<void>)[] = [];
  const cleanup = async () => {
    for (const step of cleanups.reverse()) await step().catch(() => undefined);
    fs.rmSync(dir, { recursive: true, force: true });
  };
  process.on("SIGINT", () => void cleanup().then(() => process.exit(130)));

  try {
    console.log("Starting PostgreSQL, the chain, the facilitator, the agent and the gateway…");
    const database: ThrowawayPostgres = await startThrowawayPostgres(bin);
    cleanups.push(database.stop);
    const chain = await startLocalChain({ port: await freePort(), walletCount: PAYING_USERS + 1 });
    cleanups.push(chain.stop);
    const rpcUrl = new URL(chain.rpcUrl);
    const rpc = await startFaultProxy({ host: rpcUrl.hostname, port: Number(rpcUrl.port) });
    cleanups.push(rpc.close);
    const facilitatorBehind = await startFacilitatorDouble({ rpcUrl: rpc.url, chainId: chain.chainId, privateKey: chain.facilitatorPrivateKey, network: chain.network });
    cleanups.push(facilitatorBehind.close);
    const facilitatorUrl = new URL(facilitatorBehind.url);
    const facilitator = await startFaultProxy({ host: facilitatorUrl.hostname, port: Number(facilitatorUrl.port) });
    cleanups.push(facilitator.close);

    const serviceKey = randomBytes(24).toString("hex");
    const agentPort = await freePort();
    const agentUrl = `http://127.0.0.1:${agentPort}`;
    const agentEnv = {
      ...process.env,
      POSTGRES_URL: database.url,
      AGENT_PORT: String(agentPort),
      AGENT_SERVICE_KEY: serviceKey,
      AGENT_PUBLIC_URL: agentUrl,
      LITERATURE_SOURCES: "local",
      // The run is about faults, not the free tier's limit (20 chats per 10 minutes per address,
      // which the free users, sharing one address, would reach): a 429 there would hide them.
      CHAT_RATE_LIMIT: "100000",
      ENCLAVE_KEK_FILE: path.join(dir, "enclave.kek"),
      LOG_SILENT: "1",
    };
    let agent: Service = startAgent(agentEnv);
    cleanups.push(() => {
      endedByTheRun.add(agent.child);
      return agent.stop();
    });
    await waitForHttp(`${agentUrl}/api/health`, { statuses: [200] });
    await importLibrary(database.url);

    const port = await freePort();
    const gatewayUrl = `http://127.0.0.1:${port}`;
    const cronSecret = randomBytes(24).toString("hex");
    const gatewayEnv: NodeJS.ProcessEnv = {
      ...process.env,
      RPC_URL: rpc.url,
      X402_ASSET: chain.asset,
      PAY_TO_ADDRESS: chain.payTo,
      FACILITATOR_URL: facilitator.url,
      FACILITATOR_TIMEOUT_MS: "10000",
      UPSTREAM_API_URL: agentUrl,
      AGENT_SERVICE_KEY: serviceKey,
      POSTGRES_URL: database.url,
      CRON_SECRET: cronSecret,
      PUBLIC_URL: gatewayUrl,
      PORT: String(port),
      NEXT_TELEMETRY_DISABLED: "1",
      LOG_SILENT: "1",
    };
    await ensureBuild(root, gatewayEnv);
    const gateway = startService({ name: "gateway", command: process.execPath, args: gatewayServerArgs(root), env: gatewayEnv, quiet: true });
    cleanups.push(gateway.stop);
    await waitForHttp(`${gatewayUrl}/api/health`, { statuses: [200] });

    // Monitors: health every 500 ms, the cron every 5 s.
    const health: { at: number; status: number | null; components: Record<string, string> }[] = [];
    let monitoring = true;
    const healthLoop = (async () => {
      while (monitoring) {
        try {
          const response = await fetch(`${gatewayUrl}/api/health`, { signal: AbortSignal.timeout(5_000) });
          const body = (await response.json().catch(() => ({}))) as { components?: Record<string, { status?: string }> };
          health.push({ at: now(), status: response.status, components: Object.fromEntries(Object.entries(body.components ?? {}).map(([k, v]) => [k, String(v?.status)])) });
        } catch {
          health.push({ at: now(), status: null, components: {} });
        }
        await sleep(HEALTH_EVERY_MS);
      }
    })();
    let cronRuns = 0;
    const cronLoop = (async () => {
      while (monitoring) {
        await fetch(`${gatewayUrl}/api/cron`, { headers: { authorization: `Bearer ${cronSecret}` }, signal: AbortSignal.timeout(60_000) })
          .then((r) => r.arrayBuffer())
          .then(() => cronRuns++)
          .catch(() => undefined);
        await sleep(CRON_EVERY_MS);
      }
    })();

    // The load: paying users (chat, literature, now and then deep research) and free users.
    const outcomes: Outcome[] = [];
    let loading = true;
    const wallets = chain.testWallets.slice(1, 1 + PAYING_USERS);
    const users = [
      ...wallets.map((wallet, i) =>
        (async () => {
          const { fetch: payFetch } = createPayingFetch({ privateKey: wallet.privateKey, network: chain.network, asset: chain.asset, fetchImpl: capture });
          for (let n = 0; loading; n++) {
            const kind: Kind = n % 10 === 9 ? "deep-research" : n % 3 === 2 ? "literature" : "chat";
            outcomes.push(await paidRequest({ gatewayUrl, payFetch, kind, question: QUESTIONS[(n + i) % QUESTIONS.length]! }));
          }
        })(),
      ),
      ...Array.from({ length: FREE_USERS }, (_, i) =>
        (async () => {
          for (let n = 0; loading; n++) {
            outcomes.push(n % 2 === 0 ? await freeHealth(gatewayUrl) : await freeChat(agentUrl, QUESTIONS[(n + i) % QUESTIONS.length]!));
            await sleep(FREE_PACE_MS);
          }
        })(),
      ),
    ];

    const faults: Fault[] = [];
    const runFault = async (name: string, component: string, down: () => Promise<void>, up: () => Promise<void>, seconds: number) => {
      console.log(`Fault: ${name} for ${seconds} s`);
      const startedAt = now();
      await down();
      await sleep(seconds * 1000);
      await up();
      const endedAt = now();
      faults.push({ name, component, startedAt, endedAt, healthShown: false, healthyAfterS: null, servedAfterS: null });
      await sleep(SETTLE_SECONDS * 1000);
    };

    await sleep(SETTLE_SECONDS * 1000);
    await runFault(
      "agent killed (SIGKILL), restarted after 10 s",
      "upstreamApi",
      async () => {
        endedByTheRun.add(agent.child);
        agent.child.kill("SIGKILL");
        await new Promise<void>((resolve) => (agent.child.exitCode !== null || agent.child.signalCode !== null ? resolve() : agent.child.once("exit", () => resolve())));
      },
      async () => {
        agent = startAgent(agentEnv);
        await waitForHttp(`${agentUrl}/api/health`, { statuses: [200, 503], timeoutMs: 120_000 });
      },
      10,
    );
    await runFault("PostgreSQL stopped, started after 10 s", "database", database.halt, database.resume, 10);
    await runFault("chain RPC unreachable", "payments", rpc.cut, rpc.restore, FAULT_SECONDS);
    await runFault("facilitator unreachable", "payments", facilitator.cut, facilitator.restore, FAULT_SECONDS);

    console.log("Load stopped; following every accepted request to its end…");
    loading = false;
    await Promise.all(users);
    // Let the cron settle what is due (deep research settles at delivery, retries after faults).
    await waitForSettled(database.url, 120_000);
    monitoring = false;
    await Promise.all([healthLoop, cronLoop]);

    // Money: what the chain says against what each request got.
    const reader = createChainReaderFor(chain.publicClient);
    const used = new Map<string, boolean>();
    for (const o of outcomes) for (const a of o.authorizations) used.set(key(a), await reader.authorizationState(chain.asset, a.payer, a.nonce));
    const paid = outcomes.filter((o) => o.paid);
    const charged = (o: Outcome) => o.authorizations.filter((a) => used.get(key(a))).length;
    const lost = paid.filter((o) => charged(o) > 0 && o.end !== "delivered");
    const doubleCharged = paid.filter((o) => charged(o) > 1);
    const ledger = await ledgerAgreement(database.url, used, chain.publicClient, chain.asset, chain.payTo);
    const unfinishedJobs = await unfinished(database.url);
    // The agent's own public API cannot answer while its process is dead: a refused connection
    // there, during the kill (and the few seconds the new process takes to listen), is expected.
    const agentFault = faults[0]!;
    const agentDown = (o: Outcome, a: Attempt) => o.kind === "free-chat" && a.status === null && a.at >= agentFault.startedAt && a.at <= agentFault.endedAt;
    const expectedRefusals = outcomes.flatMap((o) => o.attempts.filter((a) => agentDown(o, a))).length;
    const indefinite = outcomes.flatMap((o) => o.attempts.filter((a) => !definite(a, o.kind) && !agentDown(o, a)).map((a) => ({ request: o.id, kind: o.kind, ...a })));
    const answers: Record<string, number> = {};
    for (const o of outcomes) for (const a of o.attempts) answers[`${o.kind} ${a.status ?? "network error"}${a.reason ? ` ${a.reason}` : ""}`] = (answers[`${o.kind} ${a.status ?? "network error"}${a.reason ? ` ${a.reason}` : ""}`] ?? 0) + 1;

    for (const fault of faults) {
      const during = health.filter((h) => h.at >= fault.startedAt && h.at <= fault.endedAt);
      fault.healthShown = during.some((h) => h.status !== 200 || (h.components[fault.component] !== undefined && h.components[fault.component] !== "healthy"));
      const healthy = health.find((h) => h.at > fault.endedAt && h.status === 200 && Object.values(h.components).every((s) => s === "healthy"));
      fault.healthyAfterS = healthy ? (healthy.at - fault.endedAt) / 1000 : null;
      const served = paid.filter((o) => o.end === "delivered" && o.startedAt >= fault.endedAt).sort((a, b) => a.finishedAt - b.finishedAt)[0];
      fault.servedAfterS = served ? (served.finishedAt - fault.endedAt) / 1000 : null;
    }

    const byKind = Object.fromEntries(
      (["chat", "literature", "deep-research", "free-health", "free-chat"] as Kind[]).map((k) => {
        const of = outcomes.filter((o) => o.kind === k);
        return [k, { requests: of.length, delivered: of.filter((o) => o.end === "delivered").length, refused: of.filter((o) => o.end === "refused").length, failedVisibly: of.filter((o) => o.end === "failed-visibly").length, gaveUp: of.filter((o) => o.end === "gave-up").length }];
      }),
    );
    const retryable = outcomes.flatMap((o) => o.attempts).filter((a) => a.status === 429 || a.status === 503).length;
    const paidMs = paid.filter((o) => o.end === "delivered").map((o) => o.finishedAt - o.startedAt);

    console.log("\n## Chaos: faults under a steady mix of paid and free requests\n");
    console.log("| kind | requests | delivered | refused (4xx) | failed visibly | gave up |");
    console.log("|---|---:|---:|---:|---:|---:|");
    for (const [k, f] of Object.entries(byKind)) console.log(`| ${k} | ${f.requests} | ${f.delivered} | ${f.refused} | ${f.failedVisibly} | ${f.gaveUp} |`);
    console.log(`\nAttempts answered 429/503 with Retry-After (retryable): ${retryable}. Connections refused by the agent while it was dead (expected): ${expectedRefusals}. Cron runs: ${cronRuns}.`);
    console.log("\nEvery answer, by request kind, status and reason:");
    for (const [answer, n] of Object.entries(answers).sort((a, b) => b[1] - a[1])) console.log(`- ${n} × ${answer}`);
    console.log(`Paid requests delivered: submit to result p50 ${(percentile(paidMs, 50) / 1000).toFixed(1)} s, p99 ${(percentile(paidMs, 99) / 1000).toFixed(1)} s.`);
    console.log("\n| fault | health showed it | healthy again after | first paid request served after |");
    console.log("|---|---|---:|---:|");
    for (const f of faults) console.log(`| ${f.name} | ${f.healthShown ? "yes" : "NO"} | ${f.healthyAfterS === null ? "never" : `${f.healthyAfterS.toFixed(1)} s`} | ${f.servedAfterS === null ? "never" : `${f.servedAfterS.toFixed(1)} s`} |`);
    const checks = [
      { name: "every attempt definite or retryable (429/503 with Retry-After)", ok: indefinite.length === 0, detail: `${indefinite.length} not` },
      { name: "no paid request lost its answer or was charged for a failure", ok: lost.length === 0, detail: `${lost.length} charged without a delivered answer` },
      { name: "no paid request charged twice", ok: doubleCharged.length === 0, detail: `${doubleCharged.length} charged twice` },
      { name: "ledger agrees with the chain", ok: ledger.disagreements.length === 0, detail: `${ledger.settledRows} settled rows, ${ledger.transfers} transfers to payTo, ${ledger.disagreements.length} disagreements` },
      { name: "every job finished or failed visibly", ok: unfinishedJobs.length === 0, detail: `${unfinishedJobs.length} left queued or running` },
      { name: "no request gave up", ok: outcomes.every((o) => o.end !== "gave-up"), detail: `${outcomes.filter((o) => o.end === "gave-up").length} gave up` },
      { name: "the agent never died of a fault it was not given", ok: agentDeaths.length === 0, detail: `${agentDeaths.length} unexpected exits` },
      { name: "health showed each outage and recovered", ok: faults.every((f) => f.healthShown && f.healthyAfterS !== null), detail: faults.filter((f) => !f.healthShown || f.healthyAfterS === null).map((f) => f.name).join("; ") || "all" },
    ];
    console.log("\n| check | result | detail |");
    console.log("|---|---|---|");
    for (const c of checks) console.log(`| ${c.name} | ${c.ok ? "ok" : "FAILED"} | ${c.detail} |`);
    saveResults("chaos", {
      faultSeconds: FAULT_SECONDS,
      payingUsers: PAYING_USERS,
      freeUsers: FREE_USERS,
      byKind,
      retryable,
      expectedRefusals,
      answers,
      faults,
      checks,
      lost: lost.map(summary),
      doubleCharged: doubleCharged.map(summary),
      indefinite: indefinite.slice(0, 50),
      ledger,
      unfinishedJobs,
      gaveUp: outcomes.filter((o) => o.end === "gave-up").map(summary).slice(0, 50),
      agentDeaths,
    });
    process.exitCode = checks.every((c) => c.ok) ? 0 : 1;
  } finally {
    await cleanup();
  }
}

/** Agent processes the run itself ends (its fault, its cleanup): any other end is a finding. */
const endedByTheRun = new WeakSet<object>();
/** Agent processes that ended without being killed by the run, with the end of their stderr. */
const agentDeaths: { at: number; code: number | null; signal: string | null; stderr: string }[] = [];

function startAgent(env: NodeJS.ProcessEnv): Service {
  const service = startService({ name: "agent", command: process.execPath, args: ["--import", "tsx", path.join(root, "agent/main.ts")], env, quiet: true });
  // Quiet, but a death the run did not cause must say why (a run once lost its agent for good
  // while PostgreSQL restarted, with nothing to show for it).
  let stderr = "";
  service.child.stderr?.on("data", (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4_000)));
  service.child.once("exit", (code, signal) => {
    if (endedByTheRun.has(service.child)) return;
    agentDeaths.push({ at: now(), code, signal, stderr });
    console.error(`The agent exited (code ${code}, signal ${signal}); its stderr ended with:\n${stderr}`);
  });
  return service;
}

async function importLibrary(url: string): Promise<void> {
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  try {
    await importLibraryFile({ db: pool, file: LIBRARY });
  } finally {
    await pool.end();
  }
}

// The authorizations each paying request signs, read from the PAYMENT-SIGNATURE it sends.
const signed = new Map<string, { payer: string; nonce: Hex }[]>();
const REQUEST_ID = "x-chaos-request";
const capture: typeof fetch = async (input, init) => {
  const request = new Request(input, init);
  const header = request.headers.get("payment-signature");
  const id = request.headers.get(REQUEST_ID);
  if (header && id) {
    const { authorization } = exactEvmPayloadSchema.parse(decodePaymentHeader(header).payload);
    const list = signed.get(id) ?? [];
    const auth = { payer: getAddress(authorization.from), nonce: authorization.nonce };
    if (!list.some((a) => a.nonce === auth.nonce)) list.push(auth);
    signed.set(id, list);
  }
  return fetch(request);
};

const key = (a: { payer: string; nonce: string }) => `${a.payer.toLowerCase()}:${a.nonce.toLowerCase()}`;
/**
 * A definite answer: 2xx, a 4xx (429 only with Retry-After), a 503 with Retry-After, the
 * contract's 502 for an upstream failure with its JSON `reason` (nothing charged), or health's 503
 * (the contract's answer while a component is down).
 */
const definite = (a: Attempt, kind: Kind) =>
  a.status !== null &&
  (a.status < 500 || (a.status === 503 && (a.retryAfter !== null || kind === "free-health")) || (a.status === 502 && a.reason !== null)) &&
  (a.status !== 429 || a.retryAfter !== null);
const summary = (o: Outcome) => ({ id: o.id, kind: o.kind, end: o.end, detail: o.detail, attempts: o.attempts.map((a) => `${a.status ?? "network"}${a.reason ? ` ${a.reason}` : ""}`) });

async function record(attempts: Attempt[], send: () => Promise<Response>): Promise<{ response: Response | null; body: Record<string, unknown> }> {
  try {
    const response = await send();
    const body = (await response.json().catch(() => ({}))) as Record<string, unknown>;
    attempts.push({ at: now(), status: response.status, retryAfter: response.headers.get("retry-after"), reason: typeof body.reason === "string" ? body.reason : typeof body.error === "string" ? body.error.slice(0, 80) : null });
    return { response, body };
  } catch (err) {
    attempts.push({ at: now(), status: null, retryAfter: null, reason: err instanceof Error ? err.message.slice(0, 80) : String(err) });
    return { response: null, body: {} };
  }
}

/** Retry-After (capped at a minute), or a second when none was given, in milliseconds. */
const backOffMs = (response: Response | null) => Math.min(60, Number(response?.headers.get("retry-after")) || 1) * 1000;
const backOff = (response: Response | null) => sleep(backOffMs(response));

type Recorded = Awaited<ReturnType<typeof record>>;
type End = [Outcome["end"], string];

/** How a job's status poll ended (delivered, or failed visibly and why), or null while it runs. */
function statusEnd({ response, body }: Recorded, failedDetail: (status: string, body: Recorded["body"]) => string): End | null {
  const status = String(body.status ?? "");
  if (response?.status === 200 && status === "completed") return ["delivered", "completed"];
  if (response?.status === 200 && ["failed", "timeout", "cancelled"].includes(status)) return ["failed-visibly", failedDetail(status, body)];
  if (response && response.status >= 400 && response.status < 500 && response.status !== 429) return ["failed-visibly", `poll answered ${response.status}`];
  return null;
}

/**
 * Follows a status route to its end, every `paceMs` while it answers, backing off as an answer of
 * 429 or 5xx asks; null when it has not ended within `limitMs`.
 */
async function followToEnd({ attempts, url, paceMs, limitMs, failedDetail }: { attempts: Attempt[]; url: string; paceMs: number; limitMs: number; failedDetail: (status: string, body: Recorded["body"]) => string }): Promise<End | null> {
  const polled = await poll({
    read: () => record(attempts, () => fetch(url, { signal: AbortSignal.timeout(30_000) })),
    isFinal: (read) => statusEnd(read, failedDetail) !== null,
    pauseMs: ({ response }) => (response && response.status < 300 ? paceMs : backOffMs(response)),
    limitMs,
  });
  return statusEnd(polled.value, failedDetail);
}

async function paidRequest({ gatewayUrl, payFetch, kind, question }: { gatewayUrl: string; payFetch: typeof fetch; kind: "chat" | "literature" | "deep-research"; question: string }): Promise<Outcome> {
  const id = randomUUID();
  const startedAt = now();
  const attempts: Attempt[] = [];
  const path_ = kind === "chat" ? "/api/chat" : kind === "literature" ? "/api/literature" : "/api/deep-research/start";
  const body = kind === "literature" ? { question, maxResults: 5 } : { message: question };
  const done = (end: Outcome["end"], detail: string): Outcome => ({ id, kind, paid: true, startedAt, attempts, authorizations: signed.get(id) ?? [], end, detail, finishedAt: now() });
  while (now() - startedAt < FOLLOW_LIMIT_MS) {
    const { response, body: answer } = await record(attempts, () =>
      payFetch(`${gatewayUrl}${path_}`, { method: "POST", headers: { "content-type": "application/json", [REQUEST_ID]: id }, body: JSON.stringify(body) }),
    );
    if (response && response.status < 300) return follow({ gatewayUrl, kind, accepted: answer, attempts, done });
    if (response && response.status >= 400 && response.status < 500 && response.status !== 429) return done("refused", `${response.status} ${String(answer.reason ?? answer.error ?? "")}`);
    await backOff(response);
  }
  return done("gave-up", "still refused or unanswered after the follow limit");
}

async function follow({
  gatewayUrl,
  kind,
  accepted,
  attempts,
  done,
}: {
  gatewayUrl: string;
  kind: "chat" | "literature" | "deep-research";
  accepted: Record<string, unknown>;
  attempts: Attempt[];
  done: (end: Outcome["end"], detail: string) => Outcome;
}): Promise<Outcome> {
  if (kind === "literature" && accepted.status === "completed") return done("delivered", "completed at once");
  const url =
    kind === "chat"
      ? `${gatewayUrl}/api/chat/status/${encodeURIComponent(String(accepted.requestId))}`
      : kind === "literature"
        ? `${gatewayUrl}/api/literature/jobs/${encodeURIComponent(String(accepted.jobId))}`
        : `${gatewayUrl}/api/deep-research/${encodeURIComponent(String(accepted.conversationId))}`;
  const end = await followToEnd({
    attempts,
    url,
    paceMs: kind === "deep-research" ? 2_000 : 500,
    limitMs: FOLLOW_LIMIT_MS,
    failedDetail: (status, body) => `${status}: ${String(body.error ?? body.sessionStatus ?? "")}`,
  });
  return end ? done(...end) : done("gave-up", "not finished after the follow limit");
}

async function freeHealth(gatewayUrl: string): Promise<Outcome> {
  const startedAt = now();
  const attempts: Attempt[] = [];
  const { response } = await record(attempts, () => fetch(`${gatewayUrl}/api/health`, { signal: AbortSignal.timeout(30_000) }));
  return { id: randomUUID(), kind: "free-health", paid: false, startedAt, attempts, authorizations: [], end: response ? "delivered" : "gave-up", detail: String(response?.status ?? "no answer"), finishedAt: now() };
}

/** The agent's public chat (free, polling variant), followed to its end. */
async function freeChat(agentUrl: string, message: string): Promise<Outcome> {
  const id = randomUUID();
  const startedAt = now();
  const attempts: Attempt[] = [];
  const done = (end: Outcome["end"], detail: string): Outcome => ({ id, kind: "free-chat", paid: false, startedAt, attempts, authorizations: [], end, detail, finishedAt: now() });
  while (now() - startedAt < FOLLOW_LIMIT_MS) {
    const { response, body } = await record(attempts, () =>
      fetch(`${agentUrl}/api/chat`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ message }), signal: AbortSignal.timeout(30_000) }),
    );
    if (response && response.status < 300) {
      const url = `${agentUrl}/api/chat/status/${encodeURIComponent(String(body.requestId))}`;
      const end = await followToEnd({ attempts, url, paceMs: 500, limitMs: FOLLOW_LIMIT_MS - (now() - startedAt), failedDetail: (status) => status });
      return end ? done(...end) : done("gave-up", "not finished after the follow limit");
    }
    if (response && response.status >= 400 && response.status < 500 && response.status !== 429) return done("refused", String(response.status));
    await backOff(response);
  }
  return done("gave-up", "not accepted after the follow limit");
}

/** Waits until the gateway's ledger has nothing left to settle (or `limitMs` passes). */
async function waitForSettled(url: string, limitMs: number): Promise<void> {
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  try {
    await poll({
      // 'unsettled' too: a payment answered 503 whose transfer may have landed is settled by the
      // cron once found on chain (or voided once it can no longer be).
      read: async () => Number((await pool.query<{ n: string }>(`SELECT count(*) AS n FROM gateway.payments WHERE status IN ('received', 'verified', 'scheduled', 'settling', 'unsettled')`)).rows[0]!.n),
      isFinal: (unsettled) => unsettled === 0,
      pauseMs: 1_000,
      limitMs,
    });
  } finally {
    await pool.end();
  }
}

/** Settled rows against the chain: each settled row's authorization used, each used one settled, transfers to payTo counted. */
async function ledgerAgreement(
  url: string,
  used: Map<string, boolean>,
  client: PublicClient,
  asset: string,
  payTo: string,
): Promise<{ settledRows: number; transfers: number; byStatus: Record<string, number>; disagreements: string[] }> {
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  try {
    const { rows } = await pool.query<{ payer: string; nonce: string; status: string }>(`SELECT payer, nonce, status FROM gateway.payments`);
    const byStatus: Record<string, number> = {};
    const disagreements: string[] = [];
    const rowKeys = new Set<string>();
    for (const row of rows) {
      byStatus[row.status] = (byStatus[row.status] ?? 0) + 1;
      const k = key(row);
      rowKeys.add(k);
      const onChain = used.get(k);
      if (row.status === "settled" && onChain === false) disagreements.push(`${k}: settled in the ledger, unused on chain`);
      if (row.status !== "settled" && onChain === true) disagreements.push(`${k}: ${row.status} in the ledger, used on chain`);
    }
    for (const [k, onChain] of used) if (onChain && !rowKeys.has(k)) disagreements.push(`${k}: used on chain, not in the ledger`);
    const logs = await client.getLogs({ address: getAddress(asset), event: parseAbiItem("event Transfer(address indexed from, address indexed to, uint256 value)"), args: { to: getAddress(payTo) as Hex }, fromBlock: 0n, toBlock: "latest" });
    if (logs.length !== (byStatus.settled ?? 0)) disagreements.push(`${logs.length} transfers to payTo on chain, ${byStatus.settled ?? 0} settled rows`);
    return { settledRows: byStatus.settled ?? 0, transfers: logs.length, byStatus, disagreements };
  } finally {
    await pool.end();
  }
}

async function unfinished(url: string): Promise<{ id: string; kind: string; status: string }[]> {
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  try {
    const { rows } = await pool.query<{ id: string; kind: string; status: string }>(`SELECT id::text, kind, status FROM agent.jobs WHERE status IN ('queued', 'running')`);
    return rows;
  } finally {
    await pool.end();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
