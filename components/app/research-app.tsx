"use client";

import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import type { PaidOperation } from "@/lib/operations";
import type { Payer, PaymentEntry, WebConfig } from "@/lib/web/types";
import { describeThrown } from "@/lib/web/describe-thrown";
import { UserFacingError } from "@/lib/web/user-facing-error";
import type { FollowTarget, FollowUp, ThreadKind } from "@/lib/web/thread";
import { ChatPanel } from "./chat-panel";
import { AppContextValue, type AppContext, type AskRequest, type PrivateState } from "./context";
import { DeepResearchPanel } from "./deep-research-panel";
import { LiteraturePanel } from "./literature-panel";
import { PrivateModeControls } from "./private-mode";
import { ErrorNote } from "./status-bits";
import { HistoryView, ThreadView } from "./thread-view";
import { useResearchThread } from "./use-research-thread";

type Tab = "chat" | "literature" | "research";
const TABS: { id: Tab; label: string }[] = [
  { id: "chat", label: "Chat" },
  { id: "literature", label: "Literature search" },
  { id: "research", label: "Deep research" },
];

const historyKey = (address: string) => `lra:payments:${address.toLowerCase()}`;

function storedHistory(address: string): PaymentEntry[] {
  try {
    return JSON.parse(localStorage.getItem(historyKey(address)) ?? "[]") as PaymentEntry[];
  } catch {
    return [];
  }
}

/** Who paid last in this browser, so a reload (or a later visit) does not ask again. */
const PAYER_KEY = "lra:payer";
type PayerKind = "test" | "injected" | "walletConnect";

/**
 * The product: choose who pays (a browser wallet, or in local mode the demo's test wallet), ask,
 * search or research through the same /api routes agents use, optionally sealed end to end, and
 * keep a history of this wallet's payments in this browser.
 */
