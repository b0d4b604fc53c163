import { expect, test } from "./support/test";
import { buildChatReference, buildQueuedChatResult } from "../support/builders";
import { AnswerPage } from "./pages/answer";
import { StatusPage } from "./pages/home";
import { ChatPanelPage, LiteraturePanelPage, ResearchPanelPage } from "./pages/panels";
import { ResearchAppPage } from "./pages/research-app";
import { injectScriptedWallet, moveWallet, SCRIPTED_ACCOUNT, walletCalls, walletChain } from "./support/scripted-wallet";

/**
 * The web app against the whole local stack (chain, facilitator, agent with the demo's local
 * library, gateway), paying with the demo's local test wallet. Screenshots of each main screen are
 * saved as test artifacts (test-results/e2e/…).
 */

const LOCAL_CHAIN = "0x7a69";
const json = (body: unknown) => ({ status: 200, contentType: "application/json", body: JSON.stringify(body) });

test("literature search: two tags in fanout show per-tag coverage, the results and the sources used", async ({ page }, testInfo) => {
  const app = new ResearchAppPage(page);
  const literature = new LiteraturePanelPage(page);
  await app.useTestWallet();
  await literature.open();
  await expect(literature.priceNote).toContainText("$0.03");
  await literature.question.fill("Does rapamycin extend lifespan in mice?");
  await literature.addTags("rapamycin, metformin");
  await literature.chooseFanout();
  await literature.pay.click();
  // $0.03, more than a chat: asked first, naming the price.
  await expect(app.panel("literature").getByTestId("spend-confirm")).toContainText("$0.03");
  await literature.confirmSpend();
  await expect(literature.results).toBeVisible({ timeout: 120_000 });
  await expect(literature.coverage).toContainText("rapamycin");
  await expect(literature.coverage).toContainText("metformin");
  await expect(literature.sourcesUsed).toContainText(/local/i);
  await expect(literature.evidenceRows.first()).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath("literature.png"), fullPage: true });
});

test("deep research: a paid run shows its turns, its cited reply and the world state", async ({ page }, testInfo) => {
  test.setTimeout(180_000);
  const app = new ResearchAppPage(page);
  const research = new ResearchPanelPage(page);
  await app.useTestWallet();
  await research.open();
  await expect(research.priceNote).toContainText("$1.00");
  await research.research("rapamycin and lifespan in mice");
  await expect(research.turns.first()).toBeVisible({ timeout: 60_000 });
  // The reply is released once the run is done and its payment settled (the poll settles it).
  await expect(research.answers.first()).toBeVisible({ timeout: 150_000 });
  await expect(research.answers.first().locator("a.marker").first()).toBeVisible();
  await expect(research.worldState).toContainText(/rapamycin/i);
  await expect(app.paymentHistory).toContainText("$1.00");
  await expect(app.paymentHistory).toContainText("settled on delivery");
  await page.screenshot({ path: testInfo.outputPath("deep-research.png"), fullPage: true });
});

test("chat: the test wallet pays, progress shows, and the answer's markers link to its references", async ({ page }, testInfo) => {
  const app = new ResearchAppPage(page);
  const chat = new ChatPanelPage(page);
  const answer = new AnswerPage(page, chat.root);
  await app.useTestWallet();
  await expect(chat.priceNote).toContainText("$0.02");
  await chat.ask("Does rapamycin extend lifespan in mice?");
  await expect(chat.answer).toBeVisible({ timeout: 60_000 });
  await expect(chat.firstMarker).toHaveText(/^\[\d+\]$/);
  const ordinal = Number((await chat.firstMarker.textContent())!.slice(1, -1));
  const target = answer.row(ordinal);
  await expect(target).toBeVisible();
  await expect(target).toContainText(/confidence \d+%/);
  // The answer opens with its bottom line, shown as the verdict, and each reference says what the study was.
  await expect(answer.verdict).toHaveText(/^The evidence (supports it|contradicts it|leans toward it|leans against it|is mixed|is insufficient)$/);
  // Said once: in its card, the heading naming the verdict and the answer's own bottom-line paragraph
  // going on from there (not restating it); not again in the text below.
  await expect(answer.bottomLine.getByTestId("bottom-line-statement")).toHaveText(/\w/);
  await expect(answer.bottomLine.getByTestId("bottom-line-statement")).not.toHaveText(/^The evidence (supports|contradicts|leans|is mixed)/);
  await expect(chat.answer.getByTestId("answer-text")).not.toContainText("Bottom line");
  await expect(target.getByTestId("study-snapshot")).toContainText(/^Study: /);
  // The payment is in this wallet's history.
  await expect(app.paymentHistory).toContainText("$0.02");
  await page.screenshot({ path: testInfo.outputPath("chat.png"), fullPage: true });
});

