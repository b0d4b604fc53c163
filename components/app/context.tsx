"use client";

import { createContext, useContext } from "react";
import type { PaidOperation } from "@/lib/shared/operations";
import type { EnclaveKeyInfo } from "@/lib/client/sealing/client";
import type { FollowTarget, ThreadKind, ThreadResult } from "@/lib/web/thread";
import type { Payer, ReceiptCheck, WebConfig } from "@/lib/web/types";

/** Private mode as the panels see it: the checked enclave key, and the recovery key if one is kept. */
export type PrivateState = { enclave: EnclaveKeyInfo; recoveryKey: string | null };

/** What every panel of the app gets: configuration, who pays, private mode, payment history. */
export type AppContext = {
  config: WebConfig;
  /** The payer to charge, connecting or choosing one if needed; throws a UserFacingError when there is none. */
  getPayer: () => Promise<Payer>;
  /** Non-null while private mode is on (and its enclave key is checked). */
  privateMode: PrivateState | null;
  /** Records a payment in this browser's history of the payer's payments. */
  recordPayment: (operation: PaidOperation["id"], payment: { transaction: string | null; settled: boolean; receipt?: ReceiptCheck | null }) => void;
  /** A deferred payment (deep research) was settled on delivery: mark it paid and refresh the balance. */
  markDelivered: (operation: PaidOperation["id"]) => void;
  /** The research thread: a paid question enters it once accepted; its outcome follows. */
  thread: ThreadApi;
};

/** What a panel tells the thread. Sealed questions stay in this page's memory only. */
export type ThreadApi = {
  /** A paid question was accepted; returns the thread entry's id. */
  begin: (entry: { kind: ThreadKind; question: string; payer: Payer; sealed: boolean; conversationId?: string; followsUp?: FollowTarget["follows"] }) => string;
  /** The entry's answer arrived, or it ended without one. */
  finish: (id: string, end: { outcome: ThreadResult } | { failure: string }) => void;
  /** A job remembered before a reload is being followed again: show its panel and say so. */
  resumed: (kind: ThreadKind, question: string) => void;
  /** Which turn of the thread on screen an entry is (1 for its first question); null when it is not in it. */
  turnOf: (entryId: string) => number | null;
};

/**
 * A question to ask from outside the panel (a suggested follow-up): `nonce` makes each click new;
 * `conversationId` continues that conversation, `follows` says which answer a chat follow-up follows.
 */
export type AskRequest = { question: string; conversationId?: string; follows?: FollowTarget["follows"]; nonce: number };

export const AppContextValue = createContext<AppContext | null>(null);

export function useApp(): AppContext {
  const value = useContext(AppContextValue);
  if (!value) throw new Error("useApp outside the research app");
  return value;
}

/** The price line shown before any paid action: what it costs and what it buys. */
export function PriceNote({ operation, buys }: { operation: PaidOperation["id"]; buys: string }) {
  const { config, privateMode } = useApp();
  const op = privateMode ? (`${operation}Encrypted` as PaidOperation["id"]) : operation;
  const price = config.prices[op] ?? config.prices[operation];
  return (
    <p className="price-note" data-testid="price-note">
      <strong>{price.price}</strong> in {config.assetSymbol} on {config.chainName}: {buys}
      {privateMode ? " — sealed end to end; only this browser can read the answer." : "."}
    </p>
  );
}
