"use client";

/** Placeholder while the panel is being built (issue 7). */
export function LiteraturePanel() {
  return <p className="muted">Not built yet.</p>;
}
