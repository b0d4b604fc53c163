import { expect, test, type Page } from "@playwright/test";

/**
 * The web app against the whole local stack (chain, facilitator, agent with the demo's local
 * library, gateway), paying with the demo's local test wallet. Screenshots of each main screen are
 * saved as test artifacts (test-results/e2e/…).
 */

async function useTestWallet(page: Page) {
  await page.goto("/");
  await page.getByTestId("use-test-wallet").click();
  await expect(page.getByTestId("payer-address")).toHaveText(/^0x[0-9a-fA-F]{40}$/);
  await expect(page.getByTestId("balance")).toContainText("USDC");
}

async function ask(page: Page, question: string) {
  await page.getByLabel("Your question").fill(question);
  await page.getByRole("button", { name: "Pay and ask" }).click();
}

test("chat: the test wallet pays, progress shows, and the answer's markers link to its references", async ({ page }, testInfo) => {
  await useTestWallet(page);
  await expect(page.getByTestId("price-note").first()).toContainText("$0.02");
  await ask(page, "Does rapamycin extend lifespan in mice?");
  const answer = page.getByTestId("answer");
  await expect(answer).toBeVisible({ timeout: 60_000 });
  const marker = answer.locator("a.marker").first();
  await expect(marker).toHaveText(/^\[\d+\]$/);
  const target = (await marker.getAttribute("href"))!;
  await expect(page.locator(target)).toBeVisible();
  await expect(page.locator(target)).toContainText(/confidence \d+%/);
  // The payment is in this wallet's history.
  await expect(page.getByTestId("payment-history")).toContainText("$0.02");
  await page.screenshot({ path: testInfo.outputPath("chat.png"), fullPage: true });
});

test("private chat: sealed in the browser; the gateway's response holds only ciphertext", async ({ page }, testInfo) => {
  await useTestWallet(page);
  await page.getByTestId("private-switch").click(); // checked once the enclave key is fetched and checked
  await expect(page.getByTestId("enclave-status")).toContainText("not attested");
  await expect(page.getByTestId("price-note").first()).toContainText("sealed end to end");
  const wire = page.waitForResponse((r) => r.url().endsWith("/api/chat/encrypted") && r.request().method() === "POST" && r.status() !== 402);
  await ask(page, "Does rapamycin extend lifespan in mice?");
  const response = await wire;
  const body = (await response.json()) as Record<string, unknown>;
  expect(Object.keys(body)).toEqual(expect.arrayContaining(["hpke_response_ciphertext", "hpke_response_ephemeral_key"]));
  expect(JSON.stringify(body)).not.toMatch(/rapamycin/i);
  await expect(page.getByTestId("answer")).toBeVisible({ timeout: 60_000 });
  await expect(page.getByTestId("answer-text")).not.toBeEmpty();
  await page.screenshot({ path: testInfo.outputPath("private-chat.png"), fullPage: true });
});

test("a recovery key is created, shown once with a copy button, and can be kept in the browser", async ({ page }) => {
  await page.goto("/");
  await page.getByTestId("private-switch").click();
  await page.getByTestId("create-recovery-key").click();
  await expect(page.getByTestId("recovery-key-shown").locator("code")).toHaveText(/^longevity_key_v1_[A-Za-z0-9_-]{43}$/);
  await page.getByRole("button", { name: "I have saved it" }).click();
  await expect(page.getByTestId("recovery-key-shown")).toHaveCount(0);
  await page.getByLabel("Keep it in this browser").check();
  await page.reload();
  await page.getByTestId("private-switch").click();
  await expect(page.getByTestId("private-mode")).toContainText("kept in this browser");
});

