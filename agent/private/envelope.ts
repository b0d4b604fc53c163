import type { z } from "zod";
import type { EncryptedEnvelope } from "@/lib/shared/contracts";
import { ApiError } from "@/lib/shared/http";
import { ENCLAVE_KEY_HEADER } from "@/lib/shared/sealing/enclave-key-header";
import { SealingError } from "@/lib/shared/sealing";
import { describeFailedOpening } from "@/lib/shared/sealing/descriptor";
import { nativePrimitives } from "@/lib/shared/sealing/native";
import * as scheme from "@/lib/shared/sealing/scheme";
import { JobFailure } from "../jobs/worker";
import type { EnclaveKey } from "./enclave-key";

/** An opened request: its checked plaintext, and what answering it needs (scheme.ReplyTo). */
export type Opened<T> = { plaintext: T; replyTo: scheme.ReplyTo };

/**
 * Opens a sealed request in a route and checks its plaintext against `schema`, so an envelope the
 * enclave cannot open, or one that holds no valid request, is a 400 before any work is queued (and
 * before the gateway settles anything). Errors name the sealing error code or the invalid fields'
 * paths and issue codes, never a value: the plaintext must not come back out in an error.
 */
async function openEnvelopeOrReject<S extends z.ZodType>(enclaveKey: () => Promise<EnclaveKey>, envelope: EncryptedEnvelope, schema: S, what: string): Promise<Opened<z.output<S>>> {
  let key: EnclaveKey;
  try {
    key = await enclaveKey();
  } catch {
    throw new ApiError("unavailable", "Private mode is not ready", { reason: "private_mode_not_ready" });
  }
  let opened: { plaintext: unknown; replyTo: scheme.ReplyTo };
  try {
    opened = scheme.openRequest(nativePrimitives, { enclavePrivateKey: key.privateKey, envelope });
  } catch (err) {
    if (err instanceof SealingError) {
      // A failed tag looks the same for a wrong cipher, a stale key and tampering: say what was
      // expected, and the key held, so the client can tell which (docs/sealing.md).
      const { error, message } = describeFailedOpening({ code: err.code, enclavePublicKey: key.publicKey });
      throw new ApiError("bad_request", error, { reason: err.code, message });
    }
    throw err;
  }
  const parsed = schema.safeParse(opened.plaintext);
  if (!parsed.success) {
    const fields = parsed.error.issues.map((i) => `${i.path.join(".") || "(root)"}: ${i.code}`).join("; ");
    throw new ApiError("bad_request", `The sealed ${what} is invalid (${fields})`, { reason: "invalid_plaintext" });
  }
  return { plaintext: parsed.data, replyTo: opened.replyTo };
}

/**
 * openEnvelopeOrReject for the routes: its 400 names the enclave's current public key in
 * ENCLAVE_KEY_HEADER. The gateway drops its cached key only when this differs from it, so a
 * rotation shows at once and an undecryptable envelope sealed to the current key, which anyone
 * can send to a free route, costs it nothing.
 */
export async function openSealedRequest<S extends z.ZodType>(enclaveKey: () => Promise<EnclaveKey>, envelope: EncryptedEnvelope, schema: S, what: string): Promise<Opened<z.output<S>>> {
  try {
    return await openEnvelopeOrReject(enclaveKey, envelope, schema, what);
  } catch (err) {
    if (!(err instanceof ApiError) || err.status !== 400) throw err;
    const { publicKey } = await enclaveKey(); // loaded already: openEnvelopeOrReject needed it
    throw new ApiError(err.kind, err.message, {
      ...(err.reason !== undefined ? { reason: err.reason } : {}),
      ...(err.detail !== undefined ? { message: err.detail } : {}),
      headers: { ...err.headers, [ENCLAVE_KEY_HEADER]: publicKey },
      cause: err,
    });
  }
}

/**
 * The same in a worker: any failure is a JobFailure that says what failed, never what was asked
 * (the route opened this envelope already; this fails only if the enclave key changed since).
 */
export async function openEnvelopeInJob<S extends z.ZodType>(enclaveKey: () => Promise<EnclaveKey>, envelope: EncryptedEnvelope, schema: S, what: string): Promise<Opened<z.output<S>>> {
  let opened: { plaintext: unknown; replyTo: scheme.ReplyTo };
  try {
    opened = scheme.openRequest(nativePrimitives, { enclavePrivateKey: (await enclaveKey()).privateKey, envelope });
  } catch {
    throw new JobFailure("The private request could not be opened");
  }
  const parsed = schema.safeParse(opened.plaintext);
  if (!parsed.success) throw new JobFailure(`The private request is not a valid ${what}`);
  return { plaintext: parsed.data, replyTo: opened.replyTo };
}

/**
 * Seals a result as the answer to one opened request (the response half of the scheme): to its
 * ephemeral key, bound to its shared secret, so only this enclave could have sealed it.
 */
export function sealTo(replyTo: scheme.ReplyTo, plaintext: unknown) {
  return scheme.sealResponse(nativePrimitives, { ...replyTo, plaintext });
}
