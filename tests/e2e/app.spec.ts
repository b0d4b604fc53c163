import { expect, test, type Page } from "@playwright/test";
import { buildChatReference, buildQueuedChatResult } from "../support/builders";

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

const chat = (page: Page) => page.locator("#tabpanel-chat");

async function ask(page: Page, question: string) {
  await chat(page).getByLabel("Your question").fill(question);
  await chat(page).getByRole("button", { name: "Pay and ask" }).click();
}

test("literature search: two tags in fanout show per-tag coverage, the results and the sources used", async ({ page }, testInfo) => {
  await useTestWallet(page);
  await page.getByRole("tab", { name: "Literature search" }).click();
  const panel = page.locator("#tabpanel-literature");
  await expect(panel.getByTestId("price-note")).toContainText("$0.03");
  await panel.getByLabel("Your question").fill("Does rapamycin extend lifespan in mice?");
  await panel.getByLabel("Add tags").fill("rapamycin, metformin");
  await panel.getByRole("button", { name: "Add tag" }).click();
  await expect(panel.getByRole("list", { name: "Tags" })).toContainText("metformin");
  await panel.getByLabel(/Each on its own \(fanout\)/).check();
  await panel.getByRole("button", { name: "Pay and search" }).click();
  await expect(panel.getByTestId("literature-results")).toBeVisible({ timeout: 120_000 });
  const coverage = panel.getByTestId("tag-coverage");
  await expect(coverage).toContainText("rapamycin");
  await expect(coverage).toContainText("metformin");
  await expect(panel.getByTestId("sources-used")).toContainText(/local/i);
  await expect(panel.getByTestId("evidence-row").first()).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath("literature.png"), fullPage: true });
});

test("deep research: a paid run shows its turns, its cited reply and the world state", async ({ page }, testInfo) => {
  test.setTimeout(180_000);
  await useTestWallet(page);
  await page.getByRole("tab", { name: "Deep research" }).click();
  const panel = page.locator("#tabpanel-research");
  await expect(panel.getByTestId("price-note")).toContainText("$1.00");
  await panel.getByLabel("Your research question").fill("rapamycin and lifespan in mice");
  await panel.getByRole("button", { name: "Pay and start research" }).click();
  const turns = panel.getByTestId("research-turns");
  await expect(turns.getByTestId("research-turn").first()).toBeVisible({ timeout: 60_000 });
  // The reply is released once the run is done and its payment settled (the poll settles it).
  await expect(turns.getByTestId("answer").first()).toBeVisible({ timeout: 150_000 });
  await expect(turns.getByTestId("answer").first().locator("a.marker").first()).toBeVisible();
  await expect(panel.getByTestId("world-state")).toContainText(/rapamycin/i);
  await expect(page.getByTestId("payment-history")).toContainText("$1.00");
  await expect(page.getByTestId("payment-history")).toContainText("settled on delivery");
  await page.screenshot({ path: testInfo.outputPath("deep-research.png"), fullPage: true });
});

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
  // The answer opens with its bottom line, shown as the verdict, and each reference says what the study was.
  await expect(answer.getByTestId("verdict")).toHaveText(/^The evidence (supports it|contradicts it|is mixed|is insufficient)$/);
  await expect(answer.getByTestId("answer-text")).toContainText(/^Bottom line: /);
  await expect(page.locator(target).getByTestId("study-snapshot")).toContainText(/^Study: /);
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
  await injectWallet(page, { chainId: "0x7a69", sign: "reject" });
  await page.goto("/");
  await page.getByRole("button", { name: "Connect wallet" }).click();
  await expect(page.getByTestId("payer-address")).toHaveText("0x1111111111111111111111111111111111111111");
  await ask(page, "Does rapamycin extend lifespan?");
  await expect(page.getByTestId("error-note")).toContainText("You declined the signature, so nothing was paid.");

  // The agent down: the gateway answers 502 before any payment is asked for.
  await page.route("**/api/chat", (route) =>
    route.fulfill({ status: 502, contentType: "application/json", body: JSON.stringify({ error: "Upstream API is unreachable", reason: "upstream_unreachable" }) }),
  );
  await chat(page).getByRole("button", { name: "Pay and ask" }).click();
  await expect(page.getByTestId("error-note")).toContainText("The research agent cannot be reached right now.");
  await expect(page.getByTestId("error-note")).toContainText("Nothing was charged");

  await page.unroute("**/api/chat");
  await page.route("**/api/chat", (route) =>
    route.fulfill({ status: 429, contentType: "application/json", headers: { "retry-after": "42" }, body: JSON.stringify({ error: "Too many requests" }) }),
  );
  await chat(page).getByRole("button", { name: "Pay and ask" }).click();
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

