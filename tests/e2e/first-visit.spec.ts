import fs from "node:fs";
import path from "node:path";
import { expect, test } from "./support/test";
import { PHONE } from "./support/projects";
import { AnswerPage } from "./pages/answer";
import { HomePage } from "./pages/home";
import { ChatPanelPage, ThreadPage } from "./pages/panels";
import { PaidRequests, ResearchAppPage } from "./pages/research-app";

/**
 * A researcher's first visit, at the project's width (desktop 1280 and a 390×844 phone): the
 * question box first with example questions, a free sample answer before anyone pays, then the
 * main flow (an example asked and paid once, answered under its own question, the bottom line
 * said once, the evidence in plain words). Screenshots of the home page, the answer and the
 * evidence table are saved under test-results/e2e/ for both widths.
 */

/** The stored answer the sample is rendered from (lib/web/sample-answer.json, made by the engine over the demo library). */
type StoredSample = { question: string; result: { references: { title: string }[]; verdict: string } };
const readSample = (): StoredSample => JSON.parse(fs.readFileSync(path.resolve(import.meta.dirname, "../../lib/web/sample-answer.json"), "utf8")) as StoredSample;

test("the home page leads with the question box and example questions, shows a free sample answer, and keeps the enclave's trust in the private-mode section", PHONE, async ({ page }, testInfo) => {
  const paid = new PaidRequests(page);
  const home = new HomePage(page);
  await home.goto();
  await page.screenshot({ path: testInfo.outputPath(`home-${testInfo.project.name}.png`) });
  await page.screenshot({ path: testInfo.outputPath(`home-full-${testInfo.project.name}.png`), fullPage: true });

  await test.step("the question box is on the first screen, before any paragraph about builds or command lines", async () => {
    await expect(home.questionBox).toBeInViewport();
    await expect(home.page.getByRole("button", { name: "Pay and ask" })).toBeInViewport();
    const main = page.locator("main");
    await expect(main).not.toContainText("NEXT_PUBLIC_TRUSTED_ENCLAVE_REPO");
    await expect(main).not.toContainText("npm run ask");
  });

  await test.step("a few example questions a longevity researcher would ask; a click writes one in the box and pays nothing", async () => {
    expect(await home.examples.count()).toBeGreaterThanOrEqual(3);
    const example = (await home.examples.first().textContent())!.trim();
    expect(example).toMatch(/\?$/);
    await home.examples.first().click();
    await expect(home.questionBox).toHaveValue(example);
  });

  await test.step("a sample answer, said to be one, rendered from the engine's stored answer: bottom line, cited text, evidence table", async () => {
    await expect(home.sample).toContainText(/sample/i);
    const stored = readSample();
    await expect(home.sample).toContainText(stored.question);
    const sample = new AnswerPage(page, home.sample);
    await expect(sample.bottomLine).toBeVisible();
    await expect(sample.rows).toHaveCount(stored.result.references.length);
    for (const [i, ref] of stored.result.references.entries()) await expect(sample.rows.nth(i)).toContainText(ref.title);
    // Made-up records of the demo library: nothing in the sample leads to a real PubMed record or DOI.
    await expect(home.sample.locator('a[href*="pubmed"], a[href*="doi.org"]')).toHaveCount(0);
    await home.sample.scrollIntoViewIfNeeded();
    await page.screenshot({ path: testInfo.outputPath(`sample-answer-${testInfo.project.name}.png`), fullPage: true });
  });

  await test.step("the enclave's trust is said in plain words in the private-mode section; the operator's details are on /status", async () => {
    await expect(home.privateMode.getByTestId("enclave-trust")).toHaveCount(1);
    await expect(home.trust).toHaveCount(1);
    await expect(home.trust).toContainText(/not attested|checks in your browser/);
    await expect(home.trust.getByRole("link", { name: /status/i })).toHaveAttribute("href", "/status");
  });
  expect(await paid.count()).toBe(0);
});

