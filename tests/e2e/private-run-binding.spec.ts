import { expect, test } from "./support/test";
import { createRecoveryKey, portablePrimitives } from "@/lib/shared/sealing";
import { startForgingProxy } from "../support/forging-proxy";
import { ResearchPanelPage } from "./pages/panels";
import { ResearchAppPage } from "./pages/research-app";
import { readStack, runAsk } from "./support/stack";

/**
 * Issue 24, item 9, for the two clients a person uses: a gateway that passes off an earlier
 * private deep-research run of the same recovery key as the run the client just paid for. The
 * earlier run's answer is genuine (the enclave's, sealed to the very poll that asked for it before
 * the fix), so only the run it names can give it away: the start's sealed receipt names the new
 * run, every poll names it, the enclave answers no other run to it, and the result names its run.
 */
test.describe.configure({ mode: "serial" });

const recoveryKey = createRecoveryKey(portablePrimitives);
/** The earlier run of `recoveryKey`, genuinely finished: the one the intermediary passes off. */
let older: { messageId: string; reply: string };

const payer = () => ({ PAYER_PRIVATE_KEY: readStack().testWallets[4]!.privateKey });
// A private run takes about a minute on the demo; these bounds only stop a hung one.
const research = (gateway: string, question: string) =>
  runAsk(gateway, ["deep-research", "--private", "--json", "--recovery-key", recoveryKey, question], payer(), { timeoutMs: 240_000 });

test("an earlier private run of the recovery key, genuinely answered", async ({ baseURL }) => {
  test.setTimeout(300_000);
  const run = await research(baseURL!, "leucocyte telomere length and mortality");
  expect(run.code, run.stderr).toBe(0);
  older = JSON.parse(run.stdout) as typeof older;
  expect(older.messageId).toMatch(/^[0-9a-f-]{36}$/);
  expect(older.reply.length).toBeGreaterThan(0);
});

test("npm run ask -- deep-research --private refuses an earlier run passed off as the new one", async ({ baseURL }) => {
  test.setTimeout(300_000);
  const proxy = await startForgingProxy(baseURL!, () => ({}));
  try {
    // The 202 names the earlier run: the enclave's receipt, sealed to this start, names the new one.
    proxy.state.passOff = { olderRun: older.messageId, claim: true };
    const claimed = await research(proxy.url, "rapamycin and lifespan in mice");
    expect(claimed.code).toBe(1);
    expect(claimed.stderr).toContain("answer_not_genuine");
    expect(claimed.stderr).toContain("another research run of the same recovery key");
    expect(claimed.stdout + claimed.stderr).not.toContain(older.reply);

    // Only the polls are routed to the earlier run: they name the new run, so the enclave answers none.
    proxy.state.passOff = { olderRun: older.messageId, claim: false };
    const routed = await research(proxy.url, "metformin and frailty in older adults");
    expect(proxy.state.routed).toBeGreaterThan(0);
    expect(routed.code).toBe(1);
    expect(routed.stderr).toMatch(/answered 404/);
    expect(routed.stdout + routed.stderr).not.toContain(older.reply);
  } finally {
    await proxy.close();
  }
});

test("the page refuses an earlier run passed off as the new one, and shows nothing of it", async ({ page }, testInfo) => {
  test.setTimeout(180_000);
  const app = new ResearchAppPage(page);
  const panel = new ResearchPanelPage(page);
  let routed = 0;
  // The intermediary: the start's 202 names the earlier run, and every poll goes to it.
  await page.route(/\/api\/deep-research\/encrypted$/, async (route) => {
    const response = await route.fetch();
    const body = (await response.json()) as Record<string, unknown>;
    if (response.status() !== 202) return route.fulfill({ response });
    const pollUrl = String(body.pollUrl).replace(String(body.messageId), older.messageId);
    return route.fulfill({ response, json: { ...body, messageId: older.messageId, pollUrl } });
  });
  await page.route(/\/api\/deep-research\/encrypted\/status\/[^/?]+$/, async (route) => {
    routed++;
    const url = route.request().url().replace(/[^/]+$/, older.messageId);
    return route.fulfill({ response: await route.fetch({ url }) });
  });

  await app.useTestWallet();
  await app.switchPrivateOn();
  await page.getByLabel("Import a key").fill(recoveryKey);
  await page.getByRole("button", { name: "Import", exact: true }).click();
  await panel.research("rapamycin and lifespan in mice");
  await expect(panel.errorNote).toContainText("another research run of the same recovery key", { timeout: 120_000 });
  await expect(panel.errorNote).toContainText("Nothing from it is shown");
  await expect(panel.errorNote.getByRole("button", { name: "Retry" })).toHaveCount(0);
  await expect(panel.answers).toHaveCount(0);
  expect(routed).toBe(0); // refused at the receipt, before any poll
  // What was authorized is not hidden, and the thread says there is no answer.
  await expect(app.paymentHistory).toContainText("$1.00");
  await expect(page.getByRole("region", { name: "This research thread" })).toContainText("No answer: The service names a research run other than the one the enclave started");
  await page.screenshot({ path: testInfo.outputPath("private-run-passed-off.png"), fullPage: true });
});
