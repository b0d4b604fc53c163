"use client";

/** Placeholder while the panel is being built (issue 7). */
export function DeepResearchPanel() {
  return <p className="muted">Not built yet.</p>;
}
