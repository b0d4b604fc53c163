"use client";

import { useEffect, useId, useRef, useState } from "react";
import type { PaidOperation } from "@/lib/shared/operations";
import { asksFirst, stopAskingThisVisit } from "@/lib/web/spend-check";
import { useApp } from "./context";
import styles from "./spend-confirm.module.css";

/** What an action would pay for: its operation (sealed or not), its question, what it buys, what it does. */
export type SpendRequest = {
  operation: PaidOperation["id"];
  question: string;
  /** "a multi-round research run with a cited reply …" */
  buys: string;
  /** What the click does, opening the sentence: "Starting this research", "Running this search". */
  action: string;
  /** Pays: runs within the click that confirmed (the page's payment lock is claimed there). */
  proceed: () => void;
};

/**
 * No surprise charges (lib/web/spend-check.ts): `request` pays at once when the action costs no
 * more than a chat, or when the person said not to ask again this visit; otherwise `dialog` asks
 * first, naming the price and what it buys, in the panel that will pay.
 */
export function useSpendCheck(): { request: (spend: SpendRequest) => void; dialog: React.ReactNode } {
  const { config, privateMode } = useApp();
  const [pending, setPending] = useState<SpendRequest | null>(null);
  const request = (spend: SpendRequest) => {
    if (!asksFirst(config, spend.operation)) {
      setPending(null);
      spend.proceed();
      return;
    }
    setPending(spend);
  };
  const price = pending ? (config.prices[privateMode ? (`${pending.operation}Encrypted` as PaidOperation["id"]) : pending.operation] ?? config.prices[pending.operation]).price : "";
  const dialog = pending ? (
    <SpendConfirm
      key={`${pending.operation}:${pending.question}`}
      spend={pending}
      price={price}
      currency={`${config.assetSymbol} on ${config.chainName}`}
      onPay={(dontAskAgain) => {
        if (dontAskAgain) stopAskingThisVisit();
        setPending(null);
        pending.proceed();
      }}
      onCancel={() => setPending(null)}
    />
  ) : null;
  return { request, dialog };
}

function SpendConfirm({ spend, price, currency, onPay, onCancel }: { spend: SpendRequest; price: string; currency: string; onPay: (dontAskAgain: boolean) => void; onCancel: () => void }) {
  const [dontAskAgain, setDontAskAgain] = useState(false);
  const pay = useRef<HTMLButtonElement>(null);
  const textId = useId();
  // Brought to the person (a follow-up clicked lower on the page opens it here): focus moves to it.
  useEffect(() => {
    pay.current?.focus();
  }, []);
  return (
    <div className={styles.confirm} role="alertdialog" aria-labelledby={textId} data-testid="spend-confirm">
      <p id={textId}>
        {spend.action} costs <strong>{price}</strong> in {currency}, more than a chat: {spend.buys}.
      </p>
      <p className={styles.question}>“{spend.question}”</p>
      <label className={styles.dontAsk}>
        <input type="checkbox" checked={dontAskAgain} onChange={(e) => setDontAskAgain(e.target.checked)} /> Don&apos;t ask again this visit
      </label>
      <div className={styles.buttons}>
        <button type="button" ref={pay} onClick={() => onPay(dontAskAgain)}>
          Pay {price}
        </button>
        <button type="button" className="secondary" onClick={onCancel}>
          Not now
        </button>
      </div>
    </div>
  );
}