/** An injected EIP-1193 wallet in the page: records calls; `sign` decides what signing does. */
async function injectWallet(page: Page, { chainId, sign, refuseSwitch = false }: { chainId: string; sign: "reject" | "fail"; refuseSwitch?: boolean }) {
  await page.addInitScript(
    ({ startChain, signMode, noSwitch }) => {
      const account = "0x1111111111111111111111111111111111111111";
      let chain = startChain;
      const known = new Set([startChain]);
      const listeners: Record<string, ((...args: unknown[]) => void)[]> = {};
      const emit = (event: string, value: unknown) => (listeners[event] ?? []).forEach((fn) => fn(value));
      const calls: { method: string; params: unknown }[] = [];
      (window as unknown as { walletCalls: typeof calls }).walletCalls = calls;
      // The person switches the wallet to another network by hand.
      (window as unknown as { moveWallet: (to: string) => void }).moveWallet = (to: string) => {
        known.add(to);
        chain = to;
        emit("chainChanged", to);
      };
      (window as unknown as { ethereum: unknown }).ethereum = {
        isMetaMask: true,
        request: async ({ method, params }: { method: string; params?: unknown[] }) => {
          calls.push({ method, params });
          if (method === "eth_requestAccounts" || method === "eth_accounts") return [account];
          if (method === "eth_chainId") return chain;
          if (method === "wallet_requestPermissions" || method === "wallet_getPermissions") return [{ parentCapability: "eth_accounts" }];
          if (method === "wallet_switchEthereumChain") {
            if (noSwitch) throw Object.assign(new Error("User rejected the request."), { code: 4001 });
            const wanted = (params?.[0] as { chainId: string }).chainId;
            if (!known.has(wanted)) throw Object.assign(new Error("Unrecognized chain"), { code: 4902 });
            chain = wanted;
            emit("chainChanged", chain);
            return null;
          }
          if (method === "wallet_addEthereumChain") {
            const added = (params?.[0] as { chainId: string }).chainId;
            known.add(added);
            chain = added;
            emit("chainChanged", chain);
            return null;
          }
          if (method.startsWith("eth_signTypedData")) {
            if (signMode === "reject") throw Object.assign(new Error("User rejected the request."), { code: 4001 });
            throw Object.assign(new Error("Internal error"), { code: -32603 });
          }
          throw Object.assign(new Error(`unsupported ${method}`), { code: 4200 });
        },
        on: (event: string, fn: (...args: unknown[]) => void) => void (listeners[event] ??= []).push(fn),
        removeListener: (event: string, fn: (...args: unknown[]) => void) => void (listeners[event] = (listeners[event] ?? []).filter((f) => f !== fn)),
      };
    },
    { startChain: chainId, signMode: sign, noSwitch: refuseSwitch },
  );
}

test("a wallet on another network is switched to the local chain, which it is first asked to add", async ({ page }) => {
  await injectWallet(page, { chainId: "0x1", sign: "reject" });
  await page.goto("/");
  await page.getByRole("button", { name: "Connect wallet" }).click();
  await expect(page.getByTestId("payer-address")).toHaveText("0x1111111111111111111111111111111111111111");
  const calls = await page.evaluate(() => (window as unknown as { walletCalls: { method: string; params: unknown }[] }).walletCalls);
  const added = calls.find((c) => c.method === "wallet_addEthereumChain");
  expect(added?.params).toEqual([expect.objectContaining({ chainId: "0x7a69" })]);
  expect(await page.evaluate(() => (window as unknown as { ethereum: { request: (a: { method: string }) => Promise<string> } }).ethereum.request({ method: "eth_chainId" }))).toBe("0x7a69");
});

