import { ownStack } from "./support/stacks";
import { expect, test } from "./support/test";
import { runAsk } from "./support/stack";

// What agents on other origins see of the API, through the real server (next.config headers).

test("a CORS preflight of a paid route allows PAYMENT-SIGNATURE and exposes the x402 headers", async ({ request }) => {
  const response = await request.fetch("/api/chat", {
    method: "OPTIONS",
    headers: {
      Origin: "https://agent.example",
      "Access-Control-Request-Method": "POST",
      "Access-Control-Request-Headers": "payment-signature, content-type",
    },
  });
  expect(response.status()).toBe(204);
  const headers = response.headers();
  expect(headers["access-control-allow-origin"]).toBe("*");
  expect(headers["access-control-allow-headers"]).toMatch(/PAYMENT-SIGNATURE/i);
  expect(headers["access-control-expose-headers"]).toMatch(/PAYMENT-REQUIRED/);
  expect(headers["access-control-expose-headers"]).toMatch(/PAYMENT-RESPONSE/);
});

test("a CORS preflight of the wallet history allows SIGN-IN-WITH-X and DELETE, and admits no credentials", async ({ request }) => {
  const response = await request.fetch("/api/history/0f8fad5b-d9cb-469f-a165-70867728950e", {
    method: "OPTIONS",
    headers: { Origin: "https://agent.example", "Access-Control-Request-Method": "DELETE", "Access-Control-Request-Headers": "sign-in-with-x" },
  });
  expect(response.status()).toBe(204);
  const headers = response.headers();
  expect(headers["access-control-allow-origin"]).toBe("*");
  expect(headers["access-control-allow-credentials"]).toBeUndefined();
  expect(headers["access-control-allow-headers"]).toMatch(/SIGN-IN-WITH-X/i);
  expect(headers["access-control-allow-methods"]).toMatch(/DELETE/);
  expect(headers["access-control-expose-headers"]).toMatch(/PAYMENT-REQUIRED/);
});

test("an unpaid chat request gets 402 with the requirements in the body and the PAYMENT-REQUIRED header", async ({ request }) => {
  const response = await request.post("/api/chat", { data: { message: "Does rapamycin extend lifespan?" } });
  expect(response.status()).toBe(402);
  const body = await response.json();
  expect(body).toMatchObject({ x402Version: 2, accepts: [{ scheme: "exact", network: "eip155:31337", amount: "20000" }] });
  const header = JSON.parse(Buffer.from(response.headers()["payment-required"]!, "base64").toString("utf8"));
  // The header carries what a client and an indexer need (docs/payments.md, "Headers that fit"):
  // the body's version, resource and requirements; the full discovery schemas stay in the body.
  expect({ x402Version: header.x402Version, error: header.error, resource: header.resource, accepts: header.accepts }).toEqual({
    x402Version: body.x402Version,
    error: body.error,
    resource: body.resource,
    accepts: body.accepts,
  });
  expect(response.headers()["access-control-allow-origin"]).toBe("*");
});

/** Runs `npm run ask` against this worker's demo (support/stacks.ts), for its wallets. */
const ask = (args: string[], env: Record<string, string> = {}) => runAsk(ownStack().baseURL, args, env);

test("npm run ask -- chat --private pays for a sealed question and opens the sealed answer locally", async () => {
  const { code, stdout, stderr } = await ask(["chat", "--private", "--json", "--recovery-key", "new", "Does rapamycin extend lifespan in mice?"]);
  expect(code, stderr).toBe(0);
  expect(stderr).toMatch(/Recovery key .*longevity_key_v1_/);
  expect(stderr).toMatch(/Paying 0\.02 USDC/);
  expect(stderr).toMatch(/not attested/);
  const result = JSON.parse(stdout);
  expect(typeof result.answer).toBe("string");
  expect(Array.isArray(result.references)).toBe(true);
});

test("npm run ask -- literature --private and deep-research --private: sealed, paid, followed and opened locally", async () => {
  test.setTimeout(180_000);
  const literature = await ask(["literature", "--private", "--json", "rapamycin lifespan mice"]);
  expect(literature.code, literature.stderr).toBe(0);
  expect(literature.stderr).toMatch(/Paying 0\.03 USDC/);
  expect(JSON.parse(literature.stdout)).toMatchObject({ status: "completed" });

  const research = await ask(["deep-research", "--private", "--json", "rapamycin and lifespan in mice"]);
  expect(research.code, research.stderr).toBe(0);
  expect(research.stderr).toMatch(/Recovery key .*longevity_key_v1_/); // created, since none was given
  expect(research.stderr).toMatch(/Paying 1 USDC/);
  const result = JSON.parse(research.stdout);
  expect(typeof result.reply).toBe("string");
  expect(result.worldState).toBeTruthy();
});

test("a client that trusts an enclave repository refuses the local, unattested enclave key before paying: by flag or by variable", async () => {
  const byFlag = await ask(["chat", "--private", "--enclave-repo", "longevity-research/enclave", "Does rapamycin extend lifespan?"]);
  expect(byFlag.code).not.toBe(0);
  expect(byFlag.stderr).toMatch(/not_attested: .*longevity-research\/enclave/);
  expect(byFlag.stderr).not.toMatch(/Paying/);
  const byVariable = await ask(["chat", "--private", "Does rapamycin extend lifespan?"], { TRUSTED_ENCLAVE_REPO: "longevity-research/enclave" });
  expect(byVariable.code).not.toBe(0);
  expect(byVariable.stderr).toMatch(/not_attested: .*longevity-research\/enclave/);
  expect(byVariable.stderr).not.toMatch(/Paying/);
});

test("a client that requires attestation but trusts no enclave repository is told to configure one, before paying", async () => {
  const { code, stderr } = await ask(["chat", "--private", "--require-attestation", "Does rapamycin extend lifespan?"]);
  expect(code).not.toBe(0);
  expect(stderr).toMatch(/no_trusted_repo: .*--enclave-repo/);
  expect(stderr).not.toMatch(/Paying/);
});
