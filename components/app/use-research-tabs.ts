"use client";

import { useCallback, useState } from "react";
import type { FollowTarget, FollowUp, ThreadKind } from "@/lib/web/thread";
import type { AskRequest } from "./context";

/** A panel's tab: one per kind of paid question. */
export type Tab = ThreadKind;
type ChatTarget = (FollowTarget & { nonce: number }) | null;

export type TabsState = {
  tab: Tab;
  show: (tab: Tab) => void;
  /** The question each panel is asked to ask (and pay for) now, from a suggested follow-up. */
  asks: Partial<Record<Tab, AskRequest>>;
  /** The chat answer the chat box's next question follows up on, if the person chose one. */
  chatTarget: ChatTarget;
  setChatTarget: (target: null) => void;
  followUp: (followUp: FollowUp) => void;
  followOn: (target: FollowTarget) => void;
};

/** Which panel is shown, and what a click elsewhere (a follow-up, "Follow up on this") hands to a panel. */
export function useResearchTabs(): TabsState {
  const [tab, setTab] = useState<Tab>("chat");
  const [asks, setAsks] = useState<Partial<Record<Tab, AskRequest>>>({});
  const [chatTarget, setChatTarget] = useState<ChatTarget>(null);

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
  const followOn = useCallback((target: FollowTarget) => {
    setTab("chat");
    setChatTarget((current) => ({ ...target, nonce: (current?.nonce ?? 0) + 1 }));
  }, []);

  return { tab, show: setTab, asks, chatTarget, setChatTarget, followUp, followOn };
}
