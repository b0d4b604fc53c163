import fs from "node:fs";
import path from "node:path";
import type { Queryable } from "@/lib/db";
import { decodeBase64, encodeBase64 } from "@/lib/sealing";
import { nativePrimitives } from "@/lib/sealing/native";
import { decryptAtRest, encryptAtRest } from "@/lib/sealing/recovery";

export type EnclaveKey = { privateKey: Uint8Array; publicKey: string };

/**
 * The enclave's X25519 key pair. From ENCLAVE_PRIVATE_KEY when configured (a confidential VM's
 * injected secret); otherwise generated once and kept in the database with its private half
 * sealed under a key-encryption key in a file outside it (created 0600 on first use), so the
 * database alone cannot open private requests. Throws when the stored key cannot be unsealed
 * (the key file was lost or replaced): private mode then reports itself not ready.
 */
export async function loadEnclaveKey({ db, configured, kekFile }: { db: Queryable; configured: string | undefined; kekFile: string }): Promise<EnclaveKey> {
  const p = nativePrimitives;
  if (configured) {
    const privateKey = decodeBase64(configured, "ENCLAVE_PRIVATE_KEY");
    return { privateKey, publicKey: encodeBase64(p.publicKey(privateKey)) };
  }
  const kek = readOrCreateKek(kekFile);
  const { rows } = await db.query<{ public_key: string; sealed_private_key: string }>("SELECT public_key, sealed_private_key FROM agent.enclave_keys WHERE id = 1");
  if (rows[0]) {
    const privateKey = decodeBase64(decryptAtRest(p, kek, rows[0].sealed_private_key) as string, "the stored enclave key");
    return { privateKey, publicKey: rows[0].public_key };
  }
  const privateKey = p.randomBytes(32);
  const publicKey = encodeBase64(p.publicKey(privateKey));
  await db.query("INSERT INTO agent.enclave_keys (id, public_key, sealed_private_key) VALUES (1, $1, $2) ON CONFLICT (id) DO NOTHING", [
    publicKey,
    encryptAtRest(p, kek, encodeBase64(privateKey)),
  ]);
  // Another process may have won the race: whatever is stored is the key.
  return loadEnclaveKey({ db, configured: undefined, kekFile });
}

function readOrCreateKek(file: string): Uint8Array {
  if (fs.existsSync(file)) {
    const kek = decodeBase64(fs.readFileSync(file, "utf8").trim(), "the enclave key-encryption key");
    if (kek.length !== 32) throw new Error(`${file} does not hold a 32-byte key`);
    return kek;
  }
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const kek = nativePrimitives.randomBytes(32);
  try {
    fs.writeFileSync(file, encodeBase64(kek) + "\n", { mode: 0o600, flag: "wx" });
    return kek;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "EEXIST") return readOrCreateKek(file); // created meanwhile
    throw err;
  }
}

/** A memoised loader of the enclave key, shared by the routes and the private workers. */
export function createEnclaveKeyLoader({ db, configured, kekFile }: { db: Queryable; configured: string | undefined; kekFile: string }): () => Promise<EnclaveKey> {
  let pending: Promise<EnclaveKey> | undefined;
  return () => {
    pending ??= loadEnclaveKey({ db, configured, kekFile }).catch((err: unknown) => {
      pending = undefined;
      throw err;
    });
    return pending;
  };
}
