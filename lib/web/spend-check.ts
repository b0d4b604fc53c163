/**
 * No surprise charges: an action that costs more than a chat asks first, naming its price and what
 * it buys, unless the person said not to for this visit (this tab's session: a new tab asks again).
 */
import type { PaidOperation } from "@/lib/shared/operations";
import type { WebConfig } from "@/lib/web/types";

const UNASKED_KEY = "lra:spend-unasked";

/** Whether paying for `operation` asks first: it costs more than a chat, and the person has not said otherwise this visit. */
export function asksFirst(config: Pick<WebConfig, "prices">, operation: PaidOperation["id"]): boolean {
  const price = config.prices[operation];
  const chat = config.prices.chat;
  if (!price || !chat || BigInt(price.amount) <= BigInt(chat.amount)) return false;
  return !unaskedThisVisit();
}

/** "Don't ask again this visit": later actions pay on their click until this tab is closed. */
export function stopAskingThisVisit(): void {
  try {
    sessionStorage.setItem(UNASKED_KEY, "1");
  } catch {
    // Storage refused (a locked-down browser): it asks each time, which is the safe side.
  }
}

function unaskedThisVisit(): boolean {
  try {
    return sessionStorage.getItem(UNASKED_KEY) === "1";
  } catch {
    return false;
  }
}
