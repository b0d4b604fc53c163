import { expect, test } from "@playwright/test";
import { HomePage } from "./pages/home";

test("the home page lists the operations with their prices and shows live health", async ({ page }, testInfo) => {
  const home = new HomePage(page);
  await home.goto();

  await expect(home.priceOf("Start deep research")).toHaveText("$1.00");
  await expect(home.priceOf("Start chat")).toHaveText("$0.02");
  await expect(home.priceOf("Start literature search")).toHaveText("$0.03");
  await expect(home.priceOf("Start encrypted chat")).toHaveText("$0.02");

  // The health report arrives from /api/health after the page loads (SWR).
  await expect(home.overall).toHaveText(/^(healthy|degraded|down)$/);
  await expect(home.component("database")).toContainText("Database");
  await expect(home.component("database").locator(".badge")).toHaveText("healthy");
  await expect(home.component("upstreamApi")).toContainText("Research agent");
  await expect(home.component("upstreamApi").locator(".badge")).toHaveText(/^(healthy|degraded|down)$/);
  await expect(home.health).toContainText("eip155:31337");

  await page.screenshot({ path: testInfo.outputPath("home.png"), fullPage: true });
});

test("the health report stays live", async ({ page }) => {
  const home = new HomePage(page);
  await home.goto();
  const first = await page.waitForResponse((r) => r.url().endsWith("/api/health"));
  expect([200, 503]).toContain(first.status());
  // SWR polls every few seconds: a second request arrives without a reload.
  const second = await page.waitForResponse((r) => r.url().endsWith("/api/health"), { timeout: 15_000 });
  expect([200, 503]).toContain(second.status());
});
