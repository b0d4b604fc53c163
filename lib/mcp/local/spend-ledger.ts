import { randomUUID } from "node:crypto";
import path from "node:path";
import { z } from "zod";
import { formatUsd } from "./money";
import { readStateFile, updateStateFile } from "./state-file";

/**
 * The local MCP server's record of what the user's key spent, so that its caps hold across calls
 * made at the same moment, across restarts and across the servers of several assistants sharing
 * one state directory. A payment is reserved before anything is signed (refused when it would
 * pass a cap), then marked by what became of it:
 * - `reserved`: being signed and sent;
 * - `charged`: the service settled it (its PAYMENT-RESPONSE names the transaction);
 * - `authorized`: accepted to be settled on delivery (deep research), which may still happen;
 * - `uncertain`: signed and sent, but the answer never said whether it was settled;
 * and removed when it certainly was not (the route answered an error saying nothing was charged,
 * or the payment was never signed). Every entry but a removed one counts against the caps: a
 * signature whose fate is unknown may yet be settled. The daily cap is over any 24 hours.
 */

const DAY_MS = 24 * 60 * 60 * 1000;
/** Entries older than this are dropped from the file (they no longer count against anything). */
const KEEP_MS = 30 * DAY_MS;

const entrySchema = z.object({
  id: z.string(),
  at: z.number().int().nonnegative().describe("when it was reserved, milliseconds since the epoch"),
  tool: z.string(),
  amount: z.string().regex(/^\d+$/).describe("base units of the token"),
  state: z.enum(["reserved", "charged", "authorized", "uncertain"]),
  transaction: z.string().optional(),
  network: z.string().optional(),
  conversationId: z.string().optional(),
  messageId: z.string().optional(),
});
export type SpendEntry = z.infer<typeof entrySchema>;

const ledgerSchema = z.object({ version: z.literal(1), entries: z.array(entrySchema) });
type LedgerFile = z.infer<typeof ledgerSchema>;

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
    return updateStateFile({ file: this.file, schema: ledgerSchema, empty: () => ({ version: 1 as const, entries: [] }), change: (state) => change(state, this.now()) });
  }

  /** What counts against the daily cap at `now`: every entry of the last 24 hours. */
  private static spentAt(entries: SpendEntry[], now: number): bigint {
    return entries.filter((e) => e.at > now - DAY_MS).reduce((sum, e) => sum + BigInt(e.amount), 0n);
  }

  /**
   * Reserves `amount` base units for `tool`, before signing. Throws SpendCapError when it is above
   * the per-call cap or would take the last 24 hours past the daily cap (reservations in flight
   * included, so two calls at once cannot together pass it).
   */
  reserve({ tool, amount }: { tool: string; amount: bigint }): Promise<SpendEntry> {
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
      const entry: SpendEntry = { id: randomUUID(), at: now, tool, amount: amount.toString(), state: "reserved" };
      return { state: { version: 1, entries: [...state.entries.filter((e) => e.at > now - KEEP_MS), entry] }, result: entry };
    });
  }

  /** Records what became of a reserved payment (charged, authorized, uncertain), with what the service said of it. */
  mark(id: string, patch: Pick<SpendEntry, "state"> & Partial<Pick<SpendEntry, "transaction" | "network" | "conversationId" | "messageId">>): Promise<void> {
    return this.update((state) => ({
      state: { version: 1, entries: state.entries.map((e) => (e.id === id ? { ...e, ...patch } : e)) },
      result: undefined,
    }));
  }

  /** Forgets a payment that certainly was not charged (never signed, or refused with nothing charged). */
  release(id: string): Promise<void> {
    return this.update((state) => ({ state: { version: 1, entries: state.entries.filter((e) => e.id !== id) }, result: undefined }));
  }

  /**
   * Settles the record of deep-research turns paid on delivery, from what their conversation's
   * status now says: a turn with a settlement was charged; one that ended without (failed,
   * cancelled, timed out) was not.
   */
  reconcileDeferred(turns: { messageId: string; settled: { transaction: string; network: string } | null; ended: boolean }[]): Promise<void> {
    return this.update((state) => {
      let changed = false;
      const entries = state.entries.flatMap((e) => {
        const turn = e.state === "authorized" ? turns.find((t) => t.messageId === e.messageId) : undefined;
        if (!turn || (!turn.settled && !turn.ended)) return [e];
        changed = true;
        return turn.settled ? [{ ...e, state: "charged" as const, ...turn.settled }] : [];
      });
      return changed ? { state: { version: 1, entries }, result: undefined } : { result: undefined };
    });
  }

  /** Base units counted against the daily cap now. */
  spent(): bigint {
    const { entries } = readStateFile({ file: this.file, schema: ledgerSchema, empty: () => ({ version: 1 as const, entries: [] }) });
    return SpendLedger.spentAt(entries, this.now());
  }

  /** Every entry on file, oldest first. */
  entries(): SpendEntry[] {
    return readStateFile({ file: this.file, schema: ledgerSchema, empty: () => ({ version: 1 as const, entries: [] }) }).entries;
  }
}
