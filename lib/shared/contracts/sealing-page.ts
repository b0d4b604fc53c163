import { z } from "zod";
import { base64Schema } from "@/lib/shared/contracts/common";
import { responseRegistry } from "@/lib/shared/contracts/registry";
import { encryptedResponseSchema, sealingSuiteSchema } from "@/lib/shared/contracts/sealing";

/**
 * GET /api/sealing, as lib/shared/sealing/page.ts builds it: the scheme step by step, test vectors, the
 * errors of a failed opening and the recovery-key format, for a client written from what the
 * service serves alone.
 */

const derivationSchema = z.object({
  kdf: z.literal("HKDF-SHA256"),
  ikm: z.string(),
  salt: z.string(),
  info: z.string().describe("the HKDF info string, as UTF-8 bytes"),
  outputBytes: z.int().min(1),
  encoding: z.string(),
});

const testVectorsSchema = z
  .object({
    note: z.string(),
    legend: z.record(z.string(), z.string()).describe("what each value below is"),
    enclavePrivateKey: base64Schema,
    enclavePublicKey: base64Schema,
    clientEphemeralPrivateKey: base64Schema,
    requestNonce: base64Schema,
    requestPlaintext: z.unknown().describe("the request's plaintext: any JSON value"),
    envelope: z.object({ hpke_ciphertext: base64Schema, hpke_ephemeral_public_key: base64Schema }),
    responseEphemeralPrivateKey: base64Schema,
    responseNonce: base64Schema,
    responsePlaintext: z.unknown().describe("the answer's plaintext: any JSON value"),
    response: encryptedResponseSchema,
    requestSharedSecret: base64Schema,
    requestKey: base64Schema,
    responseSharedSecret: base64Schema,
    responseKey: base64Schema,
    forgedResponse: encryptedResponseSchema.describe("an answer a correct client must refuse to open"),
  })
  .describe("Fixed keys and nonces, every intermediate value, and the envelope and answer byte for byte (base64)");

export const sealingPageSchema = z
  .object({
    title: z.string(),
    url: z.url(),
    summary: z.string(),
    enclaveKey: z.url().describe("where the enclave's key is served"),
    suite: sealingSuiteSchema,
    sealRequest: z.array(z.string()).describe("the steps to seal a request"),
    openResponse: z.array(z.string()).describe("the steps to open its answer"),
    plaintexts: z
      .object({ schemas: z.string().describe("where the schemas named here are") })
      .catchall(z.object({ request: z.string(), answer: z.string() }))
      .describe("each sealed route's plaintext schema and answer, by route"),
    errors: z.object({ shape: z.string(), codes: z.record(z.string(), z.string()).describe("what each 400 `reason` of a failed opening means") }),
    testVectors: testVectorsSchema,
    recoveryKey: z.object({
      format: z.string(),
      prefix: z.string(),
      pattern: z.string().describe("a regular expression every recovery key matches"),
      use: z.string(),
      derivation: z.object({ secret: z.string(), lookupId: derivationSchema, storageKey: derivationSchema, note: z.string() }),
      example: z.object({ secret: base64Schema, recoveryKey: z.string(), lookupId: z.string(), storageKey: base64Schema }),
    }),
  })
  .register(responseRegistry, { id: "SealingPage", description: "How to seal a private request and open its answer: the suite, the steps, test vectors, errors and the recovery-key format" });