test("private chat: sealed in the browser; the gateway's response holds only ciphertext", async ({ page }, testInfo) => {
  const app = new ResearchAppPage(page);
  const chat = new ChatPanelPage(page);
  await app.useTestWallet();
  await app.switchPrivateOn();
  await expect(app.enclaveStatus).toContainText("not attested");
  await expect(chat.priceNote).toContainText("sealed end to end");
  const wire = page.waitForResponse((r) => r.url().endsWith("/api/chat/encrypted") && r.request().method() === "POST" && r.status() !== 402);
  await chat.ask("Does rapamycin extend lifespan in mice?");
  const body = (await (await wire).json()) as Record<string, unknown>;
  expect(Object.keys(body)).toEqual(expect.arrayContaining(["hpke_response_ciphertext", "hpke_response_ephemeral_key"]));
  expect(JSON.stringify(body)).not.toMatch(/rapamycin/i);
  await expect(chat.answer).toBeVisible({ timeout: 60_000 });
  await expect(chat.answer.getByTestId("answer-text")).not.toBeEmpty();
  await page.screenshot({ path: testInfo.outputPath("private-chat.png"), fullPage: true });
});

test("a recovery key is created, shown once with a copy button, and can be kept in the browser", async ({ page }) => {
  const app = new ResearchAppPage(page);
  await page.goto("/");
  await app.privateSwitch.click();
  await page.getByTestId("create-recovery-key").click();
  await expect(page.getByTestId("recovery-key-shown").locator("code")).toHaveText(/^longevity_key_v1_[A-Za-z0-9_-]{43}$/);
  await page.getByRole("button", { name: "I have saved it" }).click();
  await expect(page.getByTestId("recovery-key-shown")).toHaveCount(0);
  await page.getByLabel("Keep it in this browser").check();
  await page.reload();
  await app.privateSwitch.click();
  await expect(app.privateMode).toContainText("kept in this browser");
});

test("failure states: a declined signature, the agent down (502) and too many requests (429) each say what to do", async ({ page }) => {
  const app = new ResearchAppPage(page);
  const chat = new ChatPanelPage(page);
  // A browser wallet that connects but declines to sign (EIP-1193 error 4001).
  await injectScriptedWallet(page, { chainId: LOCAL_CHAIN, sign: "reject" });
  await app.connectWallet(SCRIPTED_ACCOUNT);
  await chat.ask("Does rapamycin extend lifespan?");
  await expect(chat.errorNote).toContainText("You declined the signature, so nothing was paid.");

  // The agent down: the gateway answers 502 before any payment is asked for.
  await page.route("**/api/chat", (route) => route.fulfill({ ...json({ error: "Upstream API is unreachable", reason: "upstream_unreachable" }), status: 502 }));
  await chat.payAgain();
  await expect(chat.errorNote).toContainText("The research agent cannot be reached right now.");
  await expect(chat.errorNote).toContainText("Nothing was charged");

  await page.unroute("**/api/chat");
  await page.route("**/api/chat", (route) => route.fulfill({ ...json({ error: "Too many requests" }), status: 429, headers: { "retry-after": "42" } }));
  await chat.payAgain();
  await expect(chat.errorNote).toContainText("Too many requests right now. Try again in 42 s.");
});

test("the page is served under a strict nonce-based Content Security Policy and raises no violation", async ({ page }) => {
  const app = new ResearchAppPage(page);
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
  await expect(app.balance).toContainText("USDC");
  expect(violations).toEqual([]);
});

