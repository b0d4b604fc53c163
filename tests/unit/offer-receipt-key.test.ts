import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, describe, expect, it } from "vitest";
import { readSigningKey, SigningKeyError } from "@/lib/gateway/offer-receipt/signing-key";
import { offerReceiptSigner, publishedSigners } from "@/lib/gateway/offer-receipt/signer";

/**
 * The key that signs offers and receipts (lib/gateway/offer-receipt/signing-key.ts): configured, or, with
 * no configuration (the local chain), generated once in DATA_DIR and kept there; never a key the
 * repository holds.
 */
const dirs: string[] = [];
const dataDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "lra-offer-receipt-"));
  dirs.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

describe("the offer-and-receipt signing key", () => {
  it("is generated once in DATA_DIR with no configuration, private to its owner, and read back by every later use", () => {
    const keyFile = path.join(dataDir(), "data", "offer-receipt-signing.key");
    const first = readSigningKey({ signingKey: null, keyFile });
    expect(first).toMatch(/^0x[0-9a-f]{64}$/);
    expect(readSigningKey({ signingKey: null, keyFile })).toBe(first);
    expect(fs.readFileSync(keyFile, "utf8").trim()).toBe(first);
    if (process.platform !== "win32") {
      expect(fs.statSync(keyFile).mode & 0o777).toBe(0o600);
      expect(fs.statSync(path.dirname(keyFile)).mode & 0o777).toBe(0o700);
    }
    // Nothing else is left beside it (the key is written whole under another name, then linked).
    expect(fs.readdirSync(path.dirname(keyFile))).toEqual(["offer-receipt-signing.key"]);
  });

  it("differs from one data folder to the next: no fixed development key exists", () => {
    const a = readSigningKey({ signingKey: null, keyFile: path.join(dataDir(), "k") });
    const b = readSigningKey({ signingKey: null, keyFile: path.join(dataDir(), "k") });
    expect(a).not.toBe(b);
  });

  it("is the configured one when OFFER_RECEIPT_SIGNING_KEY is set, and nothing is written", () => {
    const keyFile = path.join(dataDir(), "k");
    const configured = `0x${"5a".repeat(32)}` as const;
    expect(readSigningKey({ signingKey: configured, keyFile })).toBe(configured);
    expect(fs.existsSync(keyFile)).toBe(false);
  });

  it("refuses a key file that holds something else, naming it, and never replaces it", () => {
    const keyFile = path.join(dataDir(), "k");
    fs.writeFileSync(keyFile, "not a key\n");
    expect(() => readSigningKey({ signingKey: null, keyFile })).toThrow(SigningKeyError);
    expect(() => readSigningKey({ signingKey: null, keyFile })).toThrow(keyFile);
    expect(fs.readFileSync(keyFile, "utf8")).toBe("not a key\n");
  });

  it("is published with the earlier keys still listed, the current one first, each once", () => {
    const signingKey = `0x${"5b".repeat(32)}` as const;
    const current = privateKeyToAccount(signingKey).address;
    const earlier = "0x1111111111111111111111111111111111111111";
    const settings = { signingKey, keyFile: path.join(dataDir(), "k"), previousSigners: [earlier, current.toLowerCase(), earlier] as `0x${string}`[] };
    expect(offerReceiptSigner(settings).address).toBe(current);
    expect(publishedSigners(settings)).toEqual({
      format: "eip712",
      signers: [
        { address: current, kid: `did:pkh:eip155:1:${current}`, status: "current" },
        { address: earlier, kid: `did:pkh:eip155:1:${earlier}`, status: "previous" },
      ],
    });
  });
});
