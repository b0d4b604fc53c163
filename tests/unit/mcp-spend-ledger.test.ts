import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { rpcUrlFor } from "@/lib/client/mcp-local/chain-check";
import { loadLocalMcpConfig } from "@/lib/client/mcp-local/config";
import { formatUsd, parseUsd } from "@/lib/shared/contracts/money";
import { requirementProblem } from "@/lib/client/mcp-local/payment-terms";
import { EXPIRY_MARGIN_SECONDS, SpendCapError, SpendLedger } from "@/lib/client/mcp-local/spend-ledger";
import { StateFileError } from "@/lib/client/mcp-local/state-file";
import { getPaidOperation } from "@/lib/shared/operations";
import { until } from "../support/until";

/** The local MCP server's money rules: dollars, caps, the ledger that keeps them across calls, restarts and processes. */

const root = path.resolve(import.meta.dirname, "../..");
const dirs: string[] = [];
const stateDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "lra-mcp-ledger-"));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

const DAY_MS = 24 * 60 * 60 * 1000;
const cents = (n: number) => BigInt(n) * 10_000n;

describe("dollars", () => {
  it("reads caps written in dollars into base units, and refuses anything else", () => {
    expect(parseUsd("1")).toBe(1_000_000n);
    expect(parseUsd("1.00")).toBe(1_000_000n);
    expect(parseUsd("$0.02")).toBe(20_000n);
    expect(parseUsd("0.000001")).toBe(1n);
    for (const bad of ["-1", "1.0000001", "one", "", "1e3", "0x10"]) expect(() => parseUsd(bad)).toThrow(/not an amount in dollars/);
  });

  it("writes base units as dollars", () => {
    expect(formatUsd(20_000n)).toBe("$0.02");
    expect(formatUsd(1_000_000n)).toBe("$1.00");
    expect(formatUsd(1_000_000_000n)).toBe("$1000.00");
    expect(formatUsd(1n)).toBe("$0.000001");
    expect(formatUsd(0n)).toBe("$0.00");
  });
});

describe("the local server's configuration", () => {
  it("defaults to $1.00 per call and $5.00 a day, in a state directory of the user's", () => {
    const config = loadLocalMcpConfig({ XDG_STATE_HOME: "/home/u/.state" }, { root: "/nowhere" });
    expect(config).toMatchObject({ privateKey: null, baseUrl: "http://localhost:3000", maxPerCall: 1_000_000n, maxPerDay: 5_000_000n, stateDir: "/home/u/.state/longevity-mcp", pins: {} });
  });

  it("reads the chain from LONGEVITY_MCP_RPC_URL, else the demo's chain on its network, else the network's public endpoint", () => {
    const demo = stateDir();
    fs.mkdirSync(path.join(demo, ".demo"));
    fs.writeFileSync(path.join(demo, ".demo", "stack.json"), JSON.stringify({ gatewayUrl: "http://localhost:3100", rpcUrl: "http://127.0.0.1:8600", chainId: 31337 }));
    const config = loadLocalMcpConfig({}, { root: demo });
    expect(config.baseUrl).toBe("http://localhost:3100");
    expect(rpcUrlFor(config, "eip155:31337")).toBe("http://127.0.0.1:8600");
    expect(rpcUrlFor(config, "eip155:8453")).toBe("https://mainnet.base.org");
    expect(rpcUrlFor(config, "eip155:84532")).toBe("https://sepolia.base.org");
    expect(rpcUrlFor(config, "eip155:1")).toBeNull();
    expect(rpcUrlFor(loadLocalMcpConfig({ LONGEVITY_MCP_RPC_URL: "https://rpc.example/" }, { root: demo }), "eip155:8453")).toBe("https://rpc.example");
    expect(() => loadLocalMcpConfig({ LONGEVITY_MCP_RPC_URL: "not a url" }, { root })).toThrow(/LONGEVITY_MCP_RPC_URL/);
  });

  it("names a bad variable without repeating its value", () => {
    const secret = "0x1234";
    expect(() => loadLocalMcpConfig({ LONGEVITY_MCP_PRIVATE_KEY: secret, LONGEVITY_MCP_MAX_PER_DAY: "lots" }, { root })).toThrow(/LONGEVITY_MCP_PRIVATE_KEY[\s\S]*LONGEVITY_MCP_MAX_PER_DAY/);
    try {
      loadLocalMcpConfig({ LONGEVITY_MCP_PRIVATE_KEY: secret }, { root });
    } catch (err) {
      expect((err as Error).message).not.toContain(secret);
    }
  });
});

