/**
 * The page's failures in words recognise the errors of other modules by their class (a typed
 * hand-off), never by a name string any error could carry: the wallet's WrongNetworkError and the
 * sealing client's PrivateModeError.
 */
import { describe, expect, it } from "vitest";
import { PrivateModeError } from "@/lib/client/sealing/private-mode-error";
import { describeThrown } from "@/lib/web/describe-thrown";
import { endsSealedJob } from "@/lib/web/private-failures";
import { WrongNetworkError } from "@/lib/web/wrong-network-error";

/** An error of another origin that happens to carry the same name (and fields). */
function namedLike<T extends object>(name: string, message: string, fields: T = {} as T): Error & T {
  return Object.assign(new Error(message), { name }, fields);
}

describe("describeThrown", () => {
  it("the wallet's WrongNetworkError says which network, that nothing was paid, and to switch", () => {
    const described = describeThrown(new WrongNetworkError("Local chain (Hardhat)", new Error("user rejected the switch")));
    expect(described.message).toBe("The wallet is not on Local chain (Hardhat), so nothing was paid.");
    expect(described.action).toBe("Switch the wallet to that network (accept its request to switch), then try again.");
  });

  it("the page's refusal of terms no signed offer states says nothing was paid, and why, without the SDK's prefixes", () => {
    const described = describeThrown(
      new Error("Failed to create payment payload: Payment creation aborted: Refused before signing: the service's payment request asks terms that no offer signed by the service states (altered in flight?)."),
    );
    expect(described.message).toBe(
      "Nothing was paid: the page refused to sign, because the service's payment request asks terms that no offer signed by the service states (altered in flight?).",
    );
    expect(described.action).toMatch(/Reload the page/);
  });

  it("an error merely named WrongNetworkError is not taken for the wallet's", () => {
    const described = describeThrown(namedLike("WrongNetworkError", "Something else broke"));
    expect(described.message).not.toBe("Something else broke, so nothing was paid.");
    expect(described.action).not.toBe("Switch the wallet to that network (accept its request to switch), then try again.");
  });
});

describe("a PrivateModeError in words", () => {
  it("keeps the client's message, with the way forward its code calls for", () => {
    const forged = describeThrown(new PrivateModeError("answer_not_genuine", "The answer could not be opened"));
    expect(forged.message).toBe("The answer could not be opened");
    expect(forged.action).toMatch(/^Nothing from it is shown\./);
    expect(describeThrown(new PrivateModeError("not_attested", "no attestation")).action).toMatch(/only seals to an attested enclave/);
    expect(describeThrown(new PrivateModeError("gave_up", "No answer after 60 s")).action).toBe("Retry to keep waiting: it was paid, and the sealed answer is kept for an hour.");
    expect(describeThrown(new PrivateModeError("payment_expired", "failed")).message).toBe("The payment authorization expired before the research finished, so nothing was charged.");
  });

  it("a refused start is described like any refused request", () => {
    const refused = describeThrown(new PrivateModeError("request_refused", "/api/chat/encrypted answered 503: private_chat_unavailable", 503, { error: "private_chat_unavailable" }));
    expect(refused.message).toBe("Private mode is not available right now: the enclave is not ready.");
    expect(refused.status).toBe(503);
  });

  it("an error merely named PrivateModeError, with a code, is not taken for the sealing client's", () => {
    const described = describeThrown(namedLike("PrivateModeError", "forged", { code: "answer_not_genuine" }));
    expect(described.action).not.toMatch(/Nothing from it is shown/);
  });
});

describe("endsSealedJob", () => {
  const plain = { answeredWhenAccepted: false };
  it.each([
    ["the answer did not open (polling again brings the same forgery)", new PrivateModeError("answer_not_genuine", "x"), true],
    ["the run failed (the status route said so)", new PrivateModeError("request_failed", "x"), true],
    ["the service no longer knows it (404)", new PrivateModeError("request_failed", "x", 404), true],
    ["its payment expired", new PrivateModeError("payment_expired", "x"), true],
    ["a status route answering 502", new PrivateModeError("request_failed", "x", 502), false],
    ["the follow gave up waiting", new PrivateModeError("gave_up", "x"), false],
    ["the network failed", new TypeError("Failed to fetch"), false],
  ])("%s: %s", (_name, err, ends) => {
    expect(endsSealedJob(err, plain)).toBe(ends);
  });

  it("an answer that came with the start ends the job whatever went wrong, except giving up", () => {
    expect(endsSealedJob(new TypeError("bad answer"), { answeredWhenAccepted: true })).toBe(true);
    expect(endsSealedJob(new PrivateModeError("gave_up", "x"), { answeredWhenAccepted: true })).toBe(false);
  });
});
