import type { Page } from "@playwright/test";
import { expect, test } from "./support/test";
import { PHONE } from "./support/projects";
import { AnswerPage } from "./pages/answer";
import { ChatPanelPage, ThreadPage } from "./pages/panels";
import { ResearchAppPage } from "./pages/research-app";

/**
 * The evidence table says true things in plain words, on real answers from the demo's library
 * (tests/fixtures/library/designs.jsonl: a cohort study and a trial whose design is named only in
 * their own words, and a study whose intervention the abstract gives only as "maximal feasible
 * dosages of acarbose"), at the project's width. Every grade keeps its tooltip, the legend stays
 * one click away.
 */

async function ask(page: Page, question: string): Promise<AnswerPage> {
  const chat = new ChatPanelPage(page);
  await chat.ask(question);
  await expect(new ThreadPage(page).entry(question)).toHaveAttribute("data-status", "done", { timeout: 60_000 });
  return new AnswerPage(page, chat.root);
}

/** Every grade of a row explains itself on hover. */
async function expectTooltips(answer: AnswerPage) {
  const grades = answer.rows.locator("td:not([data-label='Reference']) span[title]");
  expect(await grades.count()).toBeGreaterThanOrEqual(3);
  for (const title of await grades.evaluateAll((els) => els.map((e) => e.getAttribute("title") ?? ""))) expect(title.length).toBeGreaterThan(20);
}

test("a cohort study and a trial named only in their own words say their design; a broken intervention is left out, never cut mid-phrase", PHONE, async ({ page }, testInfo) => {
  test.setTimeout(180_000);
  await new ResearchAppPage(page).useTestWallet();

  await test.step("“two cohorts … followed for a median of nine years”: an observational study", async () => {
    const answer = await ask(page, "Does urolithin A improve grip strength in older adults?");
    const row = answer.rows.filter({ hasText: "Dietary urolithin A and grip strength" });
    await expect(answer.cell(row, "Design")).toHaveText("Observational");
    await expectTooltips(answer);
  });

  await test.step("“a 12-week trial … double-blind … or placebo”: a controlled trial, not “Design not stated”", async () => {
    const answer = await ask(page, "Does nicotinamide riboside improve walking speed in older adults?");
    const row = answer.rows.filter({ hasText: "Nicotinamide riboside and walking speed" });
    await expect(answer.cell(row, "Design")).toHaveText("Controlled trial");
    await answer.table.scrollIntoViewIfNeeded();
    await page.screenshot({ path: testInfo.outputPath(`evidence-trial-${testInfo.project.name}.png`) });
  });

  await test.step("“treated with maximal feasible dosages of acarbose”: no “Study: maximal feasible dosages of —”", async () => {
    const answer = await ask(page, "Does acarbose extend lifespan in mice?");
    const row = answer.rows.filter({ hasText: "Late-life survival of genetically heterogeneous mice" });
    const study = row.getByTestId("study-snapshot");
    await expect(study).toBeVisible();
    await expect(study).not.toContainText(/\b(of|with|to|and|the|a|an|in|for|on|by)\s*—/);
    await expect(study).not.toContainText("maximal feasible dosages of —");
    await expectTooltips(answer);
    await answer.openLegend();
    await expect(answer.legend).toContainText("Design not stated");
  });
});

test("candidates set aside say why as a person would (“does not study …”), never “lead only: off topic”", async ({ page }) => {
  await new ResearchAppPage(page).useTestWallet();
  const answer = await ask(page, "Does metformin slow aging in mice?");
  const shown = answer.root.getByRole("button", { name: /Show \d+ rejected candidate/ });
  if ((await shown.count()) > 0) await shown.click();
  const text = await answer.root.innerText();
  expect(text).not.toMatch(/lead only: off topic/i);
  expect(text).not.toMatch(/\boff topic:/i);
  expect(text).not.toMatch(/\bunknown matching\b/i);
  await expect(answer.root).toContainText(/does not study/);
});

test("a finding is never shown both “Mixed” and “Supports the claim”: the table says what it found about the question, with the rest in its tooltip", async ({ page }, testInfo) => {
  await new ResearchAppPage(page).useTestWallet();
  // The answer as the service sent it, its first reference made a study whose results are mixed
  // overall while its finding on the question supports the claim (the case the issue saw).
  await page.route(/\/api\/chat\/status\/[^/]+$/, async (route) => {
    const response = await route.fetch();
    const body = (await response.json()) as { status: string; result?: { references: { snapshot?: { direction: string }; stance?: string }[] } };
    const first = body.result?.references[0];
    if (body.status === "completed" && first?.snapshot) {
      first.snapshot.direction = "mixed";
      first.stance = "supports";
    }
    return route.fulfill({ response, json: body });
  });
  const answer = await ask(page, "Does metformin reduce frailty in older adults?");
  const finding = answer.cell(answer.rows.first(), "Finding");
  await expect(finding).toContainText("Supports the claim");
  await expect(finding).not.toContainText("Mixed");
  await expect(finding.locator("span[title]").first()).toHaveAttribute("title", /mixed/i);
  await page.screenshot({ path: testInfo.outputPath(`evidence-finding-${testInfo.project.name}.png`) });
});
