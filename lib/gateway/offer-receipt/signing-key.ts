import fs from "node:fs";
import path from "node:path";
import { generatePrivateKey } from "viem/accounts";

const KEY_PATTERN = /^0x[0-9a-fA-F]{64}$/;
const isKey = (text: string): text is `0x${string}` => KEY_PATTERN.test(text);

/** Why the signing key cannot be read, in words for the operator (never the key). */
export class SigningKeyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SigningKeyError";
  }
}

/**
 * The key that signs offers and receipts: OFFER_RECEIPT_SIGNING_KEY, or (the local chain only:
 * configuration requires the variable elsewhere) a key generated on first use into `keyFile` in
 * DATA_DIR, 0600, and read from there ever after, by every process sharing the folder. Never a key
 * written in the repository: a development receipt proves nothing anywhere else.
 * @throws SigningKeyError when the file holds something else than a key
 */
export function readSigningKey({ signingKey, keyFile }: { signingKey: `0x${string}` | null; keyFile: string }): `0x${string}` {
  if (signingKey) return signingKey;
  try {
    return readKeyFile(keyFile);
  } catch (err) {
    if (!(err instanceof Error && "code" in err && err.code === "ENOENT")) throw err;
  }
  fs.mkdirSync(path.dirname(keyFile), { recursive: true, mode: 0o700 });
  // Written whole under another name, then linked into place: a process racing this one reads
  // either no file or the whole key, and the link fails for all but one of them.
  const temporary = `${keyFile}.${process.pid}.${Date.now()}.tmp`;
  fs.writeFileSync(temporary, `${generatePrivateKey()}\n`, { mode: 0o600, flag: "wx" });
  try {
    fs.linkSync(temporary, keyFile);
  } catch (err) {
    if (!(err instanceof Error && "code" in err && err.code === "EEXIST")) throw err;
  } finally {
    fs.rmSync(temporary, { force: true });
  }
  return readKeyFile(keyFile);
}

function readKeyFile(file: string): `0x${string}` {
  const text = fs.readFileSync(file, "utf8").trim();
  if (!isKey(text)) {
    throw new SigningKeyError(
      `${file} does not hold a 0x-prefixed 32-byte hex key. Fix it, or remove it to have a new one generated (receipts the old key signed then verify only while its address is in OFFER_RECEIPT_PREVIOUS_SIGNERS)`,
    );
  }
  return text;
}
