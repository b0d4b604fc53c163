import { expect, test } from "./support/test";
import { PHONE } from "./support/projects";
import { DevelopersPage } from "./pages/developers";
import { HomePage, StatusPage } from "./pages/home";

test("the home page is for researchers: no route tables, an honest promise, links to the developer and status pages", PHONE, async ({ page }, testInfo) => {
  const home = new HomePage(page);
  await home.goto();
  // The promise says what an answer delivers: every marker leads to a study, graded, verified where it could be.
  await expect(home.lead).toContainText("each [N] marker of an answer leads to the study it cites");
  await expect(home.lead).toContainText("whether it could be verified at its source");
  await expect(home.lead).not.toContainText("verified reference");
  // Routes, polling and the upstream address are on /developers, not here.
  await expect(page.locator("main")).not.toContainText("/api/");
  // The only table is the sample answer's evidence table.
  await expect(page.getByRole("table")).toHaveCount(await home.sample.getByRole("table").count());
  await expect(home.sample.getByRole("table")).toHaveCount(1);
  await expect(home.developersLink).toHaveAttribute("href", "/developers");
  await expect(home.statusLink).toHaveAttribute("href", "/status");
  await page.screenshot({ path: testInfo.outputPath("home.png"), fullPage: true });
});

test("an agent starting at the base URL is told where the service describes itself: Link header and <head> links", async ({ page, request }) => {
  const response = await request.get("/");
  const link = response.headers()["link"] ?? "";
  expect(link).toContain('</llms.txt>; rel="describedby"; type="text/markdown"');
  expect(link).toContain('</api/openapi.json>; rel="service-desc"');
  expect(link).toContain('</.well-known/x402.json>; rel="describedby"');
  await page.goto("/");
  await expect(page.locator('head link[rel="alternate"][type="text/markdown"]')).toHaveAttribute("href", /\/llms\.txt$/);
  await expect(page.locator('head link[rel="service-desc"]')).toHaveAttribute("href", "/api/openapi.json");
  // What the links point at is served.
  for (const path of ["/llms.txt", "/api/openapi.json", "/.well-known/x402.json"]) expect((await request.get(path)).status(), path).toBe(200);
});

test("/developers lists the routes with their prices, polling and the OpenAPI document, with examples for @x402/fetch and curl", async ({ page }, testInfo) => {
  const developers = new DevelopersPage(page);
  await developers.goto();
  await expect(developers.priceOf("Start deep research")).toHaveText("$1.00");
  await expect(developers.priceOf("Start chat")).toHaveText("$0.02");
  await expect(developers.priceOf("Start literature search")).toHaveText("$0.03");
  await expect(developers.priceOf("Start encrypted chat")).toHaveText("$0.02");
  await expect(developers.freeRoutes).toContainText("GET /api/literature/jobs/{jobId}");
  await expect(developers.polling).toContainText("GET /api/chat/status/{requestId}");
  await expect(developers.openApiLink).toHaveAttribute("href", "/api/openapi.json");
  const fetchExample = developers.example("TypeScript example with @x402/fetch");
  await expect(fetchExample).toContainText('import { wrapFetchWithPayment } from "@x402/fetch";');
  // The example names this deployment: its origin and its network.
  await expect(fetchExample).toContainText(`const BASE = "${new URL(page.url()).origin}"`);
  await expect(fetchExample).toContainText('.register("eip155:31337"');
  await expect(developers.example("curl examples")).toContainText("curl -si -X POST");
  await page.screenshot({ path: testInfo.outputPath("developers.png"), fullPage: true });
});

test("the status page shows the live health report, which stays live", async ({ page }) => {
  // The page's timers run on a clock the test can move: its next refresh is brought on, not waited for.
  await page.clock.install();
  const status = new StatusPage(page);
  const first = page.waitForResponse((r) => r.url().endsWith("/api/health"));
  await status.goto();
  expect([200, 503]).toContain((await first).status());
  await expect(status.overall).toHaveText(/^(healthy|degraded|down)$/);
  await expect(status.component("database").locator(".badge")).toHaveText("healthy");
  await expect(status.component("upstreamApi")).toContainText("Research agent");
  await expect(status.health).toContainText("eip155:31337");
  // SWR polls every few seconds: a second request arrives without a reload once they have passed.
  const second = page.waitForResponse((r) => r.url().endsWith("/api/health"), { timeout: 15_000 });
  await page.clock.runFor(10_000);
  expect([200, 503]).toContain((await second).status());
});