test("insufficient funds and an expired authorization are said plainly, with what to do", async ({ page }) => {
  await useTestWallet(page);
  // The first request reaches the gateway (its real 402); the paid retry is answered as the
  // gateway answers a refused payment.
  let reason = "insufficient_funds";
  await page.route("**/api/chat", async (route) => {
    if (!route.request().headers()["payment-signature"]) return route.continue();
    const unpaid = await route.fetch({ headers: { ...route.request().headers(), "payment-signature": "" } });
    const required = (await unpaid.json()) as Record<string, unknown>;
    await route.fulfill({ status: 402, contentType: "application/json", body: JSON.stringify({ ...required, error: reason, reason }) });
  });
  await ask(page, "Does rapamycin extend lifespan?");
  await expect(page.getByTestId("error-note")).toContainText("This wallet does not hold enough USDC for this request.");
  reason = "authorization_expired";
  await chat(page).getByRole("button", { name: "Pay and ask" }).click();
  await expect(page.getByTestId("error-note")).toContainText("The payment authorization expired before it was used.");
});

test("keyboard only: choose the test wallet, ask, and reach the answer's first reference", async ({ page }) => {
  await page.goto("/");
  await page.getByTestId("use-test-wallet").focus();
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("payer-address")).toBeVisible();
  await chat(page).getByLabel("Your question").focus();
  await page.keyboard.type("Does rapamycin extend lifespan in mice?");
  await page.keyboard.press("Tab");
  await page.keyboard.press("Enter");
  const marker = page.getByTestId("answer").locator("a.marker").first();
  await expect(marker).toBeVisible({ timeout: 60_000 });
  await marker.focus();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/#chat-ref-\d+$/);
});

test("no layout shift while a chat answer is being polled", async ({ page }) => {
  await useTestWallet(page);
  await page.evaluate(() => {
    const w = window as unknown as { shifts: { value: number; at: number }[]; progressAt?: number; answerAt?: number };
    w.shifts = [];
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[]) {
        if (!entry.hadRecentInput) w.shifts.push({ value: entry.value, at: entry.startTime });
      }
    }).observe({ type: "layout-shift", buffered: false });
    // The window measured is marked in the page itself, when the DOM changes (not when the test
    // notices): from the progress appearing to the answer replacing it (that one change is expected).
    new MutationObserver(() => {
      if (w.progressAt === undefined && document.querySelector('[data-testid="progress"]')) w.progressAt = performance.now();
      if (w.answerAt === undefined && document.querySelector('[data-testid="answer"]')) w.answerAt = performance.now();
    }).observe(document.body, { childList: true, subtree: true });
  });
  // Slow the agent's answer down so several polls happen while the progress is shown.
  let polls = 0;
  await page.route("**/api/chat/status/*", async (route) => {
    polls++;
    if (polls < 4) return route.fulfill({ status: 200, contentType: "application/json", body: JSON.stringify({ status: "active", progress: { stage: "literature", percent: polls * 20 } }) });
    return route.continue();
  });
  await ask(page, "Does rapamycin extend lifespan in mice?");
  await expect(page.getByTestId("progress")).toContainText(/Searching PubMed/);
  await expect(page.getByTestId("answer")).toBeVisible({ timeout: 60_000 });
  expect(polls).toBeGreaterThanOrEqual(4);
  const shift = await page.evaluate(() => {
    const w = window as unknown as { shifts: { value: number; at: number }[]; progressAt: number; answerAt: number };
    return w.shifts.filter((s) => s.at >= w.progressAt && s.at < w.answerAt).reduce((a, s) => a + s.value, 0);
  });
  expect(shift).toBeLessThan(0.01);
});

