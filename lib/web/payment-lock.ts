/**
 * One payment at a time for the whole page. A panel's `busy` flag is React state: clicks
 * dispatched within one event-loop task (a fast double click, a script) all run before it is
 * rendered, so each would sign and send its own paid request. This lock is plain module state,
 * claimed synchronously before the first `await` of a paid action and released once its paid
 * request has been answered, so those clicks (and clicks in another panel) find it taken.
 */
import { UserFacingError } from "@/lib/web/user-facing-error";

/** The panels that pay. */
export type PayingPanel = "chat" | "literature" | "research";

export type PaymentClaim = { ok: true; release: () => void } | { ok: false; heldBy: PayingPanel };

let holder: PayingPanel | null = null;

/**
 * Claims the page's payment for `panel`, or says which panel holds it. Call it synchronously in
 * the click handler, before anything is awaited; `release` may be called more than once.
 */
export function claimPayment(panel: PayingPanel): PaymentClaim {
  if (holder) return { ok: false, heldBy: holder };
  holder = panel;
  let released = false;
  return {
    ok: true,
    release: () => {
      if (released) return;
      released = true;
      holder = null;
    },
  };
}

/** What a panel says when another panel's payment holds the lock. */
export function anotherPaymentUnderWay(): UserFacingError {
  return new UserFacingError("Another payment from this page is under way.", {
    action: "Wait until it has been answered, then press the button again. Nothing was paid for this one.",
  });
}