test("the main flow: an example question asked and paid once, answered under its own question, the bottom line said once, the evidence in plain words", PHONE, async ({ page }, testInfo) => {
  const app = new ResearchAppPage(page);
  const paid = new PaidRequests(page);
  const home = new HomePage(page);
  const chat = new ChatPanelPage(page);
  const thread = new ThreadPage(page);
  await app.useTestWallet();
  const question = "Does metformin reduce frailty in older adults?";
  await home.examples.filter({ hasText: question }).click();
  await expect(home.questionBox).toHaveValue(question);
  const completed = page.waitForResponse(async (r) => r.url().includes("/api/chat/status/") && r.ok() && (await r.json()).status === "completed", { timeout: 60_000 });
  await chat.pay.click();
  const { result } = (await (await completed).json()) as { result: { metadata: { bottomLine: string }; references: unknown[] } };
  const answer = new AnswerPage(page, chat.root);
  await expect(answer.root).toBeVisible();
  expect(await paid.count()).toBe(1);

  await expect(chat.answerQuestion).toHaveText(question);
  await expect(chat.answerTurn).toHaveText(/Question 1 of this thread/);
  await page.screenshot({ path: testInfo.outputPath(`answer-${testInfo.project.name}.png`) });

  // The bottom line once: in its card, whose heading says the verdict and whose paragraph goes on from
  // there (the verdict sentence is not said again). Neither the answer's text nor the thread repeats it.
  const lead = result.metadata.bottomLine.replace(/^Bottom line: /, "");
  const [verdictSentence, ...after] = lead.split(". ");
  const bottomLine = after.join(". ");
  await expect(answer.verdict).toHaveText("The evidence leans toward it");
  expect(verdictSentence).toBe("the evidence leans toward supporting it, with low confidence");
  await expect(answer.bottomLine).toContainText(bottomLine);
  await expect(answer.bottomLine).not.toContainText(verdictSentence!);
  await expect(chat.root.getByTestId("answer-text")).not.toContainText("Bottom line");
  await expect(thread.entry(question)).toHaveAttribute("data-status", "done");
  await expect(thread.entry(question)).not.toContainText("Bottom line");
  const shown = `${await chat.root.innerText()}\n${await thread.root.innerText()}`;
  expect(shown.split(bottomLine).length - 1, "times the bottom line is said").toBe(1);

  // The evidence table in plain words: the observational record says its design, who and how many.
  await answer.table.scrollIntoViewIfNeeded();
  await page.screenshot({ path: testInfo.outputPath(`evidence-table-${testInfo.project.name}.png`) });
  const row = answer.rows.filter({ hasText: "Metformin and frailty in community-dwelling older adults" });
  await expect(answer.cell(row, "Design")).toHaveText("Observational");
  await expect(answer.cell(row, "Who")).toContainText("older adults");
  await expect(answer.cell(row, "Sample size")).toHaveText("2,400");
  await answer.openLegend();
  await page.screenshot({ path: testInfo.outputPath(`answer-full-${testInfo.project.name}.png`), fullPage: true });
});

test("two answers in a row each show their question and their turn in the thread", PHONE, async ({ page }, testInfo) => {
  const app = new ResearchAppPage(page);
  const chat = new ChatPanelPage(page);
  const thread = new ThreadPage(page);
  await app.useTestWallet();
  // Two questions the demo library has no study of: both answers are "insufficient" and alike.
  const first = "Does rapamycin prevent hair loss?";
  const second = "Does rapamycin improve hearing in older adults?";
  await chat.ask(first);
  await expect(thread.entry(first)).toHaveAttribute("data-status", "done", { timeout: 60_000 });
  await expect(chat.answerQuestion).toHaveText(first);
  await expect(chat.answerTurn).toHaveText(/Question 1 of this thread/);
  await chat.ask(second);
  await expect(thread.entry(second)).toHaveAttribute("data-status", "done", { timeout: 60_000 });
  await expect(chat.answerQuestion).toHaveText(second);
  await expect(chat.answerTurn).toHaveText(/Question 2 of this thread/);
  // The thread numbers its questions too.
  await expect(thread.entry(first).getByTestId("thread-turn")).toHaveText(/1/);
  await expect(thread.entry(second).getByTestId("thread-turn")).toHaveText(/2/);
  await page.screenshot({ path: testInfo.outputPath(`two-answers-${testInfo.project.name}.png`), fullPage: true });
});
