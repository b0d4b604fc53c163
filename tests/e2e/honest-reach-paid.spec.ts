import type { Page } from "@playwright/test";
import { expect, test } from "./support/test";

/**
 * Honest reach when paying, in the web app: the literature panel shows the sources that failed
 * from the typed `failedSources` (never by reading the search log), and a 503
 * literature_unavailable is said in words with nothing paid. Desktop only, like the other paid
 * flows (playwright.config.ts): the phone project checks layout, not payment logic.
 */

async function useTestWallet(page: Page) {
  await page.goto("/");
  await page.getByTestId("use-test-wallet").click();
  await expect(page.getByTestId("payer-address")).toHaveText(/^0x[0-9a-fA-F]{40}$/);
}

test("the literature panel names the failed sources from the typed values, not from the search log", async ({ page }) => {
  await useTestWallet(page);
  // The finished job as the service would give it with PubMed down: typed failedSources, and a
  // search-log line about Crossref that the page must not turn into a failure.
  await page.route(/\/api\/literature\/jobs\/[^/]+$/, async (route) => {
    const response = await route.fetch();
    const body = (await response.json()) as Record<string, unknown>;
    if (body.status !== "completed") return route.fulfill({ response });
    return route.fulfill({
      response,
      json: {
        ...body,
        fallbackUsed: true,
        effectiveSources: ["europepmc", "local"],
        failedSources: [{ source: "pubmed", kind: "unreachable" }],
        reasoning: [...((body.reasoning as string[] | undefined) ?? []), "crossref failed (timeout); its results are missing, the others stand."],
      },
    });
  });
  await page.getByRole("tab", { name: "Literature search" }).click();
  const panel = page.locator("#tabpanel-literature");
  await panel.getByLabel("Your question").fill("Does rapamycin extend lifespan in mice?");
  await panel.getByRole("button", { name: "Pay and search" }).click();
  await panel.getByTestId("spend-confirm").getByRole("button", { name: /^Pay \$/ }).click();
  await expect(panel.getByTestId("literature-results")).toBeVisible({ timeout: 120_000 });
  const failed = panel.getByTestId("failed-sources");
  await expect(failed).toContainText("PubMed could not be reached; these results come from Europe PMC and the local library.");
  await expect(failed.locator("li")).toHaveCount(1);
  await expect(failed.locator("li[data-kind=unreachable]")).toContainText("PubMed");
  await expect(failed).not.toContainText("Crossref");
});

test("a 503 literature_unavailable is said in words, with the sources that fail, and nothing is paid", async ({ page }) => {
  await useTestWallet(page);
  let attempts = 0;
  await page.route(/\/api\/literature$/, async (route) => {
    attempts++;
    expect(route.request().headers()["payment-signature"]).toBeUndefined();
    await route.fulfill({
      status: 503,
      headers: { "retry-after": "30" },
      json: {
        error: "literature_unavailable",
        reason: "no_source_reachable",
        message: "No literature source can answer right now: PubMed and Europe PMC are failing and the local library is empty.",
        failedSources: [
          { source: "pubmed", kind: "circuit_open" },
          { source: "europepmc", kind: "circuit_open" },
        ],
        retryAfterSeconds: 30,
      },
    });
  });
  await page.getByRole("tab", { name: "Literature search" }).click();
  const panel = page.locator("#tabpanel-literature");
  await panel.getByLabel("Your question").fill("Does rapamycin extend lifespan in mice?");
  await panel.getByRole("button", { name: "Pay and search" }).click();
  await panel.getByTestId("spend-confirm").getByRole("button", { name: /^Pay \$/ }).click();
  const note = panel.getByTestId("error-note");
  await expect(note).toContainText("No literature source can answer right now: PubMed and Europe PMC are failing");
  await expect(note).toContainText("Nothing was charged. Try again in 30 s.");
  expect(attempts).toBe(1);
  await expect(page.locator('[data-testid="payment-history"]:has-text("$0.03")')).toHaveCount(0);
});
