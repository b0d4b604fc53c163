import { z } from "zod";
import { base64Schema } from "@/lib/shared/contracts/common";
import { messageSchema } from "@/lib/shared/contracts/chat";
import { literatureQueryRequestSchema } from "@/lib/shared/contracts/literature";
import { requestRegistry, responseRegistry } from "@/lib/shared/contracts/registry";
import { requestContract, requestObject } from "@/lib/shared/contracts/request-contract";
import { PRIVATE_ENVELOPE_MAX_BYTES } from "@/lib/shared/contracts/limits";
import { KEY_BYTES, NONCE_BYTES, REQUEST_INFO, RESPONSE_INFO, TAG_BYTES } from "@/lib/shared/sealing/codec";
import { RECOVERY_KEY, RECOVERY_KEY_PREFIX } from "@/lib/shared/sealing/recovery";

/** Section 2.9: the body of every encrypted start and of the encrypted deep-research poll. */
export const encryptedEnvelopeSchema = requestContract(
  requestObject({
    hpke_ciphertext: base64Schema.describe("base64 of the 24-byte nonce followed by the sealed plaintext"),
    hpke_ephemeral_public_key: base64Schema.describe("base64 one-time X25519 public key of the sender"),
  }),
  { id: "EncryptedEnvelope" },
);
export type EncryptedEnvelope = z.infer<typeof encryptedEnvelopeSchema>;

/** Section 2.9: a response sealed to the request's ephemeral key, bound to its shared secret (docs/sealing.md). */
export const encryptedResponseSchema = z
  .object({
    hpke_response_ciphertext: base64Schema,
    hpke_response_ephemeral_key: base64Schema.describe("base64 one-time X25519 public key of the enclave"),
  })
  .register(responseRegistry, { id: "EncryptedResponse" });
export type EncryptedResponse = z.infer<typeof encryptedResponseSchema>;

/**
 * `longevity_key_v1_` + 32 random bytes in unpadded base64url (43 characters), as
 * lib/shared/sealing/recovery.ts defines it: the last character's 2 low bits must be zero, so a key has
 * exactly one spelling.
 */
export const recoveryKeySchema = z.string().regex(RECOVERY_KEY, `recoveryKey must be ${RECOVERY_KEY_PREFIX} followed by 32 bytes in base64url`);

/** The largest sealed envelope accepted (gateway and agent alike): room for the largest attachments. */
export { PRIVATE_ENVELOPE_MAX_BYTES };

/** Largest attachment text and count in a private chat (the contract leaves the shape open). */
const MAX_ATTACHMENT_CHARS = 100_000;
const MAX_ATTACHMENTS = 5;

/** A text attachment of a private chat: a name, a textual media type and its content. */
const chatAttachmentSchema = z.object({
  name: z.string().min(1).max(255),
  mediaType: z
    .string()
    .regex(/^(text\/[-+.\w]+|application\/(json|xml|x-ndjson|csv))$/, "mediaType must be a textual media type"),
  text: z.string().max(MAX_ATTACHMENT_CHARS, `attachment text must be at most ${MAX_ATTACHMENT_CHARS} characters`),
});

/** Section 2.9: plaintext of an encrypted chat request. */
export const encryptedChatPlaintextSchema = requestContract(
  z.object({
    message: messageSchema,
    recoveryKey: recoveryKeySchema.optional(),
    conversationId: z.string().min(1).max(200).optional(),
    attachments: z.array(chatAttachmentSchema).max(MAX_ATTACHMENTS).optional(),
  }),
  { id: "EncryptedChatPlaintext" },
);

/** Section 2.9: plaintext of an encrypted deep-research start. */
export const encryptedDeepResearchStartPlaintextSchema = requestContract(
  z.object({ message: messageSchema, recoveryKey: recoveryKeySchema }),
  { id: "EncryptedDeepResearchStartPlaintext" },
);

/**
 * Section 2.9: plaintext of an encrypted deep-research poll. `messageId` is ours, an addition: the
 * run the client polls, which the enclave checks against the URL's (docs/sealing.md, "A run's
 * answers name the run"). A poll without it (the contract's first form) is still answered.
 */
