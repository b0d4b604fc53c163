import { describe, expect, it } from "vitest";
import { EnclaveTrustError, parseEnclaveTrust } from "@/lib/shared/sealing/trust";
import { AskUsageError, parseAskOptions } from "@/scripts/lib/ask-options";

const REPO = "longevity-research/enclave";
const MEASUREMENT = "a1".repeat(48);

describe("npm run ask: the enclave the CLI trusts", () => {
  it("--enclave-repo and --enclave-measurement take effect", () => {
    const options = parseAskOptions(["chat", "--private", "--enclave-repo", REPO, "--enclave-measurement", MEASUREMENT.toUpperCase(), "Does rapamycin extend lifespan?"], {});
    expect(options).toMatchObject({ kind: "chat", isPrivate: true, question: "Does rapamycin extend lifespan?", trust: { repo: REPO, measurement: MEASUREMENT } });
    expect(parseAskOptions(["chat", "--private", `--enclave-repo=${REPO}`, "q"], {}).trust).toEqual({ repo: REPO });
  });

  it("TRUSTED_ENCLAVE_REPO and TRUSTED_ENCLAVE_MEASUREMENT take effect", () => {
    const options = parseAskOptions(["literature", "--private", "rapamycin mice"], { TRUSTED_ENCLAVE_REPO: REPO, TRUSTED_ENCLAVE_MEASUREMENT: MEASUREMENT });
    expect(options.trust).toEqual({ repo: REPO, measurement: MEASUREMENT });
  });

  it("the flags win over the variables, as a pair", () => {
    const env = { TRUSTED_ENCLAVE_REPO: "someone/else", TRUSTED_ENCLAVE_MEASUREMENT: "b2".repeat(48) };
    // A measurement from the environment belongs to the environment's repository, not to one named on the command line.
    expect(parseAskOptions(["chat", "--private", "--enclave-repo", REPO, "q"], env).trust).toEqual({ repo: REPO });
    expect(parseAskOptions(["chat", "--private", "--enclave-repo", REPO, "--enclave-measurement", MEASUREMENT, "q"], env).trust).toEqual({ repo: REPO, measurement: MEASUREMENT });
  });

  it("trusts no repository when neither is given; the agent's ENCLAVE_ATTESTATION_CONFIG_REPO is not the client's", () => {
    const options = parseAskOptions(["chat", "--private", "q"], { ENCLAVE_ATTESTATION_CONFIG_REPO: REPO, TRUSTED_ENCLAVE_REPO: " " });
    expect(options.trust).toBeNull();
    expect(options.requireAttestation).toBe(false);
    expect(parseAskOptions(["chat", "--private", "--require-attestation", "q"], {}).requireAttestation).toBe(true);
    expect(parseAskOptions(["chat", "--private", "q"], { ENCLAVE_REQUIRE_ATTESTATION: "1" }).requireAttestation).toBe(true);
  });

  it("refuses settings it cannot use, naming them", () => {
    const usage = (args: string[], env: Record<string, string> = {}) => {
      try {
        parseAskOptions(args, env);
      } catch (err) {
        expect(err).toBeInstanceOf(AskUsageError);
        return (err as Error).message;
      }
      throw new Error("accepted");
    };
    expect(usage(["chat", "--private", "--enclave-repo", "not a repo", "q"])).toMatch(/--enclave-repo must be a GitHub repository/);
    expect(usage(["chat", "--private", "--enclave-measurement", MEASUREMENT, "q"])).toMatch(/set --enclave-repo too/);
    expect(usage(["chat", "--private", "q"], { TRUSTED_ENCLAVE_REPO: REPO, TRUSTED_ENCLAVE_MEASUREMENT: "xyz" })).toMatch(/TRUSTED_ENCLAVE_MEASUREMENT must be 64 or 96 hexadecimal digits/);
    expect(usage(["chat", "--private", "--enclave-repo"])).toMatch(/--enclave-repo needs a value/);
    expect(usage(["chat", "--enclave-repo", REPO, "q"])).toMatch(/add --private/);
    expect(usage(["chat", "--private", "--enclave-rep", REPO, "q"])).toMatch(/Unknown option --enclave-rep/);
  });

  it("reads the rest of the command line as before", () => {
    expect(parseAskOptions(["deep-research", "--conversation", "c-1", "--json", "rapamycin", "and", "lifespan"], {})).toEqual({
      kind: "deep-research",
      question: "rapamycin and lifespan",
      json: true,
      isPrivate: false,
      conversationId: "c-1",
      recoveryKey: undefined,
      trust: null,
      requireAttestation: false,
    });
    expect(parseAskOptions(["chat", "--private", "--recovery-key", "new", "q"], {}).recoveryKey).toBe("new");
    expect(() => parseAskOptions(["summarize", "q"], {})).toThrow(AskUsageError);
    expect(() => parseAskOptions(["chat"], {})).toThrow(AskUsageError);
  });

  it("continues a chat or deep-research conversation, and refuses --conversation where there is none to continue", () => {
    expect(parseAskOptions(["chat", "--conversation", "c-2", "and in humans?"], {}).conversationId).toBe("c-2");
    expect(() => parseAskOptions(["literature", "--conversation", "c-2", "q"], {})).toThrow(/a literature search has none/);
    expect(() => parseAskOptions(["chat", "--private", "--conversation", "c-2", "q"], {})).toThrow(/--recovery-key/);
  });
});

describe("parseEnclaveTrust", () => {
  const names = { repo: "R", measurement: "M" };
  it("normalizes what people paste: a github.com URL, 0x, upper case", () => {
    expect(parseEnclaveTrust({ repo: `https://github.com/${REPO}.git`, measurement: `0x${MEASUREMENT.toUpperCase()}` }, names)).toEqual({ repo: REPO, measurement: MEASUREMENT });
    expect(parseEnclaveTrust({ repo: "", measurement: "" }, names)).toBeNull();
    expect(parseEnclaveTrust({}, names)).toBeNull();
  });
  it("refuses what is not a repository or a measurement", () => {
    for (const repo of ["owner", "owner/name/extra", "-owner/name", "owner/na me", "../x"]) {
      expect(() => parseEnclaveTrust({ repo }, names)).toThrow(EnclaveTrustError);
    }
    for (const measurement of ["abc", "a1".repeat(40), "g".repeat(64)]) {
      expect(() => parseEnclaveTrust({ repo: REPO, measurement }, names)).toThrow(EnclaveTrustError);
    }
  });
});
