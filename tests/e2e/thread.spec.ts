import { expect, test } from "./support/test";
import { PHONE } from "./support/projects";
import { PaidRequests, ResearchAppPage } from "./pages/research-app";
import { ChatPanelPage, LiteraturePanelPage, ResearchPanelPage, ThreadPage } from "./pages/panels";

/**
 * The research thread against the whole local stack, paying with the demo's test wallet: answers
 * gather in a thread with priced follow-ups, history is kept per wallet in this browser, and a
 * reload restores the wallet, the thread and a run in progress. Screenshots at the viewport of
 * the project (desktop 1280, phone 390) are saved under test-results/e2e/.
 */

test("blank and over-long questions are said, never cut, and nothing is paid", async ({ page }) => {
  const app = new ResearchAppPage(page);
  const paid = new PaidRequests(page);
  await app.useTestWallet();
  const chat = new ChatPanelPage(page);
  await chat.open();
  await chat.question.fill("   \n  ");
  await chat.pay.click();
  await expect(chat.inputError).toContainText("empty");

  const literature = new LiteraturePanelPage(page);
  await literature.open();
  const paste = "a".repeat(9000);
  await literature.question.fill(paste);
  // Kept whole: the box holds all 9,000 characters and says how many are too many.
  await expect(literature.question).toHaveValue(paste);
  await expect(literature.questionCount).toContainText("808 too many");
  await literature.pay.click();
  await expect(literature.questionError).toContainText("9,000 characters long; at most 8,192");

  const research = new ResearchPanelPage(page);
  await research.open();
  await research.question.fill(" ");
  await research.start.click();
  await expect(research.inputError).toContainText("empty");
  expect(await paid.count()).toBe(0);
});

test("a chat answer enters the thread with priced follow-ups; one click pays one; history is per wallet, searchable, deletable; a reload restores all", PHONE, async ({ page }, testInfo) => {
  test.setTimeout(120_000);
  const app = new ResearchAppPage(page);
  const paid = new PaidRequests(page);
  await app.useTestWallet();
  const chat = new ChatPanelPage(page);
  const thread = new ThreadPage(page);
  await chat.ask("Does rapamycin extend lifespan in mice?");
  await expect(chat.answer).toBeVisible({ timeout: 60_000 });
  const first = thread.entry("Does rapamycin extend lifespan in mice?");
  await expect(first).toHaveAttribute("data-status", "done");
  // Each follow-up shows its price before anything is paid.
  const seeReferences = first.getByTestId("follow-up").filter({ hasText: "See every reference found" });
  await expect(seeReferences).toContainText("$0.03");
  await page.screenshot({ path: testInfo.outputPath(`thread-${testInfo.project.name}.png`), fullPage: true });

  // One click: the literature panel opens and pays for the search of the same question.
  await seeReferences.click();
  const literature = new LiteraturePanelPage(page);
  // $0.03, more than a chat: asked first (no-surprise-charges.spec.ts), then paid.
  await literature.confirmSpend();
  await expect(literature.results).toBeVisible({ timeout: 60_000 });
  await expect(thread.entries).toHaveCount(2);
  await expect(thread.entries.nth(1)).toHaveAttribute("data-kind", "literature");
  await expect(thread.entries.nth(1)).toHaveAttribute("data-status", "done");
  expect(await paid.count("/api/chat")).toBe(1);
  expect(await paid.count("/api/literature")).toBe(1);

  // A reload: the wallet is chosen again and the thread comes back from this browser's history.
  await page.reload();
  await expect(page.getByTestId("payer-address")).toHaveText(/^0x[0-9a-fA-F]{40}$/);
  await expect(thread.entries).toHaveCount(2);
  await expect(thread.historyThreads).toHaveCount(1);

  // A new thread; the history finds the first by a word of its answer or question, and deletes it.
  await thread.startNew();
  await thread.historySearch.fill("rapamycin mice");
  await expect(thread.historyThreads).toHaveCount(1);
  await thread.historySearch.fill("no-such-word-anywhere");
  await expect(thread.historyThreads).toHaveCount(0);
  await thread.historySearch.fill("");
  await thread.historyThreads.first().getByRole("button", { name: "Open" }).click();
  await expect(thread.entries).toHaveCount(2);
  await thread.historyThreads.first().getByRole("button", { name: /^Delete/ }).click();
  await expect(thread.historyThreads).toHaveCount(0);
  await page.reload();
  await expect(page.getByTestId("payer-address")).toBeVisible();
  await expect(thread.historyThreads).toHaveCount(0);
});