export const encryptedDeepResearchPollPlaintextSchema = requestContract(
  z.object({
    recoveryKey: recoveryKeySchema,
    messageId: z
      .string()
      .min(1)
      .max(200)
      .optional()
      .describe("the run polled, as the start's sealed receipt named it; a poll sent to another run's URL is 404"),
  }),
  { id: "EncryptedDeepResearchPollPlaintext" },
);

/**
 * Section 2.9: plaintext of an encrypted literature request. The literature request's check of its
 * text carries over (safeExtend keeps refinements), so it is registered without a second one.
 */
export const encryptedLiteraturePlaintextSchema = literatureQueryRequestSchema
  .safeExtend({ recoveryKey: recoveryKeySchema.optional() })
  .register(requestRegistry, { id: "EncryptedLiteraturePlaintext" });

const pollUrlSchema = z.url().describe("absolute URL to poll");

/** Section 4.2: 200 of POST /api/chat/encrypted when the answer was ready in time. */
export const encryptedChatSyncResponseSchema = encryptedResponseSchema
  .extend({ requestId: z.string().min(1) })
  .register(responseRegistry, { id: "EncryptedChatSyncResponse" });

/** Section 4.2: 202 of POST /api/chat/encrypted. */
export const encryptedChatAcceptedSchema = z
  .object({ requestId: z.string().min(1), status: z.literal("queued"), pollUrl: pollUrlSchema })
  .register(responseRegistry, { id: "EncryptedChatAccepted" });

/** Section 4.2: GET /api/chat/encrypted/status/{requestId}. */
export const encryptedChatStatusSchema = z
  .discriminatedUnion("status", [
    z.object({ status: z.enum(["queued", "active"]) }),
    encryptedResponseSchema.extend({ status: z.literal("completed"), requestId: z.string().min(1) }),
    z.object({ status: z.literal("failed"), error: z.string() }),
  ])
  .register(responseRegistry, { id: "EncryptedChatStatus" });

/**
 * What the enclave seals to a deep-research start's key in its 202 (ours, an addition to section
 * 4.1): the run it started for that very request, which only that request's client can open.
 */
export const encryptedDeepResearchReceiptSchema = z
  .object({ messageId: z.string().min(1), status: z.literal("queued") })
  .register(responseRegistry, { id: "EncryptedDeepResearchReceipt" });
export type EncryptedDeepResearchReceipt = z.infer<typeof encryptedDeepResearchReceiptSchema>;

/**
 * Section 4.1: 202 of POST /api/deep-research/encrypted, with the enclave's sealed receipt (an
 * EncryptedDeepResearchReceipt sealed to the start's ephemeral key): a client polls only the run
 * the receipt names.
 */
export const encryptedDeepResearchAcceptedSchema = encryptedResponseSchema
  .extend({ messageId: z.string().min(1), status: z.literal("queued"), pollUrl: pollUrlSchema })
  .register(responseRegistry, { id: "EncryptedDeepResearchAccepted" });

/** Section 4.1: 200 of POST /api/deep-research/encrypted/status/{messageId}. */
export const encryptedDeepResearchStatusSchema = z
  .discriminatedUnion("status", [
    z.object({ status: z.enum(["queued", "running"]) }),
    encryptedResponseSchema.extend({ status: z.literal("completed") }),
    z.object({
      status: z.literal("failed"),
      error: z.string().optional(),
      reason: z
        .enum(["authorization_expired", "settlement_failed"])
        .optional()
        .describe("set by the gateway when the run's payment failed: its authorization expired before the run finished, or it could not be settled; either way nothing was charged"),
    }),
  ])
  .register(responseRegistry, { id: "EncryptedDeepResearchStatus" });
export type EncryptedDeepResearchStatus = z.infer<typeof encryptedDeepResearchStatusSchema>;

/** Section 4.4: 202 of POST /api/literature/encrypted. */
export const encryptedLiteratureAcceptedSchema = z
  .object({ requestId: z.string().min(1), status: z.literal("pending"), pollUrl: pollUrlSchema })
  .register(responseRegistry, { id: "EncryptedLiteratureAccepted" });

/** Section 4.4: GET /api/literature/encrypted/status/{requestId} (200 bodies). */
export const encryptedLiteratureStatusSchema = z
  .discriminatedUnion("status", [
    z.object({ status: z.literal("active") }),
    encryptedResponseSchema.extend({ status: z.literal("completed") }),
    z.object({ status: z.literal("failed"), error: z.string() }),
  ])
  .register(responseRegistry, { id: "EncryptedLiteratureStatus" });

