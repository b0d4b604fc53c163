"use client";

import { KIND_LABELS } from "@/lib/web/thread";
import { walletThreads } from "@/lib/web/wallet-history";
import { ErrorNote } from "./status-bits";
import styles from "./thread.module.css";
import type { WalletHistoryState } from "./use-wallet-history";

const KIND: Record<"chat" | "literature" | "deepResearch", keyof typeof KIND_LABELS> = { chat: "chat", literature: "literature", deepResearch: "research" };

/**
 * Signing in with the payer's wallet, so its history follows the wallet to any browser: one
 * signature (it pays nothing), then this browser reads what the wallet paid for until it signs out.
 */
export function WalletSignIn({ wallet }: { wallet: WalletHistoryState }) {
  return (
    <div data-testid="history-sign-in-state" data-state={wallet.status}>
      {wallet.status === "signed-in" ? (
        <p className="small">
          Signed in with this wallet: its questions and answers from any browser or agent.{" "}
          <button type="button" className="link-button" onClick={() => void wallet.signOut()} disabled={wallet.busy}>
            Sign out
          </button>
        </p>
      ) : wallet.status === "signed-out" ? (
        <p className="small">
          <button type="button" onClick={() => void wallet.signIn()} disabled={wallet.busy} data-testid="history-sign-in">
            Sign in with this wallet
          </button>{" "}
          <span className="muted">to see what it paid for from any browser: the wallet signs a message, which pays nothing.</span>
        </p>
      ) : null}
      {wallet.error ? <ErrorNote error={wallet.error} /> : null}
    </div>
  );
}

/** The wallet's past threads as the service keeps them: searchable by their questions, each opened or forgotten in one click. */
export function WalletThreads({ wallet, query, currentThreadId }: { wallet: WalletHistoryState; query: string; currentThreadId: string | null }) {
  const threads = walletThreads(wallet.items, query);
  return (
    <>
      {threads.length === 0 ? (
        <p className="muted">{query ? "Nothing matches." : "Nothing yet."}</p>
      ) : (
        <ul className={styles.history}>
          {threads.map((t) => (
            <li key={t.threadId} data-testid="history-thread" data-source="wallet" data-sealed={t.sealed}>
              <span className="chip">{KIND_LABELS[KIND[t.items[0]!.kind]]}</span> {t.sealed ? <span className="chip">sealed</span> : null}{" "}
              <span className={styles.historyTitle}>{t.title}</span>{" "}
              <span className="muted small">
                {new Date(t.startedAt).toLocaleString()} · {t.items.length} question{t.items.length === 1 ? "" : "s"}
              </span>{" "}
              {t.sealed ? null : t.threadId === currentThreadId ? (
                <span className="chip">open</span>
              ) : (
                <button type="button" className="link-button" onClick={() => void wallet.open(t)} disabled={wallet.busy}>
                  Open
                </button>
              )}{" "}
              <button type="button" className="link-button" onClick={() => void wallet.forget(t)} disabled={wallet.busy} aria-label={`Delete the thread “${t.title}”`}>
                Delete
              </button>
            </li>
          ))}
        </ul>
      )}
      {wallet.more ? (
        <button type="button" onClick={() => void wallet.loadMore()} disabled={wallet.busy}>
          Show older
        </button>
      ) : null}
    </>
  );
}
