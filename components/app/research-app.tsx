"use client";

import { useCallback, useMemo, useState } from "react";
import type { WebConfig } from "@/lib/web/types";
import { UserFacingError } from "@/lib/web/user-facing-error";
import { AppContextValue, type AppContext, type PrivateState } from "./context";
import { PaymentHistoryView } from "./payment-history";
import { PrivateModeControls } from "./private-mode";
import { ResearchTabs } from "./research-tabs";
import { HistoryView, ThreadView } from "./thread-view";
import { usePayer } from "./use-payer";
import { usePaymentHistory } from "./use-payment-history";
import { useResearchTabs } from "./use-research-tabs";
import { useResearchThread } from "./use-research-thread";
import { WalletSection } from "./wallet-section";

/**
 * The product: choose who pays (a browser wallet, or in local mode the demo's test wallet), ask,
 * search or research through the same /api routes agents use, optionally sealed end to end, and
 * keep a history of this wallet's payments in this browser. Each concern is its own hook and
 * section; this puts them together and hands the panels what they share (context.tsx).
 */
export function ResearchApp({ config }: { config: WebConfig }) {
  const payments = usePaymentHistory(config);
  const wallet = usePayer({ config, onChange: (payer) => payments.show(payer?.address ?? null) });
  const { payer, refreshBalance } = wallet;
  const [privateMode, setPrivateMode] = useState<PrivateState | null>(null);
  const tabs = useResearchTabs();
  const thread = useResearchThread(payer?.address ?? null, tabs.show);

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
      getPayer: async () => {
        if (payer) return payer;
        throw new UserFacingError("Choose who pays first.", { action: config.testWallet ? "Connect a wallet, or use the local test wallet, above." : "Connect a wallet above." });
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

  return (
    <AppContextValue.Provider value={context}>
      <WalletSection config={config} wallet={wallet} />
      <PrivateModeControls value={privateMode} onChange={setPrivateMode} />
      <ResearchTabs tabs={tabs} />
      <ThreadView config={config} entries={thread.current} onFollowUp={tabs.followUp} onFollowOn={tabs.followOn} onNew={startNewThread} />
      {payer ? <HistoryView entries={thread.entries} currentThreadId={thread.threadId} onOpen={thread.open} onDelete={(id) => void thread.remove(id)} storeError={thread.storeError} /> : null}
      {payer ? <PaymentHistoryView config={config} entries={payments.entries} /> : null}
    </AppContextValue.Provider>
  );
}