/** Section 4.4: 404 of the encrypted literature status route. */
export const notFoundStatusSchema = z
  .object({ status: z.literal("not_found"), error: z.string().optional() })
  .register(responseRegistry, { id: "NotFoundStatus" });

/**
 * Attestation material of an enclave hosted by Tinfoil (a confidential VM): the attestation
 * bundle that `@tinfoilsh/verifier` checks (AMD SEV-SNP report and VCEK chain, the release's
 * Sigstore provenance from `configRepo`, the enclave certificate that binds the HPKE key).
 */
export const tinfoilAttestationSchema = z
  .object({
    provider: z.literal("tinfoil"),
    configRepo: z.string().regex(/^[\w.-]+\/[\w.-]+$/, "configRepo must be owner/name"),
    bundle: z.object({
      domain: z.string().min(1),
      enclaveAttestationReport: z.object({ format: z.string().min(1), body: z.string().min(1) }),
      digest: z.string().min(1),
      sigstoreBundle: z.unknown(),
      vcek: z.string().min(1),
      enclaveCert: z.string().min(1),
    }),
  })
  .register(responseRegistry, { id: "TinfoilAttestation" });
export type TinfoilAttestation = z.infer<typeof tinfoilAttestationSchema>;

/**
 * The sealing suite the gateway's GET /api/enclave-key names (lib/shared/sealing/descriptor.ts builds it
 * from the scheme's constants): ours, so a client can seal from what is served. Fixed values are
 * literals here, read from the same constants, so the document states them. Not strict: a client
 * built today must still parse a suite that later gains a field.
 */
export const sealingSuiteSchema = z
  .object({
    name: z.string(),
    keyAgreement: z.object({ algorithm: z.literal("X25519"), publicKeyBytes: z.literal(KEY_BYTES), privateKeyBytes: z.literal(KEY_BYTES), refuse: z.string() }),
    kdf: z.object({
      algorithm: z.literal("HKDF-SHA256"),
      outputBytes: z.literal(KEY_BYTES),
      request: z.object({ ikm: z.string(), salt: z.string(), info: z.literal(REQUEST_INFO) }),
      response: z.object({ ikm: z.string(), salt: z.string(), info: z.literal(RESPONSE_INFO) }),
      infoEncoding: z.string(),
    }),
    aead: z.object({
      algorithm: z.literal("XChaCha20-Poly1305"),
      keyBytes: z.literal(KEY_BYTES),
      nonceBytes: z.literal(NONCE_BYTES),
      tagBytes: z.literal(TAG_BYTES),
      associatedData: z.string(),
    }),
    ciphertextLayout: z.string(),
    plaintextEncoding: z.string(),
    binaryEncoding: z.string(),
    request: z.object({ hpke_ciphertext: z.string(), hpke_ephemeral_public_key: z.string() }),
    response: z.object({ hpke_response_ciphertext: z.string(), hpke_response_ephemeral_key: z.string(), keep: z.string() }),
    page: z.url().describe("GET this: the algorithm step by step, test vectors, errors and the recovery-key format (JSON)"),
  })
  .register(responseRegistry, { id: "SealingSuite" });

/**
 * Section 4.2: GET /api/enclave-key, as read from an enclave. `attested` and `attestation` are
 * ours: whether the enclave serves attestation material, and the material, which a client
 * verifies before sealing (the server's word alone proves nothing). `sealing` is optional when
 * read, so an enclave that does not name its suite is still read (the gateway names its own).
 */
export const enclaveKeyResponseSchema = z.object({
  hpke_public_key: base64Schema.describe("base64 X25519 public key of the enclave"),
  attested: z.boolean().optional().describe("true when the enclave serves attestation material (verify it; do not trust this flag)"),
  attestation: tinfoilAttestationSchema.nullable().optional(),
  sealing: sealingSuiteSchema.optional().describe("the suite to seal to this key, and a link to the sealing page"),
});

/** GET /api/enclave-key as the gateway (and the agent) serve it: always with the suite. */
export const servedEnclaveKeySchema = enclaveKeyResponseSchema
  .extend({ sealing: sealingSuiteSchema.describe("the suite to seal to this key, and a link to the sealing page") })
  .register(responseRegistry, { id: "EnclaveKey" });
