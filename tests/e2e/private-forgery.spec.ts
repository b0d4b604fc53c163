import { expect, test } from "./support/test";
import { forgeries } from "../support/forgery";
import { startForgingProxy } from "../support/forging-proxy";
import { readStack, runAsk } from "./support/stack";

/**
 * Issue 12, point 1, for the two clients a person uses: `npm run ask -- --private` and the web
 * page. An intermediary that relays the genuine traffic but answers with its own sealed answer
 * (made from the envelope it saw, as the scheme's first version allowed) is refused with a clear
 * error, and nothing of its answer is shown; the genuine answer through the same path opens.
 */
const HARMFUL = "Take ten times the dose";
const harmfulChat = {
  reply: `${HARMFUL} [1].`,
  answer: `${HARMFUL} [1].`,
  text: `${HARMFUL} [1].`,
  conversationId: "forged",
  references: [],
  rejectedReferences: [],
  quality: { verifiedCount: 1, unverifiedCount: 0, rejectedCount: 0, grade: "high" },
};

const ask = (gateway: string, question: string) => runAsk(gateway, ["chat", "--private", question], { PAYER_PRIVATE_KEY: readStack().testWallets[3]!.privateKey });

test("npm run ask -- --private refuses an answer an intermediary sealed, and opens the genuine one", async ({ baseURL }) => {
  test.setTimeout(120_000);
  const proxy = await startForgingProxy(baseURL!, () => harmfulChat);
  try {
    proxy.state.forge = "oldWay";
    const forged = await ask(proxy.url, "Does rapamycin extend lifespan in mice?");
    expect(proxy.state.forged).toBeGreaterThan(0);
    expect(forged.code).toBe(1);
    expect(forged.stderr).toContain("answer_not_genuine");
    expect(forged.stderr).toMatch(/not sealed by the enclave/);
    expect(forged.stdout + forged.stderr).not.toContain(HARMFUL);

    proxy.state.forge = null;
    const genuine = await ask(proxy.url, "Does rapamycin extend lifespan in mice?");
    expect(genuine.stderr).not.toContain("answer_not_genuine");
    expect(genuine.code).toBe(0);
    expect(genuine.stdout.trim().length).toBeGreaterThan(0);
  } finally {
    await proxy.close();
  }
});

test("the page refuses an answer an intermediary sealed, shows nothing of it, and opens the genuine one", async ({ page }, testInfo) => {
  test.setTimeout(120_000);
  let forged = 0;
  // The intermediary: every sealed answer on the private chat routes replaced by its own.
  const envelopes = new Map<string, { hpke_ciphertext: string; hpke_ephemeral_public_key: string }>();
  await page.route(/\/api\/chat\/encrypted(\/status\/[^/?]+)?$/, async (route) => {
    const request = route.request();
    const response = await route.fetch();
    const body = (await response.json().catch(() => null)) as Record<string, unknown> | null;
    if (!body || typeof body.hpke_response_ciphertext !== "string") return route.fulfill({ response });
    const sent = request.method() === "POST" ? (request.postDataJSON() as { hpke_ciphertext: string; hpke_ephemeral_public_key: string }) : undefined;
    if (sent && typeof body.requestId === "string") envelopes.set(body.requestId, sent);
    const envelope = sent ?? envelopes.get(request.url().split("/").at(-1)!)!;
    forged++;
    return route.fulfill({ response, json: { ...body, ...forgeries.oldWay(envelope, harmfulChat) } });
  });

  await page.goto("/");
  await page.getByTestId("use-test-wallet").click();
  await expect(page.getByTestId("payer-address")).toHaveText(/^0x[0-9a-fA-F]{40}$/);
  await page.getByTestId("private-switch").click();
  await expect(page.getByTestId("enclave-status")).toBeVisible();
  const chat = page.locator("#tabpanel-chat");
  await chat.getByLabel("Your question").fill("Does rapamycin extend lifespan in mice?");
  await chat.getByRole("button", { name: "Pay and ask" }).click();
  const error = chat.getByTestId("error-note");
  await expect(error).toContainText("not sealed by the enclave", { timeout: 60_000 });
  await expect(error).toContainText("Nothing from it is shown");
  expect(forged).toBeGreaterThan(0);
  await expect(page.getByText(HARMFUL)).toHaveCount(0);
  await expect(chat.getByTestId("answer")).toHaveCount(0);
  // Refused for good: no Retry (it would open the same forged answer), the thread says there is no
  // answer, and the question is back in the box to be asked again.
  await expect(error.getByRole("button", { name: "Retry" })).toHaveCount(0);
  await expect(page.getByRole("region", { name: "This research thread" })).toContainText("No answer: The answer could not be opened");
  await expect(chat.getByLabel("Your question")).toHaveValue("Does rapamycin extend lifespan in mice?");
  await page.screenshot({ path: testInfo.outputPath("private-chat-forged.png"), fullPage: true });

  // The same page, the intermediary gone: the enclave's own answer opens.
  await page.unrouteAll();
  await chat.getByRole("button", { name: "Pay and ask" }).click();
  await expect(chat.getByTestId("answer")).toBeVisible({ timeout: 60_000 });
  await expect(chat.getByTestId("answer-text")).not.toBeEmpty();
  await expect(page.getByText(HARMFUL)).toHaveCount(0);
});
