import { expect, test } from "./support/test";
import { ChatPanelPage } from "./pages/panels";
import { ResearchAppPage } from "./pages/research-app";

/**
 * The page checks what it pays for as agents' clients do (x402 offer-and-receipt): the terms it
 * signs must be an offer the service signed with a key it publishes at /.well-known/x402.json, and
 * each settled payment's receipt must be signed by such a key, for that payment. Attacked here as an
 * intermediary would: terms changed on the way to the page (another payee) are refused before the
 * wallet is asked, and a receipt changed after signing is shown as no proof.
 */

const base64Json = (header: string) => JSON.parse(Buffer.from(header, "base64").toString("utf8")) as Record<string, unknown>;
const toBase64Json = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64");

test("a paid answer's receipt is checked: signed by the service's published key, for this payment", async ({ page }, testInfo) => {
  const app = new ResearchAppPage(page);
  const chat = new ChatPanelPage(page);
  await app.useTestWallet();
  await chat.ask("Does rapamycin extend lifespan in mice?");
  await expect(chat.answer).toBeVisible({ timeout: 60_000 });
  await expect(app.paymentHistory.getByTestId("receipt-verified")).toHaveText("✓ signed by the service");
  await app.paymentHistory.screenshot({ path: testInfo.outputPath("payment-receipt.png") });
});

test("terms changed on the way (another payee) are refused before the wallet signs: nothing is paid", async ({ page }) => {
  const app = new ResearchAppPage(page);
  const chat = new ChatPanelPage(page);
  let paymentsSent = 0;
  await page.route("**/api/chat", async (route) => {
    if (route.request().headers()["payment-signature"]) paymentsSent++;
    const response = await route.fetch();
    const header = response.headers()["payment-required"];
    if (response.status() !== 402 || !header) return route.fulfill({ response });
    const required = base64Json(header) as { accepts: { payTo: string }[] };
    for (const accept of required.accepts) accept.payTo = "0x000000000000000000000000000000000000dEaD";
    await route.fulfill({ response, headers: { ...response.headers(), "payment-required": toBase64Json(required) } });
  });
  await app.useTestWallet();
  await chat.ask("Does rapamycin extend lifespan in mice?");
  await expect(chat.errorNote).toContainText("Nothing was paid: the page refused to sign");
  expect(paymentsSent).toBe(0);
  await expect(app.paymentHistory).toHaveCount(0);
});

test("a receipt changed after it was signed is shown as no proof of the payment, the answer still delivered", async ({ page }) => {
  const app = new ResearchAppPage(page);
  const chat = new ChatPanelPage(page);
  await page.route("**/api/chat", async (route) => {
    const response = await route.fetch();
    const header = response.headers()["payment-response"];
    if (!header) return route.fulfill({ response });
    const settlement = base64Json(header) as { extensions?: Record<string, { info?: { receipt?: { payload?: Record<string, unknown> } } }> };
    const receipt = settlement.extensions?.["offer-receipt"]?.info?.receipt;
    if (receipt?.payload) receipt.payload.resourceUrl = "https://elsewhere.example/api/chat";
    await route.fulfill({ response, headers: { ...response.headers(), "payment-response": toBase64Json(settlement) } });
  });
  await app.useTestWallet();
  await chat.ask("Does rapamycin extend lifespan in mice?");
  await expect(chat.answer).toBeVisible({ timeout: 60_000 });
  await expect(app.paymentHistory.getByTestId("receipt-invalid")).toContainText("did not verify");
});
