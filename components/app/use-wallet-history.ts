"use client";

import { useCallback, useEffect, useState } from "react";
import type { HistoryItem } from "@/lib/shared/contracts/history";
import { describeThrown } from "@/lib/web/describe-thrown";
import type { ThreadEntry } from "@/lib/web/thread";
import type { Payer } from "@/lib/web/types";
import type { UserFacingError } from "@/lib/web/user-facing-error";
import { forgetHistoryItem, readWalletHistory, reopenThread, signOutOfHistory, type WalletThread } from "@/lib/web/wallet-history";

export type WalletHistoryState = {
  /** `unknown` until the service was asked; `signed-in` when this browser's session reads the payer's own history. */
  status: "unknown" | "signed-out" | "signed-in";
  items: HistoryItem[];
  /** More items to load. */
  more: boolean;
  busy: boolean;
  error: UserFacingError | null;
  signIn: () => Promise<void>;
  signOut: () => Promise<void>;
  refresh: () => Promise<void>;
  loadMore: () => Promise<void>;
  open: (thread: WalletThread) => Promise<void>;
  forget: (thread: WalletThread) => Promise<void>;
};

/**
 * The payer's history as the service keeps it, once this browser signed in with the payer's
 * wallet (x402 sign-in-with-x): asked on each payer chosen, signed in on request, refreshed when
 * the thread's answers change; `onOpen` hears a past thread reopened as thread entries. A session
 * of another wallet (the cookie this browser kept) is never shown as this payer's.
 */
export function useWalletHistory(payer: Payer | null, onOpen: (entries: ThreadEntry[], threadId: string) => void): WalletHistoryState {
  // What the service said, and for which payer: nothing of it is shown to another.
  const [known, setKnown] = useState<{ owner: string; signedIn: boolean; items: HistoryItem[]; cursor: string | null } | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<UserFacingError | null>(null);
  const address = payer?.address.toLowerCase() ?? null;
  const mine = known && known.owner === address ? known : null;

  const refresh = useCallback(async () => {
    if (!address) return;
    try {
      const page = await readWalletHistory();
      // A session this browser kept for another wallet is not this payer's.
      const signedIn = page !== null && page.address === address;
      setKnown({ owner: address, signedIn, items: signedIn ? page.items : [], cursor: signedIn ? page.nextCursor : null });
    } catch (err) {
      setError(describeThrown(err));
    }
  }, [address]);

  useEffect(() => {
    if (!address) return;
    const timer = setTimeout(() => void refresh(), 0);
    return () => clearTimeout(timer);
  }, [address, refresh]);

  /** Runs `work` as the one thing the history is doing, its failure said in words. */
  const run = useCallback(async (work: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    try {
      await work();
    } catch (err) {
      setError(describeThrown(err));
    } finally {
      setBusy(false);
    }
  }, []);

  const cursor = mine?.cursor ?? null;
  return {
    status: mine ? (mine.signedIn ? "signed-in" : "signed-out") : "unknown",
    items: mine?.items ?? [],
    more: cursor !== null,
    busy,
    error,
    refresh,
    signIn: () =>
      run(async () => {
        if (!payer) return;
        // The wallet code, with the official client's sign-in hook, loads when first needed.
        const { signInToHistory } = await import("@/lib/web/wallet");
        await signInToHistory(payer);
        await refresh();
      }),
    signOut: () =>
      run(async () => {
        await signOutOfHistory();
        if (address) setKnown({ owner: address, signedIn: false, items: [], cursor: null });
      }),
    loadMore: () =>
      run(async () => {
        if (!mine) return;
        const page = await readWalletHistory(cursor);
        if (!page || page.address !== mine.owner) return void (await refresh());
        setKnown({ ...mine, items: [...mine.items, ...page.items.filter((i) => !mine.items.some((l) => l.id === i.id))], cursor: page.nextCursor });
      }),
    open: (thread) =>
      run(async () => {
        if (!address) return;
        onOpen(await reopenThread(thread, address), thread.threadId);
      }),
    forget: (thread) =>
      run(async () => {
        for (const item of thread.items) await forgetHistoryItem(item.id);
        await refresh();
      }),
  };
}
