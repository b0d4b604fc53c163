import path from "node:path";
import { build } from "esbuild";
import { expect, test } from "./support/test";
import { readStack } from "./support/stack";

/**
 * The browser gets the same private-mode helpers as `npm run ask -- --private`: this bundles
 * lib/client/sealing/client.ts (with the portable @noble path and Tinfoil's verifier, loaded lazily) and
 * the official x402 paying client for the browser, and runs a whole private chat inside Chromium
 * against the demo: fetch the enclave key, seal, pay, follow, open. Only the page sees plaintext.
 */
// The page's CSP admits only Next.js's nonced scripts; this test injects its own bundle, so it
// runs with the policy bypassed (the policy itself is tested in home.spec.ts).
test.use({ bypassCSP: true });

test("a private chat sealed, paid and opened entirely in the browser", async ({ page }) => {
  const bundle = await build({
    stdin: {
      contents: [
        'export { fetchEnclaveKey, startPrivate, awaitPrivateChat } from "./lib/client/sealing/client";',
        'export { createPayingFetch } from "./lib/client/payments/client";',
      ].join("\n"),
      resolveDir: path.resolve(import.meta.dirname, "../.."),
      loader: "ts",
    },
    bundle: true,
    format: "iife",
    globalName: "privateMode",
    platform: "browser",
    // The verifier's Node fallback for gunzip; browsers use DecompressionStream.
    external: ["zlib"],
    target: "es2022",
    write: false,
    logLevel: "silent",
  });
  const stack = readStack();

  await page.goto("/");
  await page.addScriptTag({ content: bundle.outputFiles[0]!.text });
  const outcome = await page.evaluate(async (privateKey) => {
    type Api = {
      fetchEnclaveKey: (o: { gateway: string }) => Promise<{ publicKey: string; attested: boolean }>;
      createPayingFetch: (o: { privateKey: string; network: string; asset: string }) => { fetch: typeof fetch };
      startPrivate: (kind: "chat", o: unknown) => Promise<{ response: Response; body: Record<string, unknown>; path: string }>;
      awaitPrivateChat: (started: unknown, o: { gateway: string }) => Promise<{ answer: string; references: unknown[] }>;
    };
    const api = (globalThis as unknown as { privateMode: Api }).privateMode;
    const gateway = location.origin;
    const enclave = await api.fetchEnclaveKey({ gateway });
    const probe = await fetch(`${gateway}/api/chat/encrypted`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
    const requirement = ((await probe.json()) as { accepts: { network: string; asset: string }[] }).accepts[0]!;
    const { fetch: payFetch } = api.createPayingFetch({ privateKey, network: requirement.network, asset: requirement.asset });
    const started = await api.startPrivate("chat", { gateway, payFetch, enclave, plaintext: { message: "Does rapamycin extend lifespan in mice?" } });
    const result = await api.awaitPrivateChat(started, { gateway });
    return {
      attested: enclave.attested,
      path: started.path,
      status: started.response.status,
      paid: started.response.headers.get("payment-response") !== null,
      wireBody: Object.keys(started.body).sort(),
      answer: result.answer,
      references: Array.isArray(result.references),
    };
  }, stack.testWallets[2]!.privateKey);

  expect(outcome.attested).toBe(false);
  // Chromium has X25519 in WebCrypto: the fast path sealed it.
  expect(outcome.path).toBe("webcrypto");
  expect(outcome.paid).toBe(true);
  // What crossed the wire was sealed; the answer exists in clear only in the page.
  expect(outcome.status === 200 ? outcome.wireBody : []).not.toContain("answer");
  expect(outcome.answer.length).toBeGreaterThan(0);
  // A ChatResult opened in the page (the demo's local library may be empty: then it cites nothing).
  expect(outcome.references).toBe(true);
});