export function ResearchApp({ config }: { config: WebConfig }) {
  const [payer, setPayer] = useState<Payer | null>(null);
  const [balance, setBalance] = useState<string | null>(null);
  const [walletError, setWalletError] = useState<UserFacingError | null>(null);
  const [connecting, setConnecting] = useState(false);
  const [history, setHistory] = useState<PaymentEntry[]>([]);
  const [privateMode, setPrivateMode] = useState<PrivateState | null>(null);
  const [tab, setTab] = useState<Tab>("chat");
  const [asks, setAsks] = useState<Partial<Record<Tab, AskRequest>>>({});
  const onResumed = useCallback((kind: ThreadKind) => setTab(kind), []);
  const thread = useResearchThread(payer?.address ?? null, onResumed);

  const refreshBalance = useCallback(
    async (address: `0x${string}`) => {
      try {
        // The wallet code is loaded the first time it is needed, not with the page; each use
        // imports it by name, so the dead-code check sees which of its exports are used.
        const { tokenBalance } = await import("@/lib/web/wallet");
        const units = await tokenBalance(config, address);
        setBalance(`${(Number(units) / 1e6).toFixed(2)} ${config.assetSymbol}`);
      } catch {
        setBalance("unknown");
      }
    },
    [config],
  );

  async function choose(kind: PayerKind) {
    setConnecting(true);
    setWalletError(null);
    try {
      const wallet = await import("@/lib/web/wallet");
      const chosen = kind === "test" ? wallet.testWalletPayer(config) : await wallet.connectWallet(config, kind);
      setPayer(chosen);
      localStorage.setItem(PAYER_KEY, kind);
      setHistory(storedHistory(chosen.address));
      void refreshBalance(chosen.address);
    } catch (err) {
      setWalletError(describeThrown(err));
    } finally {
      setConnecting(false);
    }
  }

  async function leave() {
    if (payer?.kind === "wallet") {
      const { disconnectWallet } = await import("@/lib/web/wallet");
      await disconnectWallet(config).catch(() => undefined);
    }
    localStorage.removeItem(PAYER_KEY);
    setPayer(null);
    setBalance(null);
    setHistory([]);
  }

  // The payer chosen last time is chosen again (the test wallet, or a wallet that already allowed this site).
  const restored = useRef(false);
  useEffect(() => {
    if (restored.current) return;
    restored.current = true;
    const kept = localStorage.getItem(PAYER_KEY);
    const kind: PayerKind | null = kept === "test" && config.testWallet ? "test" : kept === "injected" ? "injected" : null;
    if (!kind) return;
    const timer = setTimeout(() => void choose(kind), 0);
    return () => clearTimeout(timer);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once, on mount
  }, []);

  /** A suggested follow-up: its panel asks it (and pays for it) at once; its price was on the button. */
  const followUp = useCallback((f: FollowUp) => {
    setTab(f.kind);
    setAsks((current) => ({
      ...current,
      [f.kind]: { question: f.question, ...(f.conversationId ? { conversationId: f.conversationId } : {}), ...(f.follows ? { follows: f.follows } : {}), nonce: (current[f.kind]?.nonce ?? 0) + 1 },
    }));
  }, []);

  /**
   * "Follow up on this" on a chat answer: the chat box's next question continues that answer's
   * conversation. Nothing is asked or paid yet; a question typed without it starts a new one.
   */
  const [chatTarget, setChatTarget] = useState<(FollowTarget & { nonce: number }) | null>(null);
  const followOn = useCallback((target: FollowTarget) => {
    setTab("chat");
    setChatTarget((current) => ({ ...target, nonce: (current?.nonce ?? 0) + 1 }));
  }, []);

  // A new thread follows up on nothing of the last one.
  const startNewThread = useCallback(() => {
    setChatTarget(null);
    thread.startNew();
  }, [thread]);

  const context: AppContext = useMemo(
    () => ({
      config,
      privateMode,
      getPayer: async () => {
        if (payer) return payer;
        throw new UserFacingError("Choose who pays first.", { action: config.testWallet ? "Connect a wallet, or use the local test wallet, above." : "Connect a wallet above." });
      },
      recordPayment: (operation: PaidOperation["id"], payment: { transaction: string | null; settled: boolean }) => {
        if (!payer) return;
        const entry: PaymentEntry = {
          operation,
          price: config.prices[operation].price,
          at: new Date().toISOString(),
          transaction: payment.transaction,
          status: payment.settled ? "paid" : "authorized",
        };
        setHistory((current) => {
          const next = [entry, ...current].slice(0, 50);
          localStorage.setItem(historyKey(payer.address), JSON.stringify(next));
          return next;
        });
        void refreshBalance(payer.address);
      },
      markDelivered: (operation: PaidOperation["id"]) => {
        if (!payer) return;
        setHistory((current) => {
          // The newest authorized payment of this operation is the one delivered.
          const index = current.findIndex((h) => h.operation === operation && h.status === "authorized");
          if (index < 0) return current;
          const next = current.map((h, i) => (i === index ? { ...h, status: "paid" as const } : h));
          localStorage.setItem(historyKey(payer.address), JSON.stringify(next));
          return next;
        });
        void refreshBalance(payer.address);
      },
      thread: thread.api,
    }),
    [config, payer, privateMode, refreshBalance, thread.api],
  );

  return (
    <AppContextValue.Provider value={context}>
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
        {walletError ? <ErrorNote error={walletError} /> : null}
      </section>

      <PrivateModeControls value={privateMode} onChange={setPrivateMode} />

      <div className="tabs" role="tablist" aria-label="What to do">
        {TABS.map((t) => (
          <button key={t.id} type="button" role="tab" id={`tab-${t.id}`} aria-selected={tab === t.id} aria-controls={`tabpanel-${t.id}`} onClick={() => setTab(t.id)}>
            {t.label}
          </button>
        ))}
      </div>
      {/* Panels stay mounted: switching tabs does not lose work in progress. */}
      <div role="tabpanel" id="tabpanel-chat" aria-labelledby="tab-chat" hidden={tab !== "chat"}>
        <ChatPanel ask={asks.chat ?? null} target={chatTarget} onTarget={setChatTarget} onFollowOn={followOn} />
      </div>
      <div role="tabpanel" id="tabpanel-literature" aria-labelledby="tab-literature" hidden={tab !== "literature"}>
        <LiteraturePanel ask={asks.literature ?? null} />
      </div>
      <div role="tabpanel" id="tabpanel-research" aria-labelledby="tab-research" hidden={tab !== "research"}>
        <DeepResearchPanel ask={asks.research ?? null} />
      </div>

      <ThreadView config={config} entries={thread.current} onFollowUp={followUp} onFollowOn={followOn} onNew={startNewThread} />
      {payer ? <HistoryView entries={thread.entries} currentThreadId={thread.threadId} onOpen={thread.open} onDelete={(id) => void thread.remove(id)} storeError={thread.storeError} /> : null}

      {payer ? (
        <section aria-labelledby="history-heading" className="panel">
          <h2 id="history-heading">This wallet&apos;s payments (in this browser)</h2>
          {history.length === 0 ? (
            <p className="muted">None yet.</p>
          ) : (
            <table className="payments" data-testid="payment-history">
              <thead>
                <tr>
                  <th scope="col">When</th>
                  <th scope="col">What</th>
                  <th scope="col">Price</th>
                  <th scope="col">Transaction</th>
                </tr>
              </thead>
              <tbody>
                {history.map((h, i) => (
                  <tr key={`${h.at}-${i}`}>
                    <td>{new Date(h.at).toLocaleString()}</td>
                    <td>{config.prices[h.operation]?.summary ?? h.operation}</td>
                    <td className="price">{h.price}</td>
                    <td>
                      <TransactionLink config={config} entry={h} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </section>
      ) : null}
    </AppContextValue.Provider>
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
