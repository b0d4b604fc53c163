import type { Browser } from "@playwright/test";
import { ownStack } from "./support/stacks";
import { expect, test } from "./support/test";
import { ResearchAppPage } from "./pages/research-app";
import { ChatPanelPage, ThreadPage } from "./pages/panels";
import { WalletHistoryPage } from "./pages/wallet-history";
import { injectScriptedWallet } from "./support/scripted-wallet";
import { readStack, runAsk } from "./support/stack";

/**
 * Issue 28, history that follows the wallet (x402 sign-in-with-x): what a wallet paid for is
 * listed and reopened in any browser signed in with that wallet, not only the one that asked; a
 * browser signed in with another wallet sees none of it, and a sealed request of its own only as
 * sealed. Each browser context is a browser of its own (its own cookies, IndexedDB and storage).
 */

// Worded as no other spec asks, so the test wallet's history (shared by every spec of a run) holds it once.
const QUESTION = "Does rapamycin treatment extend the lifespan of mice?";
const OTHER_QUESTION = "Does metformin treatment slow aging in humans?";
const SEALED_QUESTION = "Does my own sealed question about caloric restriction stay sealed?";

async function freshPage(browser: Browser) {
  const context = await browser.newContext();
  return { context, page: await context.newPage() };
}

test("two browser contexts signed in with one wallet see the same history; a context with another wallet sees none of it", async ({ browser }, testInfo) => {
  test.setTimeout(240_000);
  // The first browser pays for a chat with the local test wallet, then signs in with it.
  const first = await freshPage(browser);
  await new ResearchAppPage(first.page).useTestWallet();
  const chat = new ChatPanelPage(first.page);
  await chat.ask(QUESTION);
  await expect(chat.answer).toBeVisible({ timeout: 60_000 });
  const firstThread = new ThreadPage(first.page);
  await expect(firstThread.entry(QUESTION)).toHaveAttribute("data-status", "done");
  const excerpt = (await firstThread.entry(QUESTION).getByTestId("thread-excerpt").textContent()) ?? "";
  const firstHistory = new WalletHistoryPage(first.page);
  await firstHistory.signIn();
  await expect(firstHistory.thread(QUESTION)).toHaveCount(1);

  // A second browser, the same wallet: nothing of it in its own storage until it signs in.
  const second = await freshPage(browser);
  await new ResearchAppPage(second.page).useTestWallet();
  const secondThread = new ThreadPage(second.page);
  await expect(secondThread.historyThreads).toHaveCount(0);
  const secondHistory = new WalletHistoryPage(second.page);
  await secondHistory.signIn();
  await expect(secondHistory.thread(QUESTION)).toHaveCount(1);
  // Opened there, the thread shows the question and the answer the first browser was given.
  await secondHistory.open(QUESTION);
  await expect(secondThread.entry(QUESTION)).toHaveAttribute("data-status", "done");
  expect(excerpt.length).toBeGreaterThan(20);
  await expect(secondThread.entry(QUESTION).getByTestId("thread-excerpt")).toHaveText(excerpt);
  await second.page.screenshot({ path: testInfo.outputPath("wallet-history-second-browser.png"), fullPage: true });
  // A reload keeps both: the sign-in (its session) and the thread opened.
  await second.page.reload();
  await expect(secondHistory.state).toHaveAttribute("data-state", "signed-in");
  await expect(secondThread.entry(QUESTION)).toHaveAttribute("data-status", "done");

  // Another wallet paid for a question of its own, plain and sealed (from the command line), and signs in in a third browser.
  const other = readStack().testWallets[2]!;
  const gateway = ownStack().baseURL;
  for (const args of [["chat", OTHER_QUESTION], ["chat", "--private", SEALED_QUESTION]]) {
    const asked = await runAsk(gateway, args, { PAYER_PRIVATE_KEY: other.privateKey });
    expect(asked.code, asked.stderr).toBe(0);
  }
  const third = await freshPage(browser);
  await injectScriptedWallet(third.page, { chainId: "0x7a69", sign: "fail", messageKey: other.privateKey });
  await new ResearchAppPage(third.page).connectWallet(other.address);
  const thirdHistory = new WalletHistoryPage(third.page);
  await thirdHistory.signIn();
  await expect(thirdHistory.thread(OTHER_QUESTION)).toHaveCount(1);
  // Its sealed question is there as sealed, without its words; nothing of the first wallet's.
  await expect(thirdHistory.threads.and(third.page.locator('[data-sealed="true"]'))).not.toHaveCount(0);
  await expect(thirdHistory.root).not.toContainText(SEALED_QUESTION);
  await expect(thirdHistory.root).not.toContainText(QUESTION);
  await expect(thirdHistory.thread(QUESTION)).toHaveCount(0);
  await third.page.screenshot({ path: testInfo.outputPath("wallet-history-other-wallet.png"), fullPage: true });

  // Signing out in the first browser ends its sign-in there; the second stays signed in.
  await firstHistory.root.getByRole("button", { name: "Sign out" }).click();
  await expect(firstHistory.state).toHaveAttribute("data-state", "signed-out");
  await second.page.reload();
  await expect(secondHistory.state).toHaveAttribute("data-state", "signed-in");
  for (const { context } of [first, second, third]) await context.close();
});
