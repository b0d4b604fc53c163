import { isRecord } from "@/lib/shared/narrow";
import { PrivateModeError } from "@/lib/client/sealing/private-mode-error";
import { describePrivateFailure } from "@/lib/web/private-failures";
import { UserFacingError } from "@/lib/web/user-facing-error";
import { WrongNetworkError } from "@/lib/web/wrong-network-error";

/** A thrown error (the wallet's, the network's, private mode's) in words. */
export function describeThrown(err: unknown): UserFacingError {
  if (err instanceof UserFacingError) return err;
  if (err instanceof PrivateModeError) return describePrivateFailure(err);
  const fields = isRecord(err) ? err : {};
  const words = (key: "name" | "message" | "shortMessage"): string | undefined => (typeof fields[key] === "string" ? fields[key] : undefined);
  const text = `${words("name") ?? ""} ${words("shortMessage") ?? ""} ${words("message") ?? ""}`;
  if (err instanceof WrongNetworkError) {
    return new UserFacingError(`${err.message}, so nothing was paid.`, { action: "Switch the wallet to that network (accept its request to switch), then try again." });
  }
  // The page's own check of the service's signed offer (lib/web/wallet.ts) stopped the payment.
  const refused = /Refused before signing: (.*)$/s.exec(words("message") ?? "");
  if (refused) {
    return new UserFacingError(`Nothing was paid: the page refused to sign, because ${refused[1]!.trim()}`, {
      action: "Something between this page and the service changed what it asks for. Reload the page over a connection you trust, then try again.",
    });
  }
  if (fields.code === 4001 || /UserRejected|user rejected|denied|rejected the request/i.test(text)) {
    return new UserFacingError("You declined the signature, so nothing was paid.", { action: "Press the button again when you are ready to sign." });
  }
  if (/chain|network/i.test(text) && /switch|mismatch|unsupported|wrong|must match/i.test(text)) {
    return new UserFacingError("The wallet is on another network.", { action: "Switch it to the payment network (the wallet may ask), then try again." });
  }
  if (/Failed to fetch|NetworkError|fetch failed/i.test(text)) {
    return new UserFacingError("The service cannot be reached from this browser.", { action: "Check your connection, then try again." });
  }
  return new UserFacingError(words("shortMessage") ?? words("message") ?? "Something went wrong.", { action: "Try again." });
}
