"use client";

import { useCallback, useState } from "react";
import type { PaidOperation } from "@/lib/shared/operations";
import type { PaymentEntry, ReceiptCheck, WebConfig } from "@/lib/web/types";

const historyKey = (address: string) => `lra:payments:${address.toLowerCase()}`;
/** The newest payments kept per wallet. */
const KEPT = 50;

function storedHistory(address: string): PaymentEntry[] {
  try {
    return JSON.parse(localStorage.getItem(historyKey(address)) ?? "[]") as PaymentEntry[];
  } catch {
    return [];
  }
}

export type PaymentHistory = {
  entries: PaymentEntry[];
  /** Shows the payments of `address` kept in this browser; none for null (no payer). */
  show: (address: string | null) => void;
  /** A payment made by `address`: settled, or authorized and settled on delivery (deep research). */
  record: (address: string, operation: PaidOperation["id"], payment: { transaction: string | null; settled: boolean; receipt?: ReceiptCheck | null }) => void;
  /** The newest authorized payment of `operation` was delivered, so settled. */
  markDelivered: (address: string, operation: PaidOperation["id"]) => void;
};

/** The payments of a wallet, as this browser remembers them (localStorage, per address). */
export function usePaymentHistory(config: WebConfig): PaymentHistory {
  const [entries, setEntries] = useState<PaymentEntry[]>([]);

  /** Changes the entries shown and keeps them for `address`. */
  const update = useCallback((address: string, change: (current: PaymentEntry[]) => PaymentEntry[]) => {
    setEntries((current) => {
      const next = change(current);
      if (next !== current) localStorage.setItem(historyKey(address), JSON.stringify(next));
      return next;
    });
  }, []);

  const show = useCallback((address: string | null) => setEntries(address ? storedHistory(address) : []), []);

  const record = useCallback(
    (address: string, operation: PaidOperation["id"], payment: { transaction: string | null; settled: boolean; receipt?: ReceiptCheck | null }) => {
      const entry: PaymentEntry = {
        operation,
        price: config.prices[operation].price,
        at: new Date().toISOString(),
        transaction: payment.transaction,
        status: payment.settled ? "paid" : "authorized",
        receipt: payment.receipt ?? null,
      };
      update(address, (current) => [entry, ...current].slice(0, KEPT));
    },
    [config, update],
  );

  const markDelivered = useCallback(
    (address: string, operation: PaidOperation["id"]) =>
      update(address, (current) => {
        const index = current.findIndex((h) => h.operation === operation && h.status === "authorized");
        if (index < 0) return current;
        return current.map((h, i) => (i === index ? { ...h, status: "paid" as const } : h));
      }),
    [update],
  );

  return { entries, show, record, markDelivered };
}
