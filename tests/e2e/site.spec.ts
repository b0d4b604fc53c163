import type { Page } from "@playwright/test";
import { expect, test } from "./support/test";
import { PHONE } from "./support/projects";
import { HomePage } from "./pages/home";

/** Page-level details: the favicon, the 404 under the CSP, the tabs on a phone, and the recovery key's confirmations. */

function consoleProblems(page: Page): string[] {
  const problems: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error" || /Content Security Policy/i.test(m.text())) problems.push(m.text());
  });
  page.on("pageerror", (e) => problems.push(e.message));
  return problems;
}

test("every page has a favicon: /favicon.ico is served, and the page links its icon", async ({ page, request }) => {
  const icon = await request.get("/favicon.ico");
  expect(icon.status()).toBe(200);
  expect(icon.headers()["content-type"]).toMatch(/image\/(x-icon|vnd\.microsoft\.icon)/);
  const home = new HomePage(page);
  await home.goto();
  const href = await page.locator('link[rel="icon"]').first().getAttribute("href");
  expect(href).toBeTruthy();
  expect((await request.get(href!)).status()).toBe(200);
});

test("an unknown page is a styled 404 under the page's CSP, with a link home and no console errors", async ({ page }, testInfo) => {
  const problems = consoleProblems(page);
  const response = (await page.goto("/no-such-page"))!;
  expect(response.status()).toBe(404);
  expect(response.headers()["content-security-policy"]).toMatch(/script-src 'self' 'nonce-/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("This page does not exist");
  // Styled: the stylesheet applied (the page's own background and font), which a blocked one would not.
  expect(await page.evaluate(() => getComputedStyle(document.body.parentElement!).backgroundColor)).toBe("rgb(251, 250, 247)");
  await page.waitForLoadState("networkidle");
  await page.screenshot({ path: testInfo.outputPath("not-found.png"), fullPage: true });
  expect(problems.filter((p) => !/404 \(Not Found\)/.test(p))).toEqual([]);
  await page.getByRole("link", { name: "Go to the Longevity Research Agent" }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Longevity Research Agent");
});

test("an unknown library record is the same 404", async ({ page }) => {
  const response = (await page.goto("/library/records/00000000-0000-4000-8000-000000000000"))!;
  expect(response.status()).toBe(404);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("This page does not exist");
});

test("the three tabs fit on one row, on a phone too", PHONE, async ({ page }) => {
  const home = new HomePage(page);
  await home.goto();
  await expect(home.tabs).toHaveCount(3);
  const boxes = await home.tabs.evaluateAll((tabs) => tabs.map((t) => t.getBoundingClientRect()).map((r) => ({ top: r.top, right: r.right })));
  expect(new Set(boxes.map((b) => Math.round(b.top))).size).toBe(1);
  const width = await page.evaluate(() => document.documentElement.clientWidth);
  for (const b of boxes) expect(b.right).toBeLessThanOrEqual(width);
});

test("replacing or forgetting a recovery key asks first; Forget is styled as the destructive action", async ({ page }) => {
  await page.goto("/");
  await page.getByTestId("private-switch").click();
  await expect(page.getByTestId("enclave-status")).toBeVisible();
  const privateMode = page.getByTestId("private-mode");
  await page.getByTestId("create-recovery-key").click(); // none in use yet: created at once
  const first = await page.getByTestId("recovery-key-shown").locator("code").textContent();
  await page.getByRole("button", { name: "I have saved it" }).click();

  // Replacing asks; keeping it changes nothing.
  await page.getByTestId("create-recovery-key").click();
  const confirm = page.getByTestId("recovery-key-confirm");
  await expect(confirm).toContainText("Replace the recovery key in use?");
  await confirm.getByRole("button", { name: "Keep it" }).click();
  await expect(confirm).toHaveCount(0);
  await expect(page.getByTestId("recovery-key-shown")).toHaveCount(0);
  // Replacing, confirmed, makes a new key.
  await page.getByTestId("create-recovery-key").click();
  await confirm.getByRole("button", { name: "Replace it" }).click();
  const second = await page.getByTestId("recovery-key-shown").locator("code").textContent();
  expect(second).toMatch(/^longevity_key_v1_/);
  expect(second).not.toBe(first);
  await page.getByRole("button", { name: "I have saved it" }).click();

  // Forget looks destructive (red on white, unlike the other buttons) and asks first.
  await page.mouse.move(0, 0); // not hovering it (hovered, it turns white on red)
  const forget = page.getByTestId("forget-recovery-key");
  const [forgetColor, exportColor] = await Promise.all([forget.evaluate((b) => getComputedStyle(b).color), privateMode.getByRole("button", { name: "Export", exact: true }).evaluate((b) => getComputedStyle(b).color)]);
  expect(forgetColor).toBe("rgb(179, 38, 30)");
  expect(exportColor).not.toBe(forgetColor);
  await forget.click();
  await expect(confirm).toContainText("Forget the recovery key?");
  await confirm.getByRole("button", { name: "Forget it" }).click();
  await expect(privateMode).toContainText("No recovery key: private chats are not kept.");
});