test("failure states: a declined signature, the agent down (502) and too many requests (429) each say what to do", async ({ page }) => {
  // A browser wallet that connects but declines to sign (EIP-1193 error 4001).
  await page.addInitScript(() => {
    const account = "0x1111111111111111111111111111111111111111";
    const listeners: Record<string, ((...args: unknown[]) => void)[]> = {};
    (window as unknown as { ethereum: unknown }).ethereum = {
      isMetaMask: true,
      request: async ({ method }: { method: string }) => {
        if (method === "eth_requestAccounts" || method === "eth_accounts") return [account];
        if (method === "eth_chainId") return "0x7a69";
        if (method === "net_version") return "31337";
        if (method === "wallet_switchEthereumChain" || method === "wallet_addEthereumChain") return null;
        if (method === "wallet_requestPermissions") return [{ parentCapability: "eth_accounts" }];
        if (method === "wallet_getPermissions") return [{ parentCapability: "eth_accounts" }];
        if (method.startsWith("eth_signTypedData")) throw Object.assign(new Error("User rejected the request."), { code: 4001 });
        throw Object.assign(new Error(`unsupported ${method}`), { code: 4200 });
      },
      on: (event: string, fn: (...args: unknown[]) => void) => void (listeners[event] ??= []).push(fn),
      removeListener: (event: string, fn: (...args: unknown[]) => void) => void (listeners[event] = (listeners[event] ?? []).filter((f) => f !== fn)),
    };
  });
  await page.goto("/");
  await page.getByRole("button", { name: "Connect wallet" }).click();
  await expect(page.getByTestId("payer-address")).toHaveText("0x1111111111111111111111111111111111111111");
  await ask(page, "Does rapamycin extend lifespan?");
  await expect(page.getByTestId("error-note")).toContainText("You declined the signature, so nothing was paid.");

  // The agent down: the gateway answers 502 before any payment is asked for.
  await page.route("**/api/chat", (route) =>
    route.fulfill({ status: 502, contentType: "application/json", body: JSON.stringify({ error: "Upstream API is unreachable", reason: "upstream_unreachable" }) }),
  );
  await page.getByRole("button", { name: "Pay and ask" }).click();
  await expect(page.getByTestId("error-note")).toContainText("The research agent cannot be reached right now.");
  await expect(page.getByTestId("error-note")).toContainText("Nothing was charged");

  await page.unroute("**/api/chat");
  await page.route("**/api/chat", (route) =>
    route.fulfill({ status: 429, contentType: "application/json", headers: { "retry-after": "42" }, body: JSON.stringify({ error: "Too many requests" }) }),
  );
  await page.getByRole("button", { name: "Pay and ask" }).click();
  await expect(page.getByTestId("error-note")).toContainText("Too many requests right now. Try again in 42 s.");
});

test("the page is served under a strict nonce-based Content Security Policy and raises no violation", async ({ page }) => {
  const violations: string[] = [];
  page.on("console", (m) => {
    if (/Content Security Policy/i.test(m.text())) violations.push(m.text());
  });
  const response = (await page.goto("/"))!;
  const policy = response.headers()["content-security-policy"] ?? "";
  expect(policy).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]+' 'strict-dynamic'/);
  expect(policy).not.toContain("unsafe-inline");
  expect(policy).toContain("object-src 'none'");
  expect(policy).toContain("frame-ancestors 'none'");
  await page.getByTestId("use-test-wallet").click();
  await expect(page.getByTestId("balance")).toContainText("USDC");
  expect(violations).toEqual([]);
});

test("weight: the home page loads at most 300 KB of compressed JavaScript, and no wallet code until it is needed", async ({ page }, testInfo) => {
  const scripts = new Map<string, number>();
  page.on("requestfinished", async (request) => {
    if (request.resourceType() !== "script") return;
    const sizes = await request.sizes();
    scripts.set(request.url(), sizes.responseBodySize);
  });
  await page.goto("/");
  await page.waitForLoadState("networkidle");
  const initial = [...scripts.values()].reduce((a, b) => a + b, 0);
  const initialUrls = new Set(scripts.keys());
  testInfo.annotations.push({ type: "home page JavaScript (compressed)", description: `${(initial / 1024).toFixed(1)} KB in ${initialUrls.size} files` });
  console.log(`home page JavaScript: ${(initial / 1024).toFixed(1)} KB compressed in ${initialUrls.size} files`);
  expect(initial).toBeLessThanOrEqual(300 * 1024);

  // The wallet code (viem, wagmi, the x402 client) arrives only when someone chooses to pay.
  await page.getByTestId("use-test-wallet").click();
  await expect(page.getByTestId("balance")).toContainText("USDC");
  await page.waitForLoadState("networkidle");
  const later = [...scripts.entries()].filter(([url]) => !initialUrls.has(url)).reduce((a, [, size]) => a + size, 0);
  console.log(`wallet code loaded on demand: ${(later / 1024).toFixed(1)} KB compressed`);
  expect(later).toBeGreaterThan(30 * 1024);
});
