import { expect, test } from "./support/test";
import { PaidRequests, ResearchAppPage } from "./pages/research-app";

/**
 * Several clicks on a pay button within one event-loop task (a fast double click, a script) all
 * run before React renders the disabled button, so each must find the page's payment already
 * claimed: exactly one paid request (a PAYMENT-SIGNATURE) leaves the page, and the payee is charged
 * once (its authorization is the only one the token shows as used). An action that costs more than
 * a chat asks first (no-surprise-charges.spec.ts): clicks on its button only ask, and clicks on
 * the question's "Pay" button are the ones that pay.
 */

/** Clicks the "Pay $…" of the question a panel asks first, three times within one task. */
const payThrice = (panel: "literature" | "research", price: string) => [1, 2, 3].map(() => ({ panel, label: `Pay ${price}` }));

const QUESTION = "Does rapamycin extend lifespan in mice?";

test("three clicks on “Pay and ask” within one task send one paid request, charged once", async ({ page }, testInfo) => {
  const app = new ResearchAppPage(page);
  const paid = new PaidRequests(page);
  await app.useTestWallet();
  await app.fillQuestion("chat", QUESTION);
  await app.clickWithinOneTask([{ panel: "chat" }, { panel: "chat" }, { panel: "chat" }]);
  await expect(app.panel("chat").getByTestId("answer")).toBeVisible({ timeout: 60_000 });
  expect(await paid.count("/api/chat")).toBe(1);
  await expect.poll(() => paid.charged()).toBe(1);
  await expect(app.panel("chat").getByTestId("error-note")).toHaveCount(0);
  await page.screenshot({ path: testInfo.outputPath("chat-three-clicks.png"), fullPage: true });
});

test("three clicks on “Pay and search” within one task send one paid request, charged once", async ({ page }, testInfo) => {
  const app = new ResearchAppPage(page);
  const paid = new PaidRequests(page);
  await app.useTestWallet();
  await app.fillQuestion("literature", QUESTION);
  await app.clickWithinOneTask([{ panel: "literature" }, { panel: "literature" }, { panel: "literature" }]);
  // Asked first, once; nothing paid yet.
  await expect(app.panel("literature").getByTestId("spend-confirm")).toHaveCount(1);
  expect(await paid.count()).toBe(0);
  await app.clickWithinOneTask(payThrice("literature", "$0.03"));
  await expect(app.panel("literature").getByTestId("literature-results")).toBeVisible({ timeout: 120_000 });
  expect(await paid.count("/api/literature")).toBe(1);
  await expect.poll(() => paid.charged()).toBe(1);
  await expect(app.panel("literature").getByTestId("error-note")).toHaveCount(0);
  await page.screenshot({ path: testInfo.outputPath("literature-three-clicks.png"), fullPage: true });
});

test("three clicks to start and then to continue deep research within one task send one paid request each, charged once each", async ({ page }, testInfo) => {
  test.setTimeout(420_000);
  const app = new ResearchAppPage(page);
  const paid = new PaidRequests(page);
  await app.useTestWallet();
  const panel = app.panel("research");
  await app.fillQuestion("research", "rapamycin and lifespan in mice");
  await app.clickWithinOneTask([{ panel: "research" }, { panel: "research" }, { panel: "research" }]);
  await expect(panel.getByTestId("spend-confirm")).toHaveCount(1);
  expect(await paid.count()).toBe(0);
  await app.clickWithinOneTask(payThrice("research", "$1.00"));
  // The reply is released once the run is delivered and its payment settled.
  await expect(panel.getByTestId("research-done")).toContainText("Delivered and paid", { timeout: 180_000 });
  expect(await paid.count("/api/deep-research/start")).toBe(1);
  await expect.poll(() => paid.charged()).toBe(1);

  // Continuing is chosen, never the default.
  await panel.getByLabel("Continue this conversation").check();
  await panel.getByLabel("Your follow-up").fill("and in which strains?");
  await app.clickWithinOneTask([1, 2, 3].map(() => ({ panel: "research" as const, label: "Pay and continue" })));
  await expect(panel.getByTestId("spend-confirm")).toHaveCount(1);
  await app.clickWithinOneTask(payThrice("research", "$1.00"));
  await expect(panel.getByTestId("research-done")).toContainText("Delivered and paid", { timeout: 180_000 });
  expect(await paid.count("/api/deep-research/start")).toBe(2);
  await expect.poll(() => paid.charged()).toBe(2);
  await expect(panel.getByTestId("error-note")).toHaveCount(0);
  await page.screenshot({ path: testInfo.outputPath("research-three-clicks.png"), fullPage: true });
});

test("sealed: three clicks on “Pay and ask” and on “Pay and search” within one task send one paid request each, charged once each", async ({ page }) => {
  const app = new ResearchAppPage(page);
  const paid = new PaidRequests(page);
  await app.useTestWallet();
  await app.switchPrivateOn();
  await app.fillQuestion("chat", QUESTION);
  await app.clickWithinOneTask([{ panel: "chat" }, { panel: "chat" }, { panel: "chat" }]);
  await expect(app.panel("chat").getByTestId("answer")).toBeVisible({ timeout: 60_000 });
  expect(await paid.count("/api/chat/encrypted")).toBe(1);
  await expect.poll(() => paid.charged()).toBe(1);

  await app.fillQuestion("literature", QUESTION);
  await app.clickWithinOneTask([{ panel: "literature" }, { panel: "literature" }, { panel: "literature" }]);
  await app.clickWithinOneTask(payThrice("literature", "$0.03"));
  await expect(app.panel("literature").getByTestId("evidence-row").first()).toBeVisible({ timeout: 60_000 });
  expect(await paid.count("/api/literature/encrypted")).toBe(1);
  await expect.poll(() => paid.charged()).toBe(2);
});

test("two panels cannot pay at once: while one payment is under way, the others say so and pay nothing", async ({ page }, testInfo) => {
  const app = new ResearchAppPage(page);
  const paid = new PaidRequests(page);
  await app.useTestWallet();
  await app.fillQuestion("chat", QUESTION);
  await app.fillQuestion("literature", QUESTION);
  await app.fillQuestion("research", "rapamycin and lifespan in mice");
  // Literature and deep research cost more than a chat: their buttons ask first, paying nothing.
  await app.clickWithinOneTask([{ panel: "literature" }, { panel: "research" }]);
  expect(await paid.count()).toBe(0);
  // Then the chat's button and both "Pay" buttons within one task: the chat's payment is under way first.
  await app.clickWithinOneTask([{ panel: "chat" }, { panel: "literature", label: "Pay $0.03" }, { panel: "research", label: "Pay $1.00" }]);
  await app.openTab("chat");
  await expect(app.panel("chat").getByTestId("answer")).toBeVisible({ timeout: 60_000 });
  for (const name of ["literature", "research"] as const) {
    await app.openTab(name);
    const note = app.panel(name).getByTestId("error-note");
    await expect(note).toContainText("Another payment from this page is under way");
    await expect(note).toContainText("Nothing was paid for this one.");
  }
  expect(await paid.count()).toBe(1);
  await expect.poll(() => paid.charged()).toBe(1);

  // Once that payment was answered, another panel pays as usual.
  await app.openTab("literature");
  await page.screenshot({ path: testInfo.outputPath("another-payment-under-way.png"), fullPage: true });
  await app.payButton("literature").click();
  await app.confirmSpend("literature");
  await expect(app.panel("literature").getByTestId("literature-results")).toBeVisible({ timeout: 120_000 });
  expect(await paid.count("/api/literature")).toBe(1);
  await expect.poll(() => paid.charged()).toBe(2);
});
