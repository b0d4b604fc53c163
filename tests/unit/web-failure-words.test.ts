/**
 * The page's failures in words recognise the errors of other modules by their class (a typed
 * hand-off), never by a name string any error could carry: the wallet's WrongNetworkError and the
 * sealing client's PrivateModeError.
 */
import { describe, expect, it } from "vitest";
import { PrivateModeError } from "@/lib/sealing/private-mode-error";
import { describeThrown } from "@/lib/web/describe-thrown";
import { privateFailureAction } from "@/lib/web/private-failures";
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

  it("an error merely named WrongNetworkError is not taken for the wallet's", () => {
    const described = describeThrown(namedLike("WrongNetworkError", "Something else broke"));
    expect(described.message).not.toBe("Something else broke, so nothing was paid.");
    expect(described.action).not.toBe("Switch the wallet to that network (accept its request to switch), then try again.");
  });
});

describe("privateFailureAction", () => {
  it("a PrivateModeError whose code says more than 'try again' gets its way forward", () => {
    expect(privateFailureAction(new PrivateModeError("answer_not_genuine", "The answer could not be opened"))).toMatch(/^Nothing from it is shown\./);
    expect(privateFailureAction(new PrivateModeError("not_attested", "no attestation"))).toMatch(/only seals to an attested enclave/);
    expect(privateFailureAction(new PrivateModeError("gave_up", "No answer after 60 s"))).toBeNull();
  });

  it("an error merely named PrivateModeError, with a code, is not taken for the sealing client's", () => {
    expect(privateFailureAction(namedLike("PrivateModeError", "forged", { code: "answer_not_genuine" }))).toBeNull();
  });
});
