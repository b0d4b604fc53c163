"use client";

import { useCallback, useEffect, useMemo, useState } from "react";
import { deleteThread, listEntries, saveEntry, updateEntry } from "@/lib/web/history-store";
import { abandoned, mergeStoredEntries, type ThreadEntry } from "@/lib/web/thread";
import type { ThreadApi } from "./context";

/** The thread this tab shows, kept for the tab so a reload reopens it. */
const THREAD_KEY = "lra:thread";

const newId = () => crypto.randomUUID();

/**
 * The research thread of this tab and the history of the payer's wallet in this browser: paid
 * questions enter the thread as they are accepted, their answers follow; plain ones are kept in
 * IndexedDB (lib/web/history-store.ts), sealed ones only in this page's memory.
 */
export function useResearchThread(wallet: string | null, onResumed: ThreadApi["resumed"]) {
  const [entries, setEntries] = useState<ThreadEntry[]>([]);
  const [threadId, setThreadId] = useState<string | null>(null);
  const [storeError, setStoreError] = useState<string | null>(null);

  useEffect(() => {
    const kept = sessionStorage.getItem(THREAD_KEY);
    const id = kept ?? newId();
    if (!kept) sessionStorage.setItem(THREAD_KEY, id);
    const timer = setTimeout(() => setThreadId(id), 0);
    return () => clearTimeout(timer);
  }, []);

  const reload = useCallback(async (address: string) => {
    try {
      const now = Date.now();
      const stored = (await listEntries(address)).map((entry) => {
        const ended = abandoned(entry, now);
        if (!ended) return entry;
        void updateEntry(entry.id, (e) => abandoned(e, now) ?? e).catch(() => undefined);
        return ended;
      });
      // Sealed entries of this page stay, and so does what the page did while the store was read.
      setEntries((current) => mergeStoredEntries(current, stored, address));
      setStoreError(null);
    } catch {
      setStoreError("This browser does not let the page keep a history (IndexedDB is unavailable, e.g. in a private window): the thread lasts until the page is closed.");
    }
  }, []);

  useEffect(() => {
    if (!wallet) return;
    const timer = setTimeout(() => void reload(wallet), 0);
    return () => clearTimeout(timer);
  }, [wallet, reload]);

  const current = useMemo(() => entries.filter((e) => e.threadId === threadId && (!wallet || e.wallet === wallet.toLowerCase())), [entries, threadId, wallet]);

  const api: ThreadApi = useMemo(
    () => ({
      begin: ({ kind, question, payer, sealed, conversationId, followsUp }) => {
        const entry: ThreadEntry = {
          id: newId(),
          threadId: threadId ?? sessionStorage.getItem(THREAD_KEY) ?? newId(),
          wallet: payer.address.toLowerCase(),
          kind,
          question,
          askedAt: new Date().toISOString(),
          status: "running",
          ...(conversationId ? { conversationId } : {}),
          ...(followsUp ? { followsUp } : {}),
          ...(sealed ? { sealed: true } : {}),
        };
        setEntries((list) => [...list, entry]);
        if (!sealed) void saveEntry(entry).catch(() => undefined);
        return entry.id;
      },
      finish: (id, end) => {
        const apply = (e: ThreadEntry): ThreadEntry => ("outcome" in end ? { ...e, status: "done", outcome: end.outcome } : { ...e, status: "failed", failure: end.failure });
        setEntries((list) => list.map((e) => (e.id === id ? apply(e) : e)));
        void updateEntry(id, apply).catch(() => undefined);
      },
      resumed: onResumed,
      turnOf: (entryId) => {
        const index = current.findIndex((e) => e.id === entryId);
        return index < 0 ? null : index + 1;
      },
    }),
    [threadId, onResumed, current],
  );

  const startNew = useCallback(() => {
    const id = newId();
    sessionStorage.setItem(THREAD_KEY, id);
    setThreadId(id);
  }, []);

  const open = useCallback((id: string) => {
    sessionStorage.setItem(THREAD_KEY, id);
    setThreadId(id);
  }, []);

  /** A past thread of the wallet reopened from the service (use-wallet-history.ts): it becomes this tab's thread, kept in this browser too. */
  const adopt = useCallback((adopted: ThreadEntry[], id: string) => {
    setEntries((list) => [...list.filter((e) => !adopted.some((a) => a.id === e.id)), ...adopted]);
    for (const entry of adopted) void saveEntry(entry).catch(() => undefined);
    sessionStorage.setItem(THREAD_KEY, id);
    setThreadId(id);
  }, []);

  const remove = useCallback(
    async (id: string) => {
      if (!wallet) return;
      await deleteThread(wallet, id).catch(() => undefined);
      setEntries((list) => list.filter((e) => e.threadId !== id));
      if (id === threadId) startNew();
    },
    [wallet, threadId, startNew],
  );

  return { api, entries, current, threadId, startNew, open, adopt, remove, storeError };
}
