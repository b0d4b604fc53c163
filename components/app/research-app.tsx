"use client";

import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import type { WebConfig } from "@/lib/web/types";
import { UserFacingError } from "@/lib/web/user-facing-error";
import { signOutOfHistory } from "@/lib/web/wallet-history";
import { AppContextValue, type AppContext, type PrivateState } from "./context";
import { PaymentHistoryView } from "./payment-history";
import { PrivateModeControls } from "./private-mode";
import { ResearchTabs } from "./research-tabs";
import { SampleAnswer, type Sample } from "./sample-answer";
import { HistoryView, ThreadView } from "./thread-view";
import { usePayer } from "./use-payer";
import { usePaymentHistory } from "./use-payment-history";
import { useResearchTabs } from "./use-research-tabs";
import { useResearchThread } from "./use-research-thread";
import { useWalletHistory } from "./use-wallet-history";
import { WalletSection } from "./wallet-section";

/**
 * The product: choose who pays (a browser wallet, or in local mode the demo's test wallet), ask,
 * search or research through the same /api routes agents use, optionally sealed end to end, and
 * keep a history of this wallet's payments in this browser and, signed in with the wallet, its
 * questions and answers from any browser. Each concern is its own hook and
 * section; this puts them together and hands the panels what they share (context.tsx).
 */
export function ResearchApp({ config, sample = null }: { config: WebConfig; sample?: Sample | null }) {
  const payments = usePaymentHistory(config);
  const wallet = usePayer({
    config,
    onChange: (payer) => {
      payments.show(payer?.address ?? null);
      // A payer left: this browser's sign-in to its history ends with it.
      if (!payer) void signOutOfHistory().catch(() => undefined);
    },
  });
  const { payer, refreshBalance } = wallet;
  const payerNow = useRef(payer);
  useEffect(() => {
    payerNow.current = payer;
  }, [payer]);
  const [privateMode, setPrivateMode] = useState<PrivateState | null>(null);
  const tabs = useResearchTabs();
  const thread = useResearchThread(payer?.address ?? null, tabs.show);
  const walletHistory = useWalletHistory(payer, thread.adopt);
  // A question asked or answered here joins the wallet's history: read it again.
  const answered = thread.entries.map((e) => `${e.id}:${e.status}`).join(",");
  const { status: historyStatus, refresh: refreshHistory } = walletHistory;
  useEffect(() => {
    if (historyStatus !== "signed-in") return;
    const timer = setTimeout(() => void refreshHistory(), 0);
    return () => clearTimeout(timer);
  }, [answered, historyStatus, refreshHistory]);

  // A new thread follows up on nothing of the last one.
  const { setChatTarget } = tabs;
  const startNewThread = useCallback(() => {
    setChatTarget(null);
    thread.startNew();
  }, [setChatTarget, thread]);

  const { record, markDelivered } = payments;
  const context: AppContext = useMemo(
    () => ({
      config,
      privateMode,
      // The payer now, not when a closure was made: a payment confirmed after choosing one uses it.
      getPayer: async () => {
        if (payerNow.current) return payerNow.current;
        throw new UserFacingError("Choose who pays first.", { action: config.testWallet ? "Connect a wallet, or use the local test wallet, under “Who pays” below." : "Connect a wallet under “Who pays” below." });
      },
      recordPayment: (operation, payment) => {
        if (!payer) return;
        record(payer.address, operation, payment);
        void refreshBalance(payer.address);
      },
      markDelivered: (operation) => {
        if (!payer) return;
        markDelivered(payer.address, operation);
        void refreshBalance(payer.address);
      },
      thread: thread.api,
    }),
    [config, payer, privateMode, record, markDelivered, refreshBalance, thread.api],
  );

  // The question first (with example questions), then who pays and private mode, then the thread,
  // and a free sample answer until this thread has one of its own.
  return (
    <AppContextValue.Provider value={context}>
      <ResearchTabs tabs={tabs} />
      <WalletSection config={config} wallet={wallet} />
      <PrivateModeControls value={privateMode} onChange={setPrivateMode} />
      <ThreadView config={config} entries={thread.current} onFollowUp={tabs.followUp} onFollowOn={tabs.followOn} onNew={startNewThread} />
      {sample ? <SampleAnswer sample={sample} open={thread.current.length === 0} /> : null}
      {payer ? (
        <HistoryView entries={thread.entries} currentThreadId={thread.threadId} onOpen={thread.open} onDelete={(id) => void thread.remove(id)} storeError={thread.storeError} wallet={walletHistory} />
      ) : null}
      {payer ? <PaymentHistoryView config={config} entries={payments.entries} /> : null}
    </AppContextValue.Provider>
  );
}