test("the status page shows the live health report; the phone layout of the home page is readable", async ({ page }, testInfo) => {
  await page.goto("/status");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Status");
  await expect(page.getByTestId("health-overall")).toHaveText(/^(healthy|degraded|down)$/);
  await expect(page.getByTestId("health-private-mode")).toContainText("enclave not attested");
  await page.screenshot({ path: testInfo.outputPath("status.png"), fullPage: true });

  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/");
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await page.screenshot({ path: testInfo.outputPath("home-phone.png"), fullPage: true });
});

test("text from the literature is rendered as text: a hostile title or URL neither runs nor links", async ({ page }) => {
  await useTestWallet(page);
  const hostile = '<img src=x onerror="window.__pwned=1">Rapamycin <b>trial</b>';
  // The answer as a compromised source could shape it, within the contract (the page reads answers
  // with the contract's schemas, so only a well-formed one reaches the view); the page must show it, inert.
  const result = buildQueuedChatResult({
    answer: `Evidence [1] <script>window.__pwned=2</script>`,
    // No PMID or DOI: the hostile URL is the only address the reference has.
    references: [buildChatReference({ title: hostile, url: "javascript:window.__pwned=3", pmid: null, doi: null, evidenceType: "preclinical", verification: "unknown", confidence: 0.3, roleReason: "<i>why</i>" })],
    rejectedReferences: [],
  });
  await page.route("**/api/chat/status/*", (route) =>
    route.fulfill({ status: 200, contentType: "application/json", body: JSON.stringify({ status: "completed", result }) }),
  );
  await ask(page, "Does rapamycin extend lifespan?");
  const answer = page.getByTestId("answer");
  await expect(answer).toBeVisible({ timeout: 60_000 });
  await expect(answer.getByTestId("answer-text")).toContainText("<script>window.__pwned=2</script>");
  await expect(answer.getByTestId("references")).toContainText(hostile);
  await expect(answer.locator("img, script, b, i")).toHaveCount(0);
  await expect(answer.locator('a[href^="javascript:"]')).toHaveCount(0);
  expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
});

test("private literature search and private deep research run sealed from the page", async ({ page }, testInfo) => {
  test.setTimeout(180_000);
  await useTestWallet(page);
  await page.getByTestId("private-switch").click();
  await expect(page.getByTestId("enclave-status")).toBeVisible();
  await page.getByTestId("create-recovery-key").click();
  await page.getByRole("button", { name: "I have saved it" }).click();

  await page.getByRole("tab", { name: "Literature search" }).click();
  const literature = page.locator("#tabpanel-literature");
  await expect(literature.getByTestId("price-note")).toContainText("sealed end to end");
  const sealedStart = page.waitForResponse((r) => r.url().endsWith("/api/literature/encrypted") && r.status() === 202);
  await literature.getByLabel("Your question").fill("Does rapamycin extend lifespan in mice?");
  await literature.getByRole("button", { name: "Pay and search" }).click();
  expect(Object.keys((await (await sealedStart).json()) as object).sort()).toEqual(["pollUrl", "requestId", "status"]);
  await expect(literature.getByTestId("evidence-row").first()).toBeVisible({ timeout: 60_000 });

  await page.getByRole("tab", { name: "Deep research" }).click();
  const research = page.locator("#tabpanel-research");
  await research.getByLabel("Your research question").fill("rapamycin and lifespan in mice");
  await research.getByRole("button", { name: "Pay and start research" }).click();
  await expect(research.getByTestId("answer").first()).toBeVisible({ timeout: 150_000 });
  await expect(research.getByTestId("world-state")).toContainText(/rapamycin/i);
  await page.screenshot({ path: testInfo.outputPath("private-research.png"), fullPage: true });
});

