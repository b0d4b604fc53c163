import type { Page } from "@playwright/test";
import { expect, test } from "./support/test";
import { ResearchAppPage } from "./pages/research-app";

/**
 * A sealed answer opens only with a key held in the page's memory: leaving the page while a sealed
 * request is in flight (paid, its answer not opened yet) loses what was paid for, so the page asks
 * first (beforeunload), and stops asking once the answer is opened. Plain requests are remembered
 * for the tab and followed again after a reload, so they leave without asking.
 */

const QUESTION = "Does rapamycin extend lifespan in mice?";

/** Every dialog the page raises, dismissed (a dismissed beforeunload keeps the page open). */
function dismissDialogs(page: Page): string[] {
  const seen: string[] = [];
  page.on("dialog", (dialog) => {
    seen.push(dialog.type());
    void dialog.dismiss();
  });
  return seen;
}

/** A gate for held requests: they wait until `open()` is called. */
function gate(): { held: Promise<void>; open: () => void } {
  let open!: () => void;
  const held = new Promise<void>((resolve) => (open = resolve));
  return { held, open };
}

/** Closing the page runs its beforeunload handlers; without a prompt the page is simply closed. */
async function closesWithoutAsking(page: Page, prompts: string[]): Promise<void> {
  const before = prompts.length;
  await page.close({ runBeforeUnload: true });
  await expect.poll(() => page.isClosed()).toBe(true);
  expect(prompts.length).toBe(before);
}

test("a sealed literature search in flight asks before the page is left; once its answer is opened it does not", async ({ page }, testInfo) => {
  const app = new ResearchAppPage(page);
  const prompts = dismissDialogs(page);
  await app.useTestWallet();
  await app.switchPrivateOn();
  await app.fillQuestion("literature", QUESTION);
  // The sealed status poll is held: the search is paid and in flight, its answer not opened yet.
  const { held, open } = gate();
  await page.route("**/api/literature/encrypted/status/**", async (route) => {
    await held;
    await route.continue();
  });
  const polled = page.waitForRequest("**/api/literature/encrypted/status/**");
  await app.payButton("literature").click();
  await app.confirmSpend("literature");
  await polled;

  await page.close({ runBeforeUnload: true });
  await expect.poll(() => prompts).toEqual(["beforeunload"]);
  expect(page.isClosed()).toBe(false);
  await page.screenshot({ path: testInfo.outputPath("sealed-search-kept-open.png"), fullPage: true });

  // Staying was worth it: the paid answer arrives and is opened here.
  open();
  await expect(app.panel("literature").getByTestId("evidence-row").first()).toBeVisible({ timeout: 60_000 });
  await page.screenshot({ path: testInfo.outputPath("sealed-search-opened.png"), fullPage: true });
  await closesWithoutAsking(page, prompts);
});

test("a sealed chat asks before the page is left from the moment it is signed until its answer is opened", async ({ page }) => {
  const app = new ResearchAppPage(page);
  const prompts = dismissDialogs(page);
  await app.useTestWallet();
  await app.switchPrivateOn();
  await app.fillQuestion("chat", QUESTION);
  // The paid (signed) request itself is held: its answer comes back in its response.
  const { held, open } = gate();
  await page.route("**/api/chat/encrypted", async (route) => {
    if (route.request().headers()["payment-signature"]) await held;
    await route.continue();
  });
  const signed = page.waitForRequest((r) => r.url().endsWith("/api/chat/encrypted") && r.headers()["payment-signature"] !== undefined);
  await app.payButton("chat").click();
  await signed;

  await page.close({ runBeforeUnload: true });
  await expect.poll(() => prompts).toEqual(["beforeunload"]);
  open();
  await expect(app.panel("chat").getByTestId("answer")).toBeVisible({ timeout: 60_000 });
  await closesWithoutAsking(page, prompts);
});

test("sealed deep research asks before the page is left while it runs, and no longer once it has ended", async ({ page }) => {
  const app = new ResearchAppPage(page);
  const prompts = dismissDialogs(page);
  await app.useTestWallet();
  await app.switchPrivateOn({ recoveryKey: true });
  await app.fillQuestion("research", "rapamycin and lifespan in mice");
  // The sealed poll is held, then answered as a run that failed: an end, nothing left to open.
  const { held, open } = gate();
  await page.route("**/api/deep-research/encrypted/status/**", async (route) => {
    await held;
    await route.fulfill({ status: 200, contentType: "application/json", body: JSON.stringify({ status: "failed", error: "stopped by the test" }) });
  });
  const polled = page.waitForRequest("**/api/deep-research/encrypted/status/**");
  await app.payButton("research").click();
  await app.confirmSpend("research");
  await polled;

  await page.close({ runBeforeUnload: true });
  await expect.poll(() => prompts).toEqual(["beforeunload"]);
  open();
  await expect(app.panel("research").getByTestId("error-note")).toContainText("stopped by the test");
  await closesWithoutAsking(page, prompts);
});

test("a plain literature search in flight leaves without asking, and a reload follows it again", async ({ page }, testInfo) => {
  test.setTimeout(180_000);
  const app = new ResearchAppPage(page);
  const prompts = dismissDialogs(page);
  await app.useTestWallet();
  await app.fillQuestion("literature", QUESTION);
  // The job is reported as running until the page has been reloaded.
  await page.route("**/api/literature/jobs/*", (route) =>
    route.fulfill({ status: 200, contentType: "application/json", body: JSON.stringify({ status: "running" }) }),
  );
  await app.payButton("literature").click();
  await app.confirmSpend("literature");
  await expect(app.panel("literature").getByTestId("progress")).toContainText(/^Searching .+, then judging each reference/);

  // Reloaded while the job still reads as running (unrouted first, the old page could fetch the
  // results before the reload on a busy machine, leaving nothing to follow), then let through.
  await page.reload();
  await app.openTab("literature");
  await expect(app.panel("literature").getByTestId("resume-banner")).toContainText(QUESTION);
  await page.unroute("**/api/literature/jobs/*");
  await expect(app.panel("literature").getByTestId("literature-results")).toBeVisible({ timeout: 120_000 });
  expect(prompts).toEqual([]);
  await page.screenshot({ path: testInfo.outputPath("plain-search-resumed.png"), fullPage: true });
  // Done: a further reload has nothing to follow.
  await page.reload();
  await app.openTab("literature");
  await expect(app.panel("literature").getByTestId("progress")).toHaveCount(0);
  expect(prompts).toEqual([]);
});
