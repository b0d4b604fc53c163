import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { GET as getSealingPage } from "@/app/api/sealing/route";
import { sealingSuiteSchema } from "@/lib/shared/contracts";
import { buildLlmsTxt } from "@/lib/gateway/discovery/llms-txt";
import { buildOpenApiDocument } from "@/lib/gateway/openapi/document";
import type { PaymentSettings } from "@/lib/gateway/payments/requirements";
import { decodeBase64, deriveRecoveryKeys, encodeBase64, openResponse, parseRecoveryKey, portablePrimitives, REQUEST_INFO, RESPONSE_INFO, sealRequest } from "@/lib/shared/sealing";
import { describeFailedOpening, describeSealingSuite, SEALING_PAGE_PATH } from "@/lib/shared/sealing/descriptor";
import { buildSealingPage } from "@/lib/shared/sealing/page";

const PUBLIC_URL = "https://gateway.test";
const page = buildSealingPage({ publicUrl: PUBLIC_URL });
const vectorsFile = JSON.parse(fs.readFileSync(path.resolve(import.meta.dirname, "../../lib/shared/sealing/vectors.json"), "utf8")) as Record<string, unknown>;
const b = (s: string) => decodeBase64(s, "vector");

describe("the served sealing material", () => {
  it("serves the test vectors of the file the sealing unit tests check, unchanged, and they open as the scheme opens them", () => {
    const { note: _note, legend, ...served } = page.testVectors;
    expect(served).toEqual(vectorsFile);
    expect(Object.keys(legend).sort()).toEqual(Object.keys(vectorsFile).sort());
    const sealed = sealRequest({
      enclavePublicKey: served.enclavePublicKey,
      plaintext: served.requestPlaintext,
      ephemeralPrivateKey: b(served.clientEphemeralPrivateKey),
      nonce: b(served.requestNonce),
    });
    expect(sealed.envelope).toEqual(served.envelope);
    expect(openResponse({ ...sealed, response: served.response })).toEqual(served.responsePlaintext);
  });

  it("names the suite with the scheme's own constants, in a shape the contract's schema keeps whole", () => {
    const suite = describeSealingSuite({ pageUrl: `${PUBLIC_URL}${SEALING_PAGE_PATH}` });
    expect(page.suite).toEqual(suite);
    expect(sealingSuiteSchema.parse(suite)).toEqual(suite);
    expect([suite.kdf.request.info, suite.kdf.response.info]).toEqual([REQUEST_INFO, RESPONSE_INFO]);
    expect(b(page.testVectors.requestNonce)).toHaveLength(suite.aead.nonceBytes);
    expect(b(page.testVectors.requestKey)).toHaveLength(suite.kdf.outputBytes);
    expect(page.sealRequest.join(" ")).toContain(`info = "${REQUEST_INFO}"`);
    expect(page.openResponse.join(" ")).toContain(`info = "${RESPONSE_INFO}"`);
  });

  it("gives a recovery-key example that the agent's own parser and derivation agree with", () => {
    const { example, pattern } = page.recoveryKey;
    expect(new RegExp(pattern).test(example.recoveryKey)).toBe(true);
    expect(encodeBase64(parseRecoveryKey(example.recoveryKey))).toBe(example.secret);
    const derived = deriveRecoveryKeys(portablePrimitives, example.recoveryKey);
    expect({ lookupId: derived.lookupId, storageKey: encodeBase64(derived.storageKey) }).toEqual({ lookupId: example.lookupId, storageKey: example.storageKey });
  });

  it("is served at GET /api/sealing as JSON, and linked from the OpenAPI document's sealed routes and from llms.txt", async () => {
    const response = await getSealingPage(new Request(`http://gateway.test${SEALING_PAGE_PATH}`));
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("application/json");
    expect(((await response.json()) as { testVectors: unknown }).testVectors).toBeDefined();

    const doc = buildOpenApiDocument({ publicUrl: PUBLIC_URL, maxBodyBytes: 256 * 1024 }) as { paths: Record<string, Record<string, { externalDocs?: { url: string } }>> };
    const sealedRoutes = Object.keys(doc.paths).filter((p) => p.includes("/encrypted") || p === "/api/enclave-key");
    expect(sealedRoutes).toHaveLength(7);
    for (const route of sealedRoutes) {
      for (const operation of Object.values(doc.paths[route]!)) expect(operation.externalDocs?.url, route).toBe(`${PUBLIC_URL}${SEALING_PAGE_PATH}`);
    }
    const settings = { network: "eip155:8453", asset: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913", assetName: "USD Coin", assetVersion: "2", payTo: "0x00000000000000000000000000000000000d15c0" } as unknown as PaymentSettings; // what llms.txt reads of it
    const llms = buildLlmsTxt({ settings, publicUrl: PUBLIC_URL, maxBodyBytes: 256 * 1024 });
    expect(llms).toContain(`Step by step, with test vectors for every intermediate value: ${PUBLIC_URL}${SEALING_PAGE_PATH}.`);
    expect(llms).toContain(`- GET ${PUBLIC_URL}${SEALING_PAGE_PATH}: `);
  });

  it("says what a failed opening expected, with the enclave's key and the page, and nothing of rotation", () => {
    const key = "B6N8vBQgk8i3VdwbEOhstCY3StFqqFPtC9/AsrhtHHw=";
    const failed = describeFailedOpening({ code: "decryption_failed", enclavePublicKey: key });
    expect(failed.error).toContain(key);
    expect(failed.message).toContain(`info = "${REQUEST_INFO}"`);
    expect(failed.message).toContain(`GET ${SEALING_PAGE_PATH}`);
    expect(JSON.stringify(failed)).not.toMatch(/rotat/i);
    expect(describeFailedOpening({ code: "low_order_key", enclavePublicKey: key }).message).toContain(`GET ${SEALING_PAGE_PATH}`);
  });
});
