import { randomUUID } from "node:crypto";
import path from "node:path";
import { z } from "zod";
import type { AuthorizationChain } from "@/lib/client/mcp-local/chain-check";
import { formatUsd } from "@/lib/shared/contracts/money";
import { readStateFile, updateStateFile } from "@/lib/client/mcp-local/state-file";

/**
 * The local MCP server's record of what the user's key spent, so that its caps hold across calls
 * made at the same moment, across restarts and across the servers of several assistants sharing
 * one state directory. A payment is reserved before anything is signed (refused when it would
 * pass a cap), the authorization recorded once signed (before it is sent), then marked by what
 * the service said of it:
 * - `reserved`: being signed and sent;
 * - `charged`: settled (the service's PAYMENT-RESPONSE, or the chain);
 * - `authorized`: accepted to be settled on delivery (deep research), which may still happen;
 * - `refused`: the service said nothing was charged (a 4xx, `charged: false`, a failed settlement,
 *   a deep-research turn that ended unpaid);
 * - `uncertain`: signed and sent, but the answer never said whether it was settled.
 * What the service says never frees a signed authorization: it keeps it and may settle it while it
 * is valid. Every entry counts against the caps until a day past its `validBefore` (the latest
 * moment it can be settled), so whatever was settled in any 24 hours was counted when the last of
 * it was signed; the only earlier release is an authorization the chain shows unused once its
 * `validBefore` has passed there (releaseExpired), or one never signed (releaseUnsigned).
 */

const DAY_MS = 24 * 60 * 60 * 1000;
/** Entries older than this are dropped from the file (they no longer count against anything). */
const KEEP_MS = 30 * DAY_MS;
/**
 * How far past an authorization's `validBefore` the latest block must be before its being unused
 * is final: a block reorganised away could have carried an earlier timestamp.
 */
export const EXPIRY_MARGIN_SECONDS = 30;

const entrySchema = z.object({
  id: z.string(),
  at: z.number().int().nonnegative().describe("when it was reserved, milliseconds since the epoch"),
  tool: z.string(),
  amount: z.string().regex(/^\d+$/).describe("base units of the token"),
  state: z.enum(["reserved", "charged", "authorized", "refused", "uncertain"]),
  validBefore: z.number().int().nonnegative().optional().describe("seconds: the signed authorization's validBefore (before signing, the latest it can be)"),
  payer: z.string().optional(),
  nonce: z.string().optional().describe("the signed authorization's EIP-3009 nonce: set once signed"),
  asset: z.string().optional(),
  transaction: z.string().optional(),
  network: z.string().optional(),
  conversationId: z.string().optional(),
  messageId: z.string().optional(),
  resourceUrl: z.string().optional().describe("the resource its 402 named: what a deep-research turn's receipt, delivered later, must name"),
});
export type SpendEntry = z.infer<typeof entrySchema>;

/** Version 2 records each authorization signed; a version 1 file (no such record) is read as it is. */
const ledgerSchema = z.object({ version: z.union([z.literal(1), z.literal(2)]), entries: z.array(entrySchema) });
type LedgerFile = z.infer<typeof ledgerSchema>;
const ledger = (entries: SpendEntry[]): LedgerFile => ({ version: 2, entries });

/** Until when an entry counts against the daily cap (ms): a day past the last moment it can be settled. */
const countsUntil = (e: SpendEntry) => (e.validBefore !== undefined ? e.validBefore * 1000 : e.at) + DAY_MS;

/** Where a signed authorization's fate can be read, per network (null: nowhere known). */
export type ChainFor = (network: string) => AuthorizationChain | null;

/** Thrown by `reserve` when a payment would pass a cap; the message says which, the price and what was spent. */
export class SpendCapError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SpendCapError";
  }
}

export class SpendLedger {
  readonly file: string;
  private readonly maxPerCall: bigint;
  private readonly maxPerDay: bigint;
  private readonly now: () => number;

  constructor({ stateDir, maxPerCall, maxPerDay, now = Date.now }: { stateDir: string; maxPerCall: bigint; maxPerDay: bigint; now?: () => number }) {
    this.file = path.join(stateDir, "spend-ledger.json");
    this.maxPerCall = maxPerCall;
    this.maxPerDay = maxPerDay;
    this.now = now;
  }

  private update<R>(change: (state: LedgerFile, now: number) => { state?: LedgerFile; result: R }): Promise<R> {
    return updateStateFile({ file: this.file, schema: ledgerSchema, empty: () => ledger([]), change: (state) => change(state, this.now()) });
  }

  private read(): SpendEntry[] {
    return readStateFile({ file: this.file, schema: ledgerSchema, empty: () => ledger([]) }).entries;
  }

  /** What counts against the daily cap at `now`: every entry not a day past its last moment of settlement. */
  private static spentAt(entries: SpendEntry[], now: number): bigint {
    return entries.filter((e) => now < countsUntil(e)).reduce((sum, e) => sum + BigInt(e.amount), 0n);
  }