test("weight: the home page loads at most 300 KB of compressed JavaScript, and no wallet code until it is needed", async ({ page }, testInfo) => {
  const app = new ResearchAppPage(page);
  const scripts = new Map<string, number>();
  // Each script's size is read asynchronously after it finished: the figures wait for every read.
  const reads: Promise<void>[] = [];
  page.on("requestfinished", (request) => {
    if (request.resourceType() !== "script") return;
    reads.push(request.sizes().then((sizes) => void scripts.set(request.url(), sizes.responseBodySize)));
  });
  await page.goto("/");
  await page.waitForLoadState("networkidle");
  await Promise.all(reads);
  const initial = [...scripts.values()].reduce((a, b) => a + b, 0);
  const initialUrls = new Set(scripts.keys());
  testInfo.annotations.push({ type: "home page JavaScript (compressed)", description: `${(initial / 1024).toFixed(1)} KB in ${initialUrls.size} files` });
  console.log(`home page JavaScript: ${(initial / 1024).toFixed(1)} KB compressed in ${initialUrls.size} files`);
  expect(initial).toBeLessThanOrEqual(300 * 1024);

  // The wallet code (viem, wagmi, the x402 client) arrives only when someone chooses to pay.
  await page.getByTestId("use-test-wallet").click();
  await expect(app.balance).toContainText("USDC");
  await page.waitForLoadState("networkidle");
  await Promise.all(reads);
  const later = [...scripts.entries()].filter(([url]) => !initialUrls.has(url)).reduce((a, [, size]) => a + size, 0);
  console.log(`wallet code loaded on demand: ${(later / 1024).toFixed(1)} KB compressed`);
  expect(later).toBeGreaterThan(30 * 1024);
});

test("a wallet on another network is switched to the local chain, which it is first asked to add", async ({ page }) => {
  const app = new ResearchAppPage(page);
  await injectScriptedWallet(page, { chainId: "0x1", sign: "reject" });
  await app.connectWallet(SCRIPTED_ACCOUNT);
  const added = (await walletCalls(page)).find((c) => c.method === "wallet_addEthereumChain");
  expect(added?.params).toEqual([expect.objectContaining({ chainId: LOCAL_CHAIN })]);
  expect(await walletChain(page)).toBe(LOCAL_CHAIN);
});

test("insufficient funds and an expired authorization are said plainly, with what to do", async ({ page }) => {
  const app = new ResearchAppPage(page);
  const chat = new ChatPanelPage(page);
  await app.useTestWallet();
  // The first request reaches the gateway (its real 402); the paid retry is answered as the
  // gateway answers a refused payment.
  let reason = "insufficient_funds";
  await page.route("**/api/chat", async (route) => {
    if (!route.request().headers()["payment-signature"]) return route.continue();
    const unpaid = await route.fetch({ headers: { ...route.request().headers(), "payment-signature": "" } });
    const required = (await unpaid.json()) as Record<string, unknown>;
    await route.fulfill({ ...json({ ...required, error: reason, reason }), status: 402 });
  });
  await chat.ask("Does rapamycin extend lifespan?");
  await expect(chat.errorNote).toContainText("This wallet does not hold enough USDC for this request.");
  reason = "authorization_expired";
  await chat.payAgain();
  await expect(chat.errorNote).toContainText("The payment authorization expired before it was used.");
});

test("keyboard only: choose the test wallet, ask, and reach the answer's first reference", async ({ page }) => {
  const app = new ResearchAppPage(page);
  const chat = new ChatPanelPage(page);
  await page.goto("/");
  await page.getByTestId("use-test-wallet").focus();
  await page.keyboard.press("Enter");
  await expect(app.payerAddress).toBeVisible();
  await chat.question.focus();
  await page.keyboard.type("Does rapamycin extend lifespan in mice?");
  await page.keyboard.press("Tab");
  await page.keyboard.press("Enter");
  await expect(chat.firstMarker).toBeVisible({ timeout: 60_000 });
  await chat.firstMarker.focus();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/#chat-ref-\d+$/);
});

