import { expect, test } from "./support/test";
import { ChatPanelPage, LiteraturePanelPage, ResearchPanelPage, SpendConfirmPage, ThreadPage } from "./pages/panels";
import { PaidRequests, ResearchAppPage } from "./pages/research-app";

/**
 * No surprise charges, against the offline demo (live sources at a closed port, the synthetic
 * local library): an action that costs more than a chat asks first, naming its price and what it
 * buys, until the person says not to for this visit; a search that found nothing on topic says what
 * would help before anyone pays again; and a question nothing could answer says what happened
 * (the live sources could not be reached and the library has nothing on it), not "try again in
 * 30 s". Desktop only, like the other paid flows (playwright.config.ts).
 */

test("“Research it in depth” ($1.00) asks first, naming the price and what it buys; “Not now” pays nothing; “Don't ask again this visit” holds for the visit", async ({ page }, testInfo) => {
  test.setTimeout(300_000);
  const app = new ResearchAppPage(page);
  const paid = new PaidRequests(page);
  const chat = new ChatPanelPage(page);
  const thread = new ThreadPage(page);
  const research = new ResearchPanelPage(page);
  const confirm = new SpendConfirmPage(page);
  await app.useTestWallet();
  const question = "Does rapamycin extend lifespan in mice?";
  await chat.ask(question);
  await expect(thread.entry(question)).toHaveAttribute("data-status", "done", { timeout: 60_000 });
  const inDepth = thread.entry(question).getByTestId("follow-up").filter({ hasText: "Research it in depth" });
  await expect(inDepth).toContainText("$1.00");

  await inDepth.click();
  await expect(confirm.root).toBeVisible();
  await expect(confirm.root).toContainText("$1.00");
  await expect(confirm.root).toContainText("multi-round research run");
  await expect(confirm.root).toContainText(question);
  await expect(confirm.pay).toBeFocused();
  await page.screenshot({ path: testInfo.outputPath("spend-confirm.png"), fullPage: true });
  expect(await paid.count("/api/deep-research/start")).toBe(0);
  await confirm.notNow.click();
  await expect(confirm.root).toHaveCount(0);
  expect(await paid.count("/api/deep-research/start")).toBe(0);

  // Asked again on the next click; this time paid, and not asked again during this visit.
  await inDepth.click();
  await confirm.dontAskAgain.check();
  await confirm.pay.click();
  await expect(research.done).toBeVisible({ timeout: 150_000 });
  expect(await paid.count("/api/deep-research/start")).toBe(1);

  // A literature search ($0.03, more than a chat) from the thread now pays on its click.
  await thread.entry(question).getByTestId("follow-up").filter({ hasText: "See every reference found" }).click();
  await expect(new LiteraturePanelPage(page).results).toBeVisible({ timeout: 60_000 });
  await expect(confirm.root).toHaveCount(0);
  expect(await paid.count("/api/literature")).toBe(1);
});

test("continuing a research run asks first too, and a new visit asks again", async ({ page }) => {
  test.setTimeout(420_000);
  const app = new ResearchAppPage(page);
  const paid = new PaidRequests(page);
  const research = new ResearchPanelPage(page);
  const thread = new ThreadPage(page);
  const confirm = new SpendConfirmPage(page);
  await app.useTestWallet();
  await research.open();
  await research.question.fill("rapamycin and lifespan in mice");
  await research.start.click();
  await expect(confirm.root).toContainText("$1.00");
  expect(await paid.count()).toBe(0);
  await confirm.pay.click();
  await expect(research.done).toBeVisible({ timeout: 150_000 });
  expect(await paid.count("/api/deep-research/start")).toBe(1);

  const next = thread.entry("rapamycin and lifespan in mice").getByTestId("follow-up").filter({ hasText: "Continue the research" }).first();
  await next.click();
  await expect(confirm.root).toContainText("$1.00");
  await expect(confirm.root).toContainText(/^Continuing this research costs \$1\.00/);
  expect(await paid.count("/api/deep-research/start")).toBe(1);
  await confirm.dontAskAgain.check();
  await confirm.pay.click();
  await expect(research.turns).toHaveCount(2, { timeout: 150_000 });
  await expect(research.done).toBeVisible({ timeout: 150_000 });
  expect(await paid.count("/api/deep-research/start")).toBe(2);

  // "This visit" is this tab: a new one asks again.
  const other = await page.context().newPage();
  const otherResearch = new ResearchPanelPage(other);
  await other.goto("/");
  await otherResearch.open();
  await otherResearch.question.fill("rapamycin and lifespan in mice");
  await otherResearch.start.click();
  await expect(new SpendConfirmPage(other).root).toBeVisible();
  await other.close();
});

test("an off-topic question in the offline demo says what happened (live sources unreachable, nothing in the library) and what would help, without promising a retry helps; nothing is charged", async ({ page }, testInfo) => {
  const app = new ResearchAppPage(page);
  const paid = new PaidRequests(page);
  const chat = new ChatPanelPage(page);
  await app.useTestWallet();
  await chat.ask("Does knitting improve bone density in astronauts?");
  await expect(chat.errorNote).toBeVisible({ timeout: 60_000 });
  await page.screenshot({ path: testInfo.outputPath("nothing-matched.png"), fullPage: true });
  // Both halves of the truth: the live sources could not be reached, and the library has nothing on it.
  // Which source is "not reached" and which "not asked" depends on what each source's circuit saw
  // last ("PubMed could not be reached and Europe PMC was not asked" is as true): both are named.
  await expect(chat.errorNote).toContainText(/(could not be reached|w(as|ere) not asked)/);
  await expect(chat.errorNote).toContainText("PubMed");
  await expect(chat.errorNote).toContainText("Europe PMC");
  await expect(chat.errorNote).toContainText(/local library has nothing on this question/);
  await expect(chat.errorNote).not.toContainText("are failing");
  await expect(chat.errorNote).not.toContainText(/Try again in \d+ s/);
  // What would help, before paying again.
  await expect(chat.errorNote).toContainText(/other words/i);
  await expect(chat.errorNote).toContainText("Nothing was charged");
  await expect.poll(() => paid.charged()).toBe(0);
});

test("an answer that found nothing on topic says what would help before paying again", async ({ page }, testInfo) => {
  const app = new ResearchAppPage(page);
  const chat = new ChatPanelPage(page);
  const thread = new ThreadPage(page);
  await app.useTestWallet();
  const question = "Does sauna bathing lower blood pressure?";
  await chat.ask(question);
  await expect(thread.entry(question)).toHaveAttribute("data-status", "done", { timeout: 60_000 });
  const help = chat.root.getByTestId("what-would-help");
  await expect(help).toBeVisible();
  await expect(help).toContainText(/other words/i);
  await expect(help).toContainText(/wider/);
  await page.screenshot({ path: testInfo.outputPath("what-would-help.png"), fullPage: true });
});