describe("what the local server agrees to sign", () => {
  const destination = { network: "eip155:8453", asset: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913", payTo: "0x209693Bc6afc0C5328bA36FaF03C514EF312287C" };
  const chat = getPaidOperation("chat");
  const fair = { scheme: "exact", ...destination, amount: chat.amount, maxTimeoutSeconds: chat.maxTimeoutSeconds };
  const judge = (overrides: Partial<typeof fair>, maxPerCall = 1_000_000n) =>
    requirementProblem({ ...fair, ...overrides }, { destination, operation: chat, maxPerCall, tool: "chat" });

  it("signs the tool's own price to the trusted payee, in the trusted token, on the trusted network (addresses in any case)", () => {
    expect(judge({})).toBeNull();
    expect(judge({ payTo: destination.payTo.toLowerCase(), asset: destination.asset.toUpperCase().replace("0X", "0x") })).toBeNull();
    expect(judge({ amount: "10000" })).toBeNull();
  });

  it.each([
    ["another payee", { payTo: "0x0000000000000000000000000000000000000bad" }, /not the service's payee/],
    ["another token", { asset: "0x0000000000000000000000000000000000000bad" }, /pays in the token/],
    ["another network", { network: "eip155:1" }, /pays on the network eip155:1/],
    ["another scheme", { scheme: "upto" }, /scheme "upto"/],
    ["1000 USDC", { amount: "1000000000" }, /asks \$1000\.00, more than the \$0\.02 chat costs/],
    ["a little more than the price", { amount: "20001" }, /more than the \$0\.02/],
    ["a non-numeric amount", { amount: "1e6" }, /not a whole number/],
    // Issue 24, item 8: a signature counts against the caps until it expires; a service asking a
    // week-long one could settle it for a week.
    ["an authorization valid for 7 days", { maxTimeoutSeconds: 7 * 24 * 3600 }, /asks for an authorization valid 604800 s, longer than the 300 s chat needs/],
    ["an authorization valid a second longer than the tool needs", { maxTimeoutSeconds: 301 }, /valid 301 s, longer than the 300 s/],
    ["a validity that is no whole number of seconds", { maxTimeoutSeconds: 1.5 }, /valid 1\.5 s, not a whole number of seconds/],
  ])("refuses %s", (_, overrides, message) => {
    expect(judge(overrides)).toMatch(message);
  });

  it("refuses the tool's own price above the per-call cap", () => {
    expect(requirementProblem({ ...fair, amount: "1000000" }, { destination, operation: getPaidOperation("deepResearch"), maxPerCall: cents(50), tool: "deep_research_start" })).toMatch(
      /asks \$1\.00, above the per-call cap of \$0\.50/,
    );
  });

  it("signs deep research valid as long as a run needs, and no longer", () => {
    const deep = getPaidOperation("deepResearch");
    const judgeDeep = (maxTimeoutSeconds: number) => requirementProblem({ ...fair, amount: deep.amount, maxTimeoutSeconds }, { destination, operation: deep, maxPerCall: cents(100), tool: "deep_research_start" });
    expect(judgeDeep(deep.maxTimeoutSeconds)).toBeNull();
    expect(judgeDeep(deep.maxTimeoutSeconds + 1)).toMatch(/longer than the \d+ s deep_research_start needs/);
  });
});

describe("the spend ledger", () => {
  /** A reservation as the server makes one: its authorization valid 5 minutes from `now` at most. */
  const reserve = (ledger: SpendLedger, tool: string, amount: bigint, now = Date.now()) => ledger.reserve({ tool, amount, validBefore: Math.floor(now / 1000) + 300 });
  /** What signing records: the authorization, valid until `validBefore`. */
  const sign = (ledger: SpendLedger, id: string, validBefore: number, nonce = `0x${id.replaceAll("-", "").padEnd(64, "0")}`) =>
    ledger.signed(id, { payer: "0x00000000000000000000000000000000000000aa", nonce, asset: "0x00000000000000000000000000000000000000bb", network: "eip155:8453", validBefore });

  it("refuses a payment above the per-call cap, saying the cap and the price", async () => {
    const ledger = new SpendLedger({ stateDir: stateDir(), maxPerCall: cents(50), maxPerDay: cents(500) });
    await expect(reserve(ledger, "deep_research_start", cents(100))).rejects.toThrow(new SpendCapError("Refused before signing: deep_research_start asks $1.00, above the per-call cap of $0.50 (LONGEVITY_MCP_MAX_PER_CALL)."));
    expect(ledger.entries()).toEqual([]);
  });

  it("counts every payment that may be charged against the day, and refuses the one that would pass it, saying what was spent", async () => {
    const ledger = new SpendLedger({ stateDir: stateDir(), maxPerCall: cents(100), maxPerDay: cents(12) });
    const a = await reserve(ledger, "chat", cents(2));
    const b = await reserve(ledger, "chat", cents(2));
    const c = await reserve(ledger, "literature_search", cents(3));
    const d = await reserve(ledger, "chat", cents(2));
    await ledger.mark(a.id, { state: "charged", transaction: "0xabc", network: "eip155:8453" });
    await ledger.mark(b.id, { state: "uncertain" });
    await ledger.mark(c.id, { state: "authorized", conversationId: "c", messageId: "m" });
    await ledger.mark(d.id, { state: "refused" }); // the service's word: nothing was charged
    expect(ledger.spent()).toBe(cents(9));
    await expect(reserve(ledger, "literature_search", cents(4))).rejects.toThrow(
      "Refused before signing: literature_search asks $0.04, and $0.09 of the daily cap of $0.12 (LONGEVITY_MCP_MAX_PER_DAY) is already spent or committed in the last 24 hours, leaving $0.03.",
    );
    await reserve(ledger, "literature_search", cents(3));
    expect(ledger.spent()).toBe(cents(12));
  });

  it("frees a reservation never signed, and never a signed one, whatever the service said of it", async () => {
    const ledger = new SpendLedger({ stateDir: stateDir(), maxPerCall: cents(100), maxPerDay: cents(2) });
    const a = await reserve(ledger, "chat", cents(2));
    await expect(reserve(ledger, "chat", cents(2))).rejects.toThrow(SpendCapError);
    await ledger.releaseUnsigned(a.id);
    const b = await reserve(ledger, "chat", cents(2));
    await sign(ledger, b.id, Math.floor(Date.now() / 1000) + 300);
    await ledger.mark(b.id, { state: "refused" });
    await ledger.releaseUnsigned(b.id);
    expect(ledger.entries()).toEqual([expect.objectContaining({ id: b.id, state: "refused" })]);
    await expect(reserve(ledger, "chat", cents(2))).rejects.toThrow(SpendCapError);
  });

  it("keeps the day across a restart, and lets a payment pass a day after its authorization expired", async () => {
    const dir = stateDir();
    let now = Date.UTC(2026, 0, 1, 23, 59);
    const before = new SpendLedger({ stateDir: dir, maxPerCall: cents(100), maxPerDay: cents(2), now: () => now });
    await reserve(before, "chat", cents(2), now);
    now += 2 * 60_000; // past midnight: a calendar day would start over, the last 24 hours do not
    const after = new SpendLedger({ stateDir: dir, maxPerCall: cents(100), maxPerDay: cents(2), now: () => now });
    await expect(reserve(after, "chat", cents(2), now)).rejects.toThrow(/\$0\.02 of the daily cap of \$0\.02/);
    now += DAY_MS; // a day after it was signed, but it could have been settled until 5 minutes after that
    await expect(reserve(after, "chat", cents(2), now)).rejects.toThrow(SpendCapError);
    now += 3 * 60_000;
    await expect(reserve(after, "chat", cents(2), now)).resolves.toMatchObject({ tool: "chat" });
  });

  describe("asking the chain, and nothing else, what became of a signed authorization", () => {
    // Issue 24, item 8: a service that answers "charged: false", keeps the signature and settles it
    // later must not get past the daily cap. Here the chain is a double: its clock and what it saw.
    const chainDouble = () => {
      const chain = { latest: 0, used: new Set<string>(), asked: 0 };
      const chainFor = (network: string) =>
        network === "eip155:8453"
          ? {
              latestTimestamp: async () => chain.latest,
              used: async ({ nonce }: { nonce: string }) => (chain.asked++, chain.used.has(nonce)),
            }
          : null;
      return { chain, chainFor };
    };

    it("keeps a refused payment counted while it can be settled, frees it once it expired unused there, and keeps one the chain saw settled for a day past its expiry", async () => {
      let now = Date.UTC(2026, 3, 1, 12, 0);
      const ledger = new SpendLedger({ stateDir: stateDir(), maxPerCall: cents(100), maxPerDay: cents(4), now: () => now });
      const { chain, chainFor } = chainDouble();
      const validBefore = Math.floor(now / 1000) + 300;
      const kept = await reserve(ledger, "chat", cents(2), now);
      await sign(ledger, kept.id, validBefore, "0x" + "1".repeat(64));
      await ledger.mark(kept.id, { state: "refused" });
      const settled = await reserve(ledger, "chat", cents(2), now);
      await sign(ledger, settled.id, validBefore, "0x" + "2".repeat(64));
      await ledger.mark(settled.id, { state: "refused" });
      await expect(reserve(ledger, "chat", cents(2), now)).rejects.toThrow(SpendCapError);

      // Before validBefore nothing is asked and nothing freed, whatever the chain says.
      chain.latest = validBefore + 3600;
      await ledger.releaseExpired(chainFor);
      expect(chain.asked).toBe(0);
      expect(ledger.spent()).toBe(cents(4));

      // Past it by the local clock, but the chain's latest block is not (yet) past it: still counted.
      now = validBefore * 1000 + 60_000;
      chain.latest = validBefore - 1;
      await ledger.releaseExpired(chainFor);
      expect(ledger.spent()).toBe(cents(4));

      // The chain is past it: the unused one is freed, the one it saw used is charged and stays.
      chain.latest = validBefore + EXPIRY_MARGIN_SECONDS;
      chain.used.add("0x" + "2".repeat(64));
      await ledger.releaseExpired(chainFor);
      expect(ledger.entries().map((e) => [e.id, e.state])).toEqual([[settled.id, "charged"]]);
      expect(ledger.spent()).toBe(cents(2));
      await expect(reserve(ledger, "chat", cents(2), now)).resolves.toMatchObject({ tool: "chat" });

      // The settled one counts until a day past its validBefore, then no longer.
      now = validBefore * 1000 + DAY_MS - 1;
      expect(ledger.entries().filter((e) => e.id === settled.id)).toHaveLength(1);
      expect(ledger.spent()).toBe(cents(4));
      now = validBefore * 1000 + DAY_MS;
      expect(ledger.spent()).toBe(cents(2));
    });

    it("frees nothing when the chain cannot be read, or on a network it knows no chain for", async () => {
      let now = Date.UTC(2026, 3, 1, 12, 0);
      const ledger = new SpendLedger({ stateDir: stateDir(), maxPerCall: cents(100), maxPerDay: cents(4), now: () => now });
      const a = await reserve(ledger, "chat", cents(2), now);
      await sign(ledger, a.id, Math.floor(now / 1000) + 300);
      await ledger.mark(a.id, { state: "refused" });
      now += 3600_000;
      await ledger.releaseExpired(() => ({ latestTimestamp: async () => Promise.reject(new Error("unreachable")), used: async () => false }));
      await ledger.releaseExpired(() => null);
      expect(ledger.spent()).toBe(cents(2));
    });

    it("never frees a payment the service said it settled, nor one still being signed", async () => {
      let now = Date.UTC(2026, 3, 1, 12, 0);
      const ledger = new SpendLedger({ stateDir: stateDir(), maxPerCall: cents(100), maxPerDay: cents(6), now: () => now });
      const { chain, chainFor } = chainDouble();
      const charged = await reserve(ledger, "chat", cents(2), now);
      await sign(ledger, charged.id, Math.floor(now / 1000) + 300);
      await ledger.mark(charged.id, { state: "charged", transaction: "0xfeed", network: "eip155:8453" });
      await reserve(ledger, "chat", cents(2), now); // reserved, its process gone before it signed
      now += 3600_000;
      chain.latest = Math.floor(now / 1000);
      await ledger.releaseExpired(chainFor);
      expect(chain.asked).toBe(0);
      expect(ledger.spent()).toBe(cents(4));
    });
  });

  it("records deferred payments from their conversation: charged when settled; a turn that ended unpaid is refused, and still counted", async () => {
    const ledger = new SpendLedger({ stateDir: stateDir(), maxPerCall: cents(100), maxPerDay: cents(500) });
    const [paid, failed, running] = await Promise.all([0, 1, 2].map(() => reserve(ledger, "deep_research_start", cents(100))));
    await ledger.mark(paid!.id, { state: "authorized", messageId: "m1" });
    await ledger.mark(failed!.id, { state: "authorized", messageId: "m2" });
    await ledger.mark(running!.id, { state: "authorized", messageId: "m3" });
    await ledger.reconcileDeferred([
      { messageId: "m1", settled: { transaction: "0xfeed", network: "eip155:8453" }, ended: false },
      { messageId: "m2", settled: null, ended: true },
      { messageId: "m3", settled: null, ended: false },
    ]);
    // Reserved at once: the file's order is whichever took the lock first.
    expect(ledger.entries().map((e) => [e.messageId, e.state, e.transaction]).sort()).toEqual([
      ["m1", "charged", "0xfeed"],
      ["m2", "refused", undefined],
      ["m3", "authorized", undefined],
    ]);
    expect(ledger.spent()).toBe(cents(300));
  });

  it("never resets a ledger it cannot read: it refuses to pay and leaves the file as it was", async () => {
    const dir = stateDir();
    const file = path.join(dir, "spend-ledger.json");
    fs.writeFileSync(file, "{ not json");
    const ledger = new SpendLedger({ stateDir: dir, maxPerCall: cents(100), maxPerDay: cents(500) });
    await expect(ledger.reserve({ tool: "chat", amount: cents(2), validBefore: 0 })).rejects.toThrow(StateFileError);
    expect(fs.readFileSync(file, "utf8")).toBe("{ not json");
  });

  it("takes over a lock left by a process that died holding it, once it is older than any change", async () => {
    const dir = stateDir();
    const lock = path.join(dir, "spend-ledger.json.lock");
    fs.writeFileSync(lock, "999999");
    const old = new Date(Date.now() - 60_000);
    fs.utimesSync(lock, old, old);
    const ledger = new SpendLedger({ stateDir: dir, maxPerCall: cents(100), maxPerDay: cents(500) });
    await expect(ledger.reserve({ tool: "chat", amount: cents(2), validBefore: 0 })).resolves.toMatchObject({ state: "reserved" });
    expect(fs.existsSync(lock)).toBe(false);
  });

  it("holds the day cap when several processes reserve at the same moment (one user's several assistants)", async () => {
    const dir = stateDir();
    const go = path.join(dir, "go");
    const ledgerModule = path.join(root, "lib/client/mcp-local/spend-ledger.ts");
    // Each process loads, says it is ready, waits for the others, then tries 20 reservations of
    // one unit at once; the day allows 30 in all.
    const script = `
      import fs from "node:fs";
      const { SpendLedger } = await import(${JSON.stringify(ledgerModule)});
      const ledger = new SpendLedger({ stateDir: ${JSON.stringify(dir)}, maxPerCall: 1n, maxPerDay: 30n });
      console.log("ready");
      while (!fs.existsSync(${JSON.stringify(go)})) await new Promise((r) => setTimeout(r, 2));
      const outcomes = await Promise.allSettled(Array.from({ length: 20 }, () => ledger.reserve({ tool: "chat", amount: 1n, validBefore: Math.floor(Date.now() / 1000) + 300 })));
      console.log("granted", outcomes.filter((o) => o.status === "fulfilled").length);
    `;
    const children = [0, 1, 2].map(() => {
      const child = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], { cwd: root, stdio: ["ignore", "pipe", "pipe"] });
      let out = "";
      let err = "";
      child.stdout.on("data", (c: Buffer) => (out += c.toString()));
      child.stderr.on("data", (c: Buffer) => (err += c.toString()));
      const granted = new Promise<number>((resolve, reject) =>
        child.once("exit", (code) => (code === 0 ? resolve(Number(/granted (\d+)/.exec(out)?.[1])) : reject(new Error(err)))),
      );
      return { ready: () => out.includes("ready"), granted };
    });
    await until(() => children.every((c) => c.ready()), { what: "three ledger processes to load" });
    fs.writeFileSync(go, "");
    const granted = await Promise.all(children.map((c) => c.granted));
    expect(granted.reduce((a, b) => a + b, 0)).toBe(30);
    expect(new SpendLedger({ stateDir: dir, maxPerCall: 1n, maxPerDay: 30n }).entries()).toHaveLength(30);
  }, 60_000);
});