test("no layout shift while a chat answer is being polled", async ({ page }) => {
  const app = new ResearchAppPage(page);
  const chat = new ChatPanelPage(page);
  await app.useTestWallet();
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
    if (polls < 4) return route.fulfill(json({ status: "active", progress: { stage: "literature", percent: polls * 20 } }));
    return route.continue();
  });
  await chat.ask("Does rapamycin extend lifespan in mice?");
  await expect(chat.progress).toContainText(/Searching PubMed/);
  await expect(chat.answer).toBeVisible({ timeout: 60_000 });
  expect(polls).toBeGreaterThanOrEqual(4);
  const shift = await page.evaluate(() => {
    const w = window as unknown as { shifts: { value: number; at: number }[]; progressAt: number; answerAt: number };
    return w.shifts.filter((s) => s.at >= w.progressAt && s.at < w.answerAt).reduce((a, s) => a + s.value, 0);
  });
  expect(shift).toBeLessThan(0.01);
});

test("the status page shows the live health report; the phone layout of the home page is readable", async ({ page }, testInfo) => {
  const status = new StatusPage(page);
  await status.goto();
  await expect(status.overall).toHaveText(/^(healthy|degraded|down)$/);
  await expect(page.getByTestId("health-private-mode")).toContainText("enclave not attested");
  await page.screenshot({ path: testInfo.outputPath("status.png"), fullPage: true });

  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/");
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await page.screenshot({ path: testInfo.outputPath("home-phone.png"), fullPage: true });
});

test("text from the literature is rendered as text: a hostile title or URL neither runs nor links", async ({ page }) => {
  const app = new ResearchAppPage(page);
  const chat = new ChatPanelPage(page);
  const answer = new AnswerPage(page, chat.root);
  await app.useTestWallet();
  const hostile = '<img src=x onerror="window.__pwned=1">Rapamycin <b>trial</b>';
  // The answer as a compromised source could shape it, within the contract (the page reads answers
  // with the contract's schemas, so only a well-formed one reaches the view); the page must show it, inert.
  const result = buildQueuedChatResult({
    answer: `Evidence [1] <script>window.__pwned=2</script>`,
    // No PMID or DOI: the hostile URL is the only address the reference has.
    references: [buildChatReference({ title: hostile, url: "javascript:window.__pwned=3", pmid: null, doi: null, evidenceType: "preclinical", verification: "unknown", confidence: 0.3, roleReason: "<i>why</i>" })],
    rejectedReferences: [],
  });
  await page.route("**/api/chat/status/*", (route) => route.fulfill(json({ status: "completed", result })));
  await chat.ask("Does rapamycin extend lifespan?");
  await expect(chat.answer).toBeVisible({ timeout: 60_000 });
  await expect(chat.answer.getByTestId("answer-text")).toContainText("<script>window.__pwned=2</script>");
  await expect(answer.table).toContainText(hostile);
  await expect(chat.answer.locator("img, script, b, i")).toHaveCount(0);
  await expect(chat.answer.locator('a[href^="javascript:"]')).toHaveCount(0);
  expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
});

test("private literature search and private deep research run sealed from the page", async ({ page }, testInfo) => {
  test.setTimeout(180_000);
  const app = new ResearchAppPage(page);
  const literature = new LiteraturePanelPage(page);
  const research = new ResearchPanelPage(page);
  await app.useTestWallet();
  await app.switchPrivateOn({ recoveryKey: true });

  await literature.open();
  await expect(literature.priceNote).toContainText("sealed end to end");
  const sealedStart = page.waitForResponse((r) => r.url().endsWith("/api/literature/encrypted") && r.status() === 202);
  await literature.search("Does rapamycin extend lifespan in mice?");
  expect(Object.keys((await (await sealedStart).json()) as object).sort()).toEqual(["pollUrl", "requestId", "status"]);
  await expect(literature.evidenceRows.first()).toBeVisible({ timeout: 60_000 });

  await research.research("rapamycin and lifespan in mice");
  await expect(research.root.getByTestId("answer").first()).toBeVisible({ timeout: 150_000 });
  await expect(research.worldState).toContainText(/rapamycin/i);
  await page.screenshot({ path: testInfo.outputPath("private-research.png"), fullPage: true });
});

