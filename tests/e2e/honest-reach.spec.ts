import { expect, test } from "./support/test";

/**
 * Honest reach in the web app: /status shows each literature source's state (on desktop and phone);
 * the paid flows (failed sources named from the typed values, a 503 said in words with nothing
 * paid) are in honest-reach-paid.spec.ts, which runs in the desktop project only.
 */

test("the status page shows each literature source's state and whether any can answer", async ({ page }) => {
  await page.goto("/status");
  const sources = page.getByTestId("health-sources");
  for (const [id, name] of [
    ["pubmed", "PubMed"],
    ["europepmc", "Europe PMC"],
    ["local", "The local library"],
  ] as const) {
    const row = sources.getByTestId(`health-source-${id}`);
    await expect(row).toContainText(name);
    await expect(row).toHaveAttribute("data-circuit", /^(closed|open|half_open)$/);
  }
  await expect(page.getByTestId("health-literature")).toContainText(/local library (holds records|empty)/);
});
