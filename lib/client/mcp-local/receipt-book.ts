import { randomUUID } from "node:crypto";
import path from "node:path";
import { z } from "zod";
import type { ReceiptPayload } from "@x402/extensions/offer-receipt";
import { checkReceipt, type ExpectedReceipt, type ServiceSigners, type Verdict } from "@/lib/client/offer-receipt/verify";
import { readStateFile, updateStateFile } from "@/lib/client/mcp-local/state-file";

/**
 * Where a paying client of this project (the local MCP server, `npm run ask`) keeps the service's
 * signed receipts, so its user can prove what was bought: `receipts.json` beside the MCP server's
 * spend ledger (its state directory), changed under the same lock discipline (state-file.ts). Each
 * receipt is verified first (verify.ts) against the keys the service publishes; one that fails is
 * recorded as `invalid` with the reason, never as proof. Receipts are kept: they are the proof.
 */

const entrySchema = z.object({
  id: z.string(),
  at: z.number().int().nonnegative().describe("when it was kept, milliseconds since the epoch"),
  verdict: z.enum(["valid", "invalid"]),
  problem: z.string().optional().describe("why an invalid receipt is not proof"),
  signer: z.string().optional().describe("the published key that signed a valid receipt"),
  resourceUrl: z.string(),
  network: z.string(),
  payer: z.string(),
  transaction: z.string(),
  spendEntryId: z.string().optional().describe("the spend ledger's entry of this payment (the local MCP server's)"),
  receipt: z.unknown().describe("the signed receipt as the service sent it"),
});
type KeptReceipt = z.infer<typeof entrySchema>;

const bookSchema = z.object({ version: z.literal(1), receipts: z.array(entrySchema) });
type Book = z.infer<typeof bookSchema>;

export class ReceiptBook {
  readonly file: string;

  constructor({ stateDir }: { stateDir: string }) {
    this.file = path.join(stateDir, "receipts.json");
  }

  /**
   * Verifies `receipt` as the receipt of the payment `expected` describes, against `signers`
   * (read again once when it names a key they do not list), and keeps it with the verdict; a
   * receipt already kept for that transaction with the same verdict is not kept twice.
   * Returns the verdict. @throws when the signers or the file cannot be read
   */
  async keep({
    receipt,
    expected,
    signers,
    spendEntryId,
  }: {
    receipt: unknown;
    expected: ExpectedReceipt;
    signers: ServiceSigners;
    spendEntryId?: string;
  }): Promise<Verdict<{ payload: ReceiptPayload }>> {
    const verdict = await checkReceipt({ receipt, expected, signers });
    const entry: KeptReceipt = {
      id: randomUUID(),
      at: Date.now(),
      ...(verdict.ok ? { verdict: "valid" as const, signer: verdict.signer } : { verdict: "invalid" as const, problem: verdict.problem }),
      ...expected,
      ...(spendEntryId ? { spendEntryId } : {}),
      receipt: receipt ?? null,
    };
    await updateStateFile({
      file: this.file,
      schema: bookSchema,
      empty: (): Book => ({ version: 1, receipts: [] }),
      change: (book) => {
        const known = book.receipts.some((r) => r.transaction.toLowerCase() === entry.transaction.toLowerCase() && r.verdict === entry.verdict);
        return known ? { result: undefined } : { state: { version: 1 as const, receipts: [...book.receipts, entry] }, result: undefined };
      },
    });
    return verdict;
  }

  /** Every receipt kept, oldest first. */
  entries(): KeptReceipt[] {
    return readStateFile({ file: this.file, schema: bookSchema, empty: (): Book => ({ version: 1, receipts: [] }) }).receipts;
  }
}

/** A verdict in words, for the person reading a tool's result or the CLI's output. */
export function receiptWords(verdict: Verdict<unknown>, file: string): string {
  if (verdict.ok) return `Receipt: signed by the service's published key ${verdict.signer}; kept as proof of this payment in ${file}.`;
  return `The service's receipt for this payment did not verify (${verdict.problem}): it is not proof of this payment, and was not kept as such (recorded as invalid in ${file}).`;
}
