"use client";

import type { FollowTarget } from "@/lib/web/thread";
import styles from "./thread.module.css";

/**
 * "Follow up on this": the one way a chat question continues an earlier answer's conversation. It
 * asks and pays for nothing; it names the answer it follows (for screen readers too) and hands it
 * to the chat box, whose next question is sent in that conversation.
 */
export function FollowOnButton({ target, onFollowOn }: { target: FollowTarget | null; onFollowOn: (target: FollowTarget) => void }) {
  if (!target) return null;
  return (
    <button type="button" className={styles.followOn} onClick={() => onFollowOn(target)} aria-label={`Follow up on “${target.follows.question}”`} data-testid="follow-on">
      Follow up on this
    </button>
  );
}
