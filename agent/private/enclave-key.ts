import fs from "node:fs";
import path from "node:path";
import type { Queryable } from "@/lib/shared/db";
import { log } from "@/lib/shared/log";
import { decodeBase64, encodeBase64 } from "@/lib/shared/sealing/codec";
import { SealingError } from "@/lib/shared/sealing/errors";
import { nativePrimitives } from "@/lib/shared/sealing/native";
import { decryptAtRest, encryptAtRest } from "@/lib/shared/sealing/recovery";
import { errorCode, errorMessage } from "@/lib/shared/narrow";

export type EnclaveKey = { privateKey: Uint8Array; publicKey: string };

/** Why the enclave key cannot be loaded, in words for the operator (never a secret). */
class EnclaveKeyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "EnclaveKeyError";
  }
}

export type EnclaveKeySource = {
  db: Queryable;
  /** ENCLAVE_PRIVATE_KEY: a key injected into a confidential VM. */
  configured: string | undefined;
  /** ENCLAVE_KEK_FILE, or its default outside DATA_DIR. */
  kekFile: string;
  /**
   * The key-encryption key's old default location (DATA_DIR/enclave.kek), still read, with a
   * warning, when the stored key opens with it and not with `kekFile`: an install from before the
   * move keeps its key. Null when ENCLAVE_KEK_FILE names the file.
   */
  legacyKekFile?: string | null;
};

/**
 * The enclave's X25519 key pair. From ENCLAVE_PRIVATE_KEY when configured (a confidential VM's
 * injected secret); otherwise generated once and kept in agent.enclave_keys with its private half
 * sealed under a key-encryption key in a file outside the database (created 0600 on first use), so
 * the database alone cannot open private requests. The public key served is always the one the
 * private key in memory gives: the stored `public_key` is only checked against it.
 *
 * Throws EnclaveKeyError (and private mode then reports itself not ready) when the stored public
 * key is not the sealed private key's (the database was altered), when the sealed private key does
 * not open with the key-encryption key (the file is the wrong one, or the row was altered), when a
 * stored key's key-encryption key file is missing, or when that file is not a regular file private
 * to its owner. Never replaces a stored key it cannot open.
 */
export async function loadEnclaveKey({ db, configured, kekFile, legacyKekFile = null }: EnclaveKeySource): Promise<EnclaveKey> {
  const p = nativePrimitives;
  if (configured) {
    const privateKey = decodeBase64(configured, "ENCLAVE_PRIVATE_KEY");
    return { privateKey, publicKey: encodeBase64(p.publicKey(privateKey)) };
  }
  const { rows } = await db.query<{ public_key: string; sealed_private_key: string }>("SELECT public_key, sealed_private_key FROM agent.enclave_keys WHERE id = 1");
  const stored = rows[0];
  if (!stored) {
    const kek = readOrCreateKek(kekFile);
    const privateKey = p.randomBytes(32);
    await db.query("INSERT INTO agent.enclave_keys (id, public_key, sealed_private_key) VALUES (1, $1, $2) ON CONFLICT (id) DO NOTHING", [
      encodeBase64(p.publicKey(privateKey)),
      encryptAtRest(p, kek, encodeBase64(privateKey)),
    ]);
    // Another process may have won the race: whatever is stored is the key, checked like any other.
    return loadEnclaveKey({ db, configured: undefined, kekFile, legacyKekFile });
  }

  const candidates = [kekFile, legacyKekFile].filter((file): file is string => file !== null && exists(file));
  if (candidates.length === 0) {
    throw new EnclaveKeyError(
      `agent.enclave_keys holds an enclave key sealed under a key-encryption key, but ${kekFile} does not exist` +
        (legacyKekFile ? ` (nor does ${legacyKekFile}, its old default location)` : "") +
        ": restore that file (or point ENCLAVE_KEK_FILE at it). Private mode stays off; deleting the row would make a new enclave key",
    );
  }
  for (const file of candidates) {
    const privateKey = unsealPrivateKey(readKek(file), stored.sealed_private_key, file);
    if (!privateKey) continue;
    if (file === legacyKekFile) {
      log.warn(
        `The enclave's key-encryption key was read from ${file}, its old default location beside the database. Move it out of the data folder ` +
          `(mv ${file} ${kekFile}, keeping mode 600) or set ENCLAVE_KEK_FILE to where you keep it: whoever copies the data folder should not get it too`,
      );
    }
    const publicKey = p.publicKey(privateKey);
    if (!sameKey(stored.public_key, publicKey)) {
      throw new EnclaveKeyError(
        "The stored public key does not match the sealed private key: the database was altered (agent.enclave_keys.public_key). " +
          `Private mode stays off rather than let clients seal to a key this enclave does not hold. The sealed private key's public key is ${encodeBase64(publicKey)}; ` +
          "find out who changed the row before restoring it",
      );
    }
    return { privateKey, publicKey: encodeBase64(publicKey) };
  }
  throw new EnclaveKeyError(
    `The stored enclave key cannot be unsealed with the key-encryption key in ${candidates.join(" or ")}: either that is not the file it was sealed under, ` +
      "or agent.enclave_keys.sealed_private_key was altered. Private mode stays off; restore the right file or the row (deleting the row would make a new enclave key)",
  );
}