test("deep research that outlives its payment authorization says so: timeout, nothing charged, start again", async ({ page }) => {
  await useTestWallet(page);
  // The gateway's answer once the authorization expired before the run finished (docs/payments.md).
  await page.route("**/api/deep-research/*", (route) => {
    if (route.request().method() !== "GET") return route.continue();
    const conversationId = new URL(route.request().url()).pathname.split("/").pop()!;
    return route.fulfill({
      status: 200,
      contentType: "application/json",
      body: JSON.stringify({
        conversationId,
        status: "timeout",
        sessionStatus: "The payment authorization expired before the research finished; nothing was charged",
        worldState: null,
        turns: [],
      }),
    });
  });
  await page.getByRole("tab", { name: "Deep research" }).click();
  const panel = page.locator("#tabpanel-research");
  await panel.getByLabel("Your research question").fill("rapamycin and lifespan in mice");
  await panel.getByRole("button", { name: "Pay and start research" }).click();
  await expect(panel.getByTestId("error-note")).toContainText("The payment authorization expired before the research finished, so nothing was charged.", { timeout: 30_000 });
  await expect(panel.getByTestId("error-note")).toContainText("Start again");
});

test("a wallet moved to another network after connecting is asked back; refusing says so, and nothing is paid", async ({ page }) => {
  await injectWallet(page, { chainId: "0x7a69", sign: "reject", refuseSwitch: true });
  await page.goto("/");
  await page.getByRole("button", { name: "Connect wallet" }).click();
  await expect(page.getByTestId("payer-address")).toBeVisible();
  await page.evaluate(() => (window as unknown as { moveWallet: (to: string) => void }).moveWallet("0x1"));
  await ask(page, "Does rapamycin extend lifespan?");
  await expect(page.getByTestId("error-note")).toContainText("The wallet is not on Local chain (Hardhat), so nothing was paid.");
  await expect(page.getByTestId("error-note")).toContainText("Switch the wallet to that network");
  const calls = await page.evaluate(() => (window as unknown as { walletCalls: { method: string }[] }).walletCalls.map((c) => c.method));
  expect(calls).toContain("wallet_switchEthereumChain");
  expect(calls.some((m) => m.startsWith("eth_signTypedData"))).toBe(false);
});

test("a reload during a paid chat resumes following it: what was paid for is not lost", async ({ page }) => {
  await useTestWallet(page);
  await page.route("**/api/chat/status/*", (route) =>
    route.fulfill({ status: 200, contentType: "application/json", body: JSON.stringify({ status: "active", progress: { stage: "literature", percent: 20 } }) }),
  );
  await ask(page, "Does rapamycin extend lifespan in mice?");
  await expect(page.getByTestId("progress")).toContainText("Searching PubMed");
  await page.unroute("**/api/chat/status/*");
  await page.reload();
  await expect(chat(page).getByTestId("answer")).toBeVisible({ timeout: 60_000 });
  // Done: a further reload has nothing to resume.
  await page.reload();
  await expect(chat(page).getByTestId("progress")).toHaveCount(0);
});

test("chat gives up after 60 s with a Retry that keeps following the paid request", async ({ page }) => {
  await page.clock.install();
  await useTestWallet(page);
  await page.route("**/api/chat/status/*", (route) =>
    route.fulfill({ status: 200, contentType: "application/json", body: JSON.stringify({ status: "active", progress: { stage: "thinking", percent: 80 } }) }),
  );
  await ask(page, "Does rapamycin extend lifespan in mice?");
  // The agent's "thinking" stage, in words.
  await expect(page.getByTestId("progress")).toContainText("Writing the cited answer");
  await page.clock.runFor(62_000);
  const note = chat(page).getByTestId("error-note");
  await expect(note).toContainText("No answer after 60 s.");
  await expect(note).toContainText("Retry to keep waiting");
  await page.unroute("**/api/chat/status/*");
  await note.getByRole("button", { name: "Retry" }).click();
  await page.clock.runFor(2_000);
  await expect(chat(page).getByTestId("answer")).toBeVisible({ timeout: 30_000 });
});