test("deep research that outlives its payment authorization says so: timeout, nothing charged, start again", async ({ page }) => {
  const app = new ResearchAppPage(page);
  const research = new ResearchPanelPage(page);
  await app.useTestWallet();
  // The gateway's answer once the authorization expired before the run finished (docs/payments.md).
  await page.route("**/api/deep-research/*", (route) => {
    if (route.request().method() !== "GET") return route.continue();
    const conversationId = new URL(route.request().url()).pathname.split("/").pop()!;
    return route.fulfill(
      json({ conversationId, status: "timeout", sessionStatus: "The payment authorization expired before the research finished; nothing was charged", worldState: null, turns: [] }),
    );
  });
  await research.research("rapamycin and lifespan in mice");
  await expect(research.errorNote).toContainText("The payment authorization expired before the research finished, so nothing was charged.", { timeout: 30_000 });
  await expect(research.errorNote).toContainText("Start again");
  // Nothing to continue, and the question is back in the box to start again in one click.
  await expect(research.question).toHaveValue("rapamycin and lifespan in mice");
});

test("a wallet moved to another network after connecting is asked back; refusing says so, and nothing is paid", async ({ page }) => {
  const app = new ResearchAppPage(page);
  const chat = new ChatPanelPage(page);
  await injectScriptedWallet(page, { chainId: LOCAL_CHAIN, sign: "reject", refuseSwitch: true });
  await app.connectWallet(SCRIPTED_ACCOUNT);
  await moveWallet(page, "0x1");
  await chat.ask("Does rapamycin extend lifespan?");
  await expect(chat.errorNote).toContainText("The wallet is not on Local chain (Hardhat), so nothing was paid.");
  await expect(chat.errorNote).toContainText("Switch the wallet to that network");
  const calls = (await walletCalls(page)).map((c) => c.method);
  expect(calls).toContain("wallet_switchEthereumChain");
  expect(calls.some((m) => m.startsWith("eth_signTypedData"))).toBe(false);
});

test("a reload during a paid chat resumes following it: what was paid for is not lost", async ({ page }) => {
  const app = new ResearchAppPage(page);
  const chat = new ChatPanelPage(page);
  await app.useTestWallet();
  await page.route("**/api/chat/status/*", (route) => route.fulfill(json({ status: "active", progress: { stage: "literature", percent: 20 } })));
  await chat.ask("Does rapamycin extend lifespan in mice?");
  await expect(chat.progress).toContainText("Searching PubMed");
  // Reloaded while the job still reads as running: unrouted before the reload, the old page could
  // fetch the answer first (it did on a busy machine), leaving nothing to resume.
  await page.reload();
  await expect(chat.resumeBanner).toContainText("Does rapamycin extend lifespan in mice?");
  await page.unroute("**/api/chat/status/*");
  await expect(chat.answer).toBeVisible({ timeout: 60_000 });
  // Done: a further reload has nothing to resume.
  await page.reload();
  await expect(chat.progress).toHaveCount(0);
});

test("chat gives up after 60 s with a Retry that keeps following the paid request", async ({ page }) => {
  const app = new ResearchAppPage(page);
  const chat = new ChatPanelPage(page);
  await page.clock.install();
  await app.useTestWallet();
  await page.route("**/api/chat/status/*", (route) => route.fulfill(json({ status: "active", progress: { stage: "thinking", percent: 80 } })));
  await chat.ask("Does rapamycin extend lifespan in mice?");
  // The agent's "thinking" stage, in words.
  await expect(chat.progress).toContainText("Writing the cited answer");
  await page.clock.runFor(62_000);
  await expect(chat.errorNote).toContainText("No answer after 60 s.");
  await expect(chat.errorNote).toContainText("Retry to keep waiting");
  await page.unroute("**/api/chat/status/*");
  await chat.errorNote.getByRole("button", { name: "Retry" }).click();
  await page.clock.runFor(2_000);
  await expect(chat.answer).toBeVisible({ timeout: 30_000 });
});