/** The private key sealed in `sealed`, or null when it does not open with `kek` (AEAD: wrong key or altered). */
function unsealPrivateKey(kek: Uint8Array, sealed: string, kekFile: string): Uint8Array | null {
  let opened: unknown;
  try {
    opened = decryptAtRest(nativePrimitives, kek, sealed);
  } catch (err) {
    if (err instanceof SealingError) return null;
    // It opened (so this enclave sealed it) but is not JSON: say so without echoing any of it.
    throw new EnclaveKeyError(`The enclave key sealed under ${kekFile} is not a 32-byte key`);
  }
  // It opened, so this enclave sealed it: anything but a 32-byte key is a fault of ours, not an attack.
  const privateKey = typeof opened === "string" ? safeDecode(opened) : null;
  if (!privateKey || privateKey.length !== 32) throw new EnclaveKeyError(`The enclave key sealed under ${kekFile} is not a 32-byte key`);
  return privateKey;
}

function sameKey(stored: string, derived: Uint8Array): boolean {
  const bytes = safeDecode(stored);
  return bytes !== null && bytes.length === derived.length && bytes.every((b, i) => b === derived[i]);
}

function safeDecode(base64: string): Uint8Array | null {
  try {
    return decodeBase64(base64, "key");
  } catch {
    return null;
  }
}

/** Whether anything is at `file` (a dangling symbolic link counts: readKek then says so). */
function exists(file: string): boolean {
  try {
    fs.lstatSync(file);
    return true;
  } catch {
    return false;
  }
}

/**
 * Reads a key-encryption key, refusing a file that is not a regular file or that its group or
 * others may read or write (POSIX modes; Windows has none, and is not checked). A symbolic link is
 * followed and the file it names is checked: secret mounts (Kubernetes, Docker) are links. The
 * checks are made on the open file, so the file cannot be swapped between check and read.
 */
function readKek(file: string): Uint8Array {
  let fd: number;
  try {
    // Non-blocking, so a FIFO put in its place cannot hang the enclave before it is refused.
    fd = fs.openSync(file, fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0));
  } catch (err) {
    throw new EnclaveKeyError(`Cannot open the enclave's key-encryption key ${file}: ${errorMessage(err)}`);
  }
  try {
    const stat = fs.fstatSync(fd);
    if (!stat.isFile()) throw new EnclaveKeyError(`${file} is not a regular file: the enclave's key-encryption key must be one (ENCLAVE_KEK_FILE)`);
    if (process.platform !== "win32" && (stat.mode & 0o077) !== 0) {
      throw new EnclaveKeyError(
        `${file} may be read or written by its group or others (mode ${(stat.mode & 0o777).toString(8)}): the enclave's key-encryption key must be private to its owner. Run chmod 600 ${file}`,
      );
    }
    const kek = safeDecode(fs.readFileSync(fd, "utf8").trim());
    if (!kek || kek.length !== 32) throw new EnclaveKeyError(`${file} does not hold a 32-byte key in base64`);
    return kek;
  } finally {
    fs.closeSync(fd);
  }
}

/** The key-encryption key of a key about to be generated: read, or created 0600 in a 0700 folder. */
function readOrCreateKek(file: string): Uint8Array {
  if (exists(file)) return readKek(file);
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const kek = nativePrimitives.randomBytes(32);
  try {
    fs.writeFileSync(file, encodeBase64(kek) + "\n", { mode: 0o600, flag: "wx" });
    return kek;
  } catch (err) {
    if (errorCode(err) === "EEXIST") return readKek(file); // created meanwhile
    throw err;
  }
}

/**
 * A memoised loader of the enclave key, shared by the routes and the private workers. A failure is
 * not kept (the next call tries again: the operator may have fixed the file) and is logged, once
 * for each distinct reason, so the operator sees why private mode is off.
 */
export function createEnclaveKeyLoader(source: EnclaveKeySource): () => Promise<EnclaveKey> {
  let pending: Promise<EnclaveKey> | undefined;
  let lastLogged: string | undefined;
  return () => {
    pending ??= loadEnclaveKey(source).then(
      (key) => {
        if (lastLogged !== undefined) log.info("private mode is ready: the enclave key was loaded", { publicKey: key.publicKey });
        lastLogged = undefined;
        return key;
      },
      (err: unknown) => {
        pending = undefined;
        const reason = err instanceof Error ? err.message : String(err);
        if (reason !== lastLogged) {
          lastLogged = reason;
          // Our own errors are sentences for the operator; anything else (the database) with its cause.
          log.error("private mode is off: the enclave key cannot be loaded", err instanceof EnclaveKeyError ? { reason } : { error: err });
        }
        throw err;
      },
    );
    return pending;
  };
}

/** Whether private mode is ready: the enclave key loads (why it does not is logged by the loader). */
export function isEnclaveKeyReady(enclaveKey: () => Promise<EnclaveKey>): Promise<boolean> {
  return enclaveKey().then(
    () => true,
    () => false,
  );
}
