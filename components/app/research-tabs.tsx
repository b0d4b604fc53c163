"use client";

import { ChatPanel } from "./chat-panel";
import { DeepResearchPanel } from "./deep-research-panel";
import { LiteraturePanel } from "./literature-panel";
import type { Tab, TabsState } from "./use-research-tabs";

const TABS: { id: Tab; label: string }[] = [
  { id: "chat", label: "Chat" },
  { id: "literature", label: "Literature search" },
  { id: "research", label: "Deep research" },
];

/** The three panels behind their tabs. */
export function ResearchTabs({ tabs }: { tabs: TabsState }) {
  const { tab, show, asks, chatTarget, setChatTarget, followOn } = tabs;
  return (
    <>
      <div className="tabs" role="tablist" aria-label="What to do">
        {TABS.map((t) => (
          <button key={t.id} type="button" role="tab" id={`tab-${t.id}`} aria-selected={tab === t.id} aria-controls={`tabpanel-${t.id}`} onClick={() => show(t.id)}>
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
    </>
  );
}
