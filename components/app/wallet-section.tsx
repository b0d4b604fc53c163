"use client";

import type { WebConfig } from "@/lib/web/types";
import { ErrorNote } from "./status-bits";
import type { PayerState } from "./use-payer";

/** "Who pays": the payer and its balance with a way to stop using it, or the ways to choose one. */
export function WalletSection({ config, wallet }: { config: WebConfig; wallet: PayerState }) {
  const { payer, balance, error, connecting, choose, leave } = wallet;
  return (
    <section aria-labelledby="wallet-heading" className="panel wallet" data-testid="wallet">
      <h2 id="wallet-heading">Who pays</h2>
      {payer ? (
        <div className="wallet-row">
          <span>
            {payer.kind === "test" ? <span className="chip test-label">Local test wallet — test USDC, not real money</span> : <span className="chip">Wallet</span>}{" "}
            <code data-testid="payer-address">{payer.address}</code>
          </span>
          <span data-testid="balance">
            {config.chainName} · balance {balance ?? "…"}
          </span>
          <button type="button" onClick={() => void leave()}>
            {payer.kind === "test" ? "Stop using it" : "Disconnect"}
          </button>
        </div>
      ) : (
        <div className="wallet-row">
          <button type="button" onClick={() => void choose("injected")} disabled={connecting}>
            Connect wallet
          </button>
          {config.walletConnectProjectId ? (
            <button type="button" onClick={() => void choose("walletConnect")} disabled={connecting}>
              WalletConnect
            </button>
          ) : null}
          {config.testWallet ? (
            <button type="button" onClick={() => void choose("test")} disabled={connecting} data-testid="use-test-wallet">
              Use the local test wallet
            </button>
          ) : null}
          <span className="muted small">
            Payments are USDC on {config.chainName}; your wallet signs each one (no accounts, no approvals).
            {config.testWallet ? " Local mode: the test wallet holds test USDC funded by the demo." : ""}
          </span>
        </div>
      )}
      {error ? <ErrorNote error={error} /> : null}
    </section>
  );
}