test("a question typed after an answer starts a conversation of its own; “Follow up on this” continues that answer's, and the thread shows it", PHONE, async ({ page }, testInfo) => {
  test.setTimeout(240_000);
  const app = new ResearchAppPage(page);
  await app.useTestWallet();
  const chat = new ChatPanelPage(page);
  const thread = new ThreadPage(page);
  /**
   * The conversation the 202 named. (The request body is not readable here: the x402 client sends
   * it as a stream.) The agent (variant A) names the conversation a request continued, or a new
   * one: the same id again proves the request sent it, another id proves it did not.
   */
  const accepted = () => page.waitForResponse((r) => r.request().method() === "POST" && new URL(r.url()).pathname === "/api/chat" && r.status() === 202);
  const conversationOf = async (question: string, send: () => Promise<void>) => {
    const paid = accepted();
    await send();
    const { conversationId } = (await (await paid).json()) as { conversationId: string };
    await expect(thread.entry(question)).toHaveAttribute("data-status", "done", { timeout: 60_000 });
    return conversationId;
  };

  const metformin = "Does metformin reduce frailty in older adults?";
  const first = await conversationOf(metformin, () => chat.ask(metformin));
  expect(first).toMatch(/^[0-9a-f-]{36}$/);

  // A second question typed in the box is its own: a new conversation, not judged against the first.
  const rapamycin = "Does rapamycin extend lifespan in mice?";
  const second = await conversationOf(rapamycin, () => chat.ask(rapamycin));
  expect(second).toMatch(/^[0-9a-f-]{36}$/);
  expect(second).not.toBe(first);
  await expect(thread.entry(rapamycin).getByTestId("follows-up")).toHaveCount(0);

  // Following up is a choice made on an answer: a labelled button that says which answer it follows,
  // reached and pressed from the keyboard; the box then says what the next question follows.
  const followFirst = thread.entry(metformin).getByRole("button", { name: `Follow up on “${metformin}”` });
  await followFirst.focus();
  await page.keyboard.press("Enter");
  await expect(chat.followingUp).toContainText(metformin);
  await expect(chat.question).toBeFocused();
  await page.screenshot({ path: testInfo.outputPath(`follow-up-chosen-${testInfo.project.name}.png`), fullPage: true });
  const women = "And in women?";
  const third = await conversationOf(women, async () => {
    await chat.question.fill(women);
    await chat.pay.click();
  });
  expect(third).toBe(first);
  // The thread shows the turn it follows, and the answer says how it read the question.
  await expect(thread.entry(women).getByTestId("follows-up")).toContainText(metformin);
  await expect(chat.answer).toContainText("Read as a follow-up to");
  await expect(chat.followingUp).toHaveCount(0);
  await page.screenshot({ path: testInfo.outputPath(`follow-up-answered-${testInfo.project.name}.png`), fullPage: true });

  // Once asked, the follow-up is over: the next typed question is new again; a follow-up chosen
  // and then dropped sends none either.
  await thread.entry(rapamycin).getByRole("button", { name: `Follow up on “${rapamycin}”` }).click();
  await expect(chat.followingUp).toContainText(rapamycin);
  await chat.stopFollowingUp.click();
  await expect(chat.followingUp).toHaveCount(0);
  const telomeres = "Is telomere length associated with mortality?";
  const fourth = await conversationOf(telomeres, () => chat.ask(telomeres));
  expect([first, second]).not.toContain(fourth);
});

test("a reload during deep research reopens its tab with a banner; the finished run's open questions continue the same conversation", async ({ page }, testInfo) => {
  test.setTimeout(300_000);
  const app = new ResearchAppPage(page);
  await app.useTestWallet();
  const research = new ResearchPanelPage(page);
  // The run's polls are held until the banner has been seen: on a busy machine the run could
  // otherwise finish before the reloaded page polls, and the banner would come and go unseen.
  let releasePolls!: () => void;
  const pollsReleased = new Promise<void>((resolve) => (releasePolls = resolve));
  await page.route("**/api/deep-research/*", async (route) => {
    if (route.request().method() === "GET") await pollsReleased;
    // A poll of the page before the reload is gone with it.
    await route.continue().catch(() => undefined);
  });
  await research.research("rapamycin and lifespan in mice");
  // Accepted and being followed (not merely waiting for the signature), then reloaded.
  await expect(research.working).toBeVisible();
  await page.reload();
  // The page reopens on the research tab, says what it follows, and follows it to the end.
  await expect(page.getByRole("tab", { name: "Deep research" })).toHaveAttribute("aria-selected", "true");
  await expect(research.resumeBanner).toContainText("rapamycin and lifespan in mice");
  releasePolls();
  await expect(research.done).toBeVisible({ timeout: 150_000 });
  // A question typed next starts a new conversation unless the person chooses to continue this one.
  await expect(research.root.getByLabel("Start a new one")).toBeChecked();
  await expect(research.question).toBeVisible();
  const thread = new ThreadPage(page);
  const entry = thread.entry("rapamycin and lifespan in mice");
  await expect(entry).toHaveAttribute("data-status", "done");
  const followUp = entry.getByTestId("follow-up").first();
  await expect(followUp).toContainText("Continue the research");
  await expect(followUp).toContainText("$1.00");
  await page.screenshot({ path: testInfo.outputPath(`research-thread-${testInfo.project.name}.png`), fullPage: true });
  await followUp.click();
  await research.confirmSpend();
  // The same conversation, one turn more.
  await expect(research.turns).toHaveCount(2, { timeout: 150_000 });
  await expect(research.done).toBeVisible({ timeout: 150_000 });
  await expect(thread.entries).toHaveCount(2);
});

test("screenshots: every panel at the project's width, literature options behind Advanced on a phone", PHONE, async ({ page }, testInfo) => {
  const app = new ResearchAppPage(page);
  await app.useTestWallet();
  const literature = new LiteraturePanelPage(page);
  await literature.open();
  if (testInfo.project.name === "phone") {
    await expect(literature.options).toBeHidden();
    await literature.advanced.click();
    await expect(literature.options).toBeVisible();
  } else {
    await expect(literature.advanced).toBeHidden();
    await expect(literature.options).toBeVisible();
  }
  await page.screenshot({ path: testInfo.outputPath(`literature-form-${testInfo.project.name}.png`), fullPage: true });
  for (const [name, panel] of [
    ["chat", new ChatPanelPage(page)],
    ["research", new ResearchPanelPage(page)],
  ] as const) {
    await panel.open();
    await page.screenshot({ path: testInfo.outputPath(`${name}-form-${testInfo.project.name}.png`), fullPage: true });
  }
});
