"use client";

import type { PaymentEntry, WebConfig } from "@/lib/web/types";

/** This wallet's payments in this browser: when, what, the price, the settled transaction and whether its receipt verified. */
export function PaymentHistoryView({ config, entries }: { config: WebConfig; entries: PaymentEntry[] }) {
  return (
    <section aria-labelledby="history-heading" className="panel">
      <h2 id="history-heading">This wallet&apos;s payments (in this browser)</h2>
      {entries.length === 0 ? (
        <p className="muted">None yet.</p>
      ) : (
        <table className="payments" data-testid="payment-history">
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">What</th>
              <th scope="col">Price</th>
              <th scope="col">Transaction</th>
              <th scope="col">Receipt</th>
            </tr>
          </thead>
          <tbody>
            {entries.map((h, i) => (
              <tr key={`${h.at}-${i}`}>
                <td>{new Date(h.at).toLocaleString()}</td>
                <td>{config.prices[h.operation]?.summary ?? h.operation}</td>
                <td className="price">{h.price}</td>
                <td>
                  <TransactionLink config={config} entry={h} />
                </td>
                <td>
                  <Receipt entry={h} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

function TransactionLink({ config, entry }: { config: WebConfig; entry: PaymentEntry }) {
  if (!entry.transaction) return <span className="muted">{entry.status === "authorized" ? "settles when delivered" : "settled on delivery"}</span>;
  const short = `${entry.transaction.slice(0, 10)}…`;
  if (!config.explorerTxUrl) return <code title={entry.transaction}>{short}</code>;
  return (
    <a href={config.explorerTxUrl.replace("{tx}", entry.transaction)} target="_blank" rel="noopener noreferrer">
      {short}
    </a>
  );
}

/**
 * The payment's signed receipt as the page checked it when it was paid: signed by a key the service
 * publishes, for this payment (proof of what was bought), or why it is no proof.
 */
function Receipt({ entry }: { entry: PaymentEntry }) {
  const receipt = entry.receipt;
  if (!receipt) return <span className="muted">{entry.transaction ? "not checked" : "—"}</span>;
  if (receipt.verified) {
    return (
      <span data-testid="receipt-verified" className="receipt-ok" title={`Signed by ${receipt.signer}, a key the service publishes at /.well-known/x402.json`}>
        ✓ signed by the service
      </span>
    );
  }
  return (
    <span data-testid="receipt-invalid">
      <span className="receipt-bad">✗ did not verify: not proof of this payment</span>
      <small className="receipt-problem">{receipt.problem}</small>
    </span>
  );
}