  /**
   * Reserves `amount` base units for `tool`, before signing an authorization that will be valid
   * until `validBefore` (seconds) at the latest. Throws SpendCapError when it is above the
   * per-call cap or would take what counts past the daily cap (reservations in flight included,
   * so two calls at once cannot together pass it).
   */
  reserve({ tool, amount, validBefore }: { tool: string; amount: bigint; validBefore: number }): Promise<SpendEntry> {
    return this.update((state, now) => {
      const price = formatUsd(amount);
      if (amount > this.maxPerCall) {
        throw new SpendCapError(`Refused before signing: ${tool} asks ${price}, above the per-call cap of ${formatUsd(this.maxPerCall)} (LONGEVITY_MCP_MAX_PER_CALL).`);
      }
      const spent = SpendLedger.spentAt(state.entries, now);
      if (spent + amount > this.maxPerDay) {
        throw new SpendCapError(
          `Refused before signing: ${tool} asks ${price}, and ${formatUsd(spent)} of the daily cap of ${formatUsd(this.maxPerDay)} (LONGEVITY_MCP_MAX_PER_DAY) is already spent or committed in the last 24 hours, leaving ${formatUsd(this.maxPerDay > spent ? this.maxPerDay - spent : 0n)}.`,
        );
      }
      const entry: SpendEntry = { id: randomUUID(), at: now, tool, amount: amount.toString(), state: "reserved", validBefore };
      return { state: ledger([...state.entries.filter((e) => e.at > now - KEEP_MS), entry]), result: entry };
    });
  }

  /** Records the authorization signed for a reservation, before it is sent: from then on only the chain can free it. */
  signed(id: string, authorization: Required<Pick<SpendEntry, "payer" | "nonce" | "asset" | "network" | "validBefore">>): Promise<void> {
    return this.update((state) => {
      if (!state.entries.some((e) => e.id === id)) throw new Error("the reservation is no longer in the spend ledger");
      return { state: ledger(state.entries.map((e) => (e.id === id ? { ...e, ...authorization } : e))), result: undefined };
    });
  }

  /** Records what became of a payment (charged, authorized, refused, uncertain), with what the service said of it. */
  mark(id: string, patch: Pick<SpendEntry, "state"> & Partial<Pick<SpendEntry, "transaction" | "network" | "conversationId" | "messageId" | "resourceUrl">>): Promise<void> {
    return this.update((state) => ({
      state: ledger(state.entries.map((e) => (e.id === id ? { ...e, ...patch } : e))),
      result: undefined,
    }));
  }

  /** Forgets a reservation whose authorization was never signed (nothing exists that could be settled); a signed one stays. */
  releaseUnsigned(id: string): Promise<void> {
    return this.update((state) => ({ state: ledger(state.entries.filter((e) => e.id !== id || e.nonce !== undefined)), result: undefined }));
  }

  /**
   * Asks the chain about every signed authorization past its `validBefore` that the service did
   * not say it settled: one the token never saw used can no longer be settled (the latest block is
   * past its `validBefore`, by EXPIRY_MARGIN_SECONDS), so it stops counting; one it saw used is
   * marked charged. A chain that cannot be read leaves everything counting.
   */
  async releaseExpired(chainFor: ChainFor): Promise<void> {
    const now = this.now();
    const due = this.read().filter((e) => e.nonce && e.payer && e.asset && e.network && e.validBefore !== undefined && e.state !== "charged" && e.validBefore * 1000 <= now);
    const verdicts = new Map<string, "unused" | "used">();
    for (const network of new Set(due.map((e) => e.network!))) {
      const chain = chainFor(network);
      if (!chain) continue;
      try {
        const latest = await chain.latestTimestamp();
        for (const e of due.filter((d) => d.network === network && d.validBefore! + EXPIRY_MARGIN_SECONDS <= latest)) {
          verdicts.set(e.id, (await chain.used({ asset: e.asset!, payer: e.payer!, nonce: e.nonce! })) ? "used" : "unused");
        }
      } catch {
        // Unreadable now: they keep counting, and are asked about again at the next payment.
      }
    }
    if (verdicts.size === 0) return;
    await this.update((state) => ({
      state: ledger(state.entries.flatMap((e) => (verdicts.get(e.id) === "unused" ? [] : verdicts.get(e.id) === "used" ? [{ ...e, state: "charged" as const }] : [e]))),
      result: undefined,
    }));
  }

  /**
   * Records what deep-research turns paid on delivery became, from their conversation's status:
   * a turn with a settlement was charged; one that ended without (failed, cancelled, timed out)
   * is `refused`, still counted until its authorization expires unused on chain.
   */
  reconcileDeferred(turns: { messageId: string; settled: { transaction: string; network: string } | null; ended: boolean }[]): Promise<void> {
    return this.update((state) => {
      let changed = false;
      const entries = state.entries.map((e) => {
        const turn = e.state === "authorized" ? turns.find((t) => t.messageId === e.messageId) : undefined;
        if (!turn || (!turn.settled && !turn.ended)) return e;
        changed = true;
        return turn.settled ? { ...e, state: "charged" as const, ...turn.settled } : { ...e, state: "refused" as const };
      });
      return changed ? { state: ledger(entries), result: undefined } : { result: undefined };
    });
  }

  /** Base units counted against the daily cap now. */
  spent(): bigint {
    return SpendLedger.spentAt(this.read(), this.now());
  }

  /** Every entry on file, oldest first. */
  entries(): SpendEntry[] {
    return this.read();
  }
}
