import type { Page } from "@playwright/test";
import { expect, test } from "./support/test";
import { PHONE } from "./support/projects";
import type { ChatResult, HealthResponse } from "@/lib/shared/contracts";
import { bibFamilies, readBibtex, readRis } from "../support/reference-parsers";
import { AnswerPage } from "./pages/answer";
import { ResearchAppPage } from "./pages/research-app";

/**
 * What a researcher takes away and what /status tells them, on the demo's stack: the references of
 * a paid chat answer download as BibTeX and RIS that real parsers (a reference manager's) read as
 * journal articles with their authors and whole titles; /status says which literature sources were
 * never tried, when a failing one is tried next, how many paid requests were served; an answer that
 * lost several sources says so in words that agree; /developers fits a phone.
 *
 * The demo has no internet: PubMed and Europe PMC fail (their circuits open after a few chats) and
 * answers come from the local library (tests/fixtures/library/records.jsonl, synthetic records
 * with authors, journal, volume, issue and pages); bioRxiv, asked only for a preprint's journal
 * version, is never tried.
 */

type WireChat = Pick<ChatResult, "answer" | "references" | "failedSources">;

/** Asks in a fresh chat (a new thread, the test wallet chosen again) and returns the result as the service sent it. */
async function askChat(page: Page, question: string): Promise<WireChat> {
  const app = new ResearchAppPage(page);
  await page.goto("/");
  await page.evaluate(() => {
    localStorage.clear();
    sessionStorage.clear();
  });
  await app.useTestWallet();
  const completed = page.waitForResponse(async (r) => r.url().includes("/api/chat/status/") && r.ok() && (await r.json()).status === "completed", { timeout: 60_000 });
  await app.fillQuestion("chat", question);
  await app.payButton("chat").click();
  return ((await (await completed).json()) as { result: WireChat }).result;
}

test("a chat answer's references download as BibTeX and RIS a reference manager reads: journal articles with authors, volume, issue, pages and whole titles", async ({ page }, testInfo) => {
  const { references } = await askChat(page, "Does rapamycin extend lifespan in mice?");
  const answer = new AnswerPage(page, page.locator("#tabpanel-chat"));
  await expect(answer.root).toBeVisible();
  const rapamycin = references.find((r) => r.pmid === "90000001");
  expect(rapamycin, "the synthetic rapamycin record is among the references").toBeTruthy();

  const bib = await answer.exportAs("BibTeX");
  const entries = readBibtex(bib.text);
  expect(entries).toHaveLength(references.length);
  const entry = entries.find((e) => e.fields.pmid === "90000001")!;
  expect(entry.type).toBe("article");
  expect(entry.fields.title).toBe(rapamycin!.title);
  expect(bibFamilies(entry)).toEqual(["Testwell", "Samplewood", "Fixture"]);
  expect(entry.fields).toMatchObject({ journal: "Synthetic Journal of Aging", volume: "460", number: "7253", pages: "392\u2013395", year: "2009", doi: "10.5555/synth.0001" });
  // Every title is the service's own, whole: nothing cut.
  for (const ref of references) if (!ref.titleDerived) expect(entries.map((e) => e.fields.title)).toContain(ref.title);

  const ris = await answer.exportAs("RIS");
  const items = readRis(ris.text);
  expect(items).toHaveLength(references.length);
  const item = items.find((i) => i.DOI === "10.5555/synth.0001")!;
  expect(item).toMatchObject({ type: "article-journal", title: rapamycin!.title, "container-title": "Synthetic Journal of Aging", volume: "460", issue: "7253", page: "392-395" });
  expect(item.author?.map((a) => a.family)).toEqual(["Testwell", "Samplewood", "Fixture"]);
  await page.screenshot({ path: testInfo.outputPath("answer-with-exports.png"), fullPage: true });
  await answer.table.screenshot({ path: testInfo.outputPath("evidence-table.png") });
});

/**
 * Asks chats until one answer says PubMed and Europe PMC were both skipped for failing (their
 * circuits open): offline each chat finds both failing once, so a few are enough. Returns that answer.
 */
async function askUntilBothSkipped(page: Page): Promise<WireChat> {
  for (let i = 1; i <= 6; i++) {
    const chat = await askChat(page, `Does caloric restriction delay age-related disease in rhesus monkeys? (${i})`);
    const skipped = (chat.failedSources ?? []).filter((f) => f.kind === "circuit_open").map((f) => f.source);
    if (skipped.includes("pubmed") && skipped.includes("europepmc")) return chat;
  }
  throw new Error("PubMed and Europe PMC were still asked after six chats: their circuits never opened");
}

test("an answer that lost several sources says so in words that agree: 'PubMed and Europe PMC were not asked'", async ({ page }, testInfo) => {
  const chat = await askUntilBothSkipped(page);
  expect(chat.failedSources).toEqual(expect.arrayContaining([{ source: "pubmed", kind: "circuit_open" }, { source: "europepmc", kind: "circuit_open" }]));
  const answer = new AnswerPage(page, page.locator("#tabpanel-chat"));
  await expect(answer.root).toContainText("PubMed and Europe PMC were not asked, having failed repeatedly just before");
  await expect(answer.root).not.toContainText(/\bwas not asked\b/);
  await page.screenshot({ path: testInfo.outputPath("answer-sources-skipped.png"), fullPage: true });
});

test("/status says which sources were never tried (a neutral 'not tried yet', never 'healthy') and when a failing one is tried next (a time to come)", async ({ page }, testInfo) => {
  await askUntilBothSkipped(page);
  const reportRead = page.waitForResponse((r) => r.url().endsWith("/api/health"));
  await page.goto("/status");
  const untried = ((await (await reportRead).json()) as HealthResponse).literature!.sources.filter((s) => s.successes + s.failures === 0);
  expect(untried.map((s) => s.source)).toContain("biorxiv");
  for (const s of untried) {
    const row = page.getByTestId(`health-source-${s.source}`);
    await expect(row).toContainText("not tried yet");
    await expect(row).not.toContainText(/healthy|answering/);
    await expect(row.locator(".badge")).toHaveCSS("color", "rgb(92, 103, 99)"); // --muted: neither good nor bad
  }
  // Skipped until its next try, a time to come (or due now); its probe may be running this very moment.
  await expect(page.getByTestId("health-source-pubmed")).toContainText(/skipped \(failing\)\s*next try (at \d{1,2}:\d{2}:\d{2}( [AP]M)?|due now)|being tried again/);
  await expect(page.getByTestId("health-panel")).not.toContainText("tried again at");
  await expect(page.getByTestId("health-literature")).not.toContainText("every source answering");
  await expectTablesFit(page);
  await page.screenshot({ path: testInfo.outputPath("status.png"), fullPage: true });
  await page.getByTestId("health-sources").screenshot({ path: testInfo.outputPath("status-sources.png") });
});

test("/status counts the paid requests served, by kind, where it said 'Conversations N total'", async ({ page, request }) => {
  await askChat(page, "Does metformin reduce frailty in older adults?");
  const report = (await (await request.get("/api/health")).json()) as HealthResponse;
  expect(report.paidRequests!.chats).toBeGreaterThanOrEqual(1);
  await page.goto("/status");
  const paid = page.getByTestId("health-paid-requests");
  await expect(paid).toContainText(/^\d+ chats? · \d+ literature searche?s? · \d+ deep-research runs?/);
  expect(Number((await paid.textContent())!.match(/^(\d+) chat/)![1])).toBeGreaterThanOrEqual(report.paidRequests!.chats);
  await expect(page.getByTestId("health-conversations")).toHaveText(/^(none on record|\d+ on record: .+)$/);
  await expect(page.getByTestId("health-panel")).not.toContainText(/Conversations\s*\d+ total/);
});

/**
 * Every column of every table on the page is shown (none hidden to make the table fit) and within
 * the viewport, in every row: on a phone a row becomes a card of its columns.
 */
async function expectTablesFit(page: Page): Promise<void> {
  const width = await page.evaluate(() => document.documentElement.clientWidth);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
  const tables = page.locator("main table");
  expect(await tables.count()).toBeGreaterThan(0);
  for (const table of await tables.all()) {
    const columns = await table.locator("thead th").count();
    const rows = await table.locator("tbody tr").evaluateAll((trs) =>
      trs.map((tr) => {
        const cells = [...tr.children];
        const shown = cells.filter((cell) => getComputedStyle(cell).display !== "none");
        return { shown: shown.length, rights: shown.map((cell) => cell.getBoundingClientRect().right), text: (tr as HTMLElement).innerText.slice(0, 60) };
      }),
    );
    for (const row of rows) {
      expect(row.shown, `every column of the row "${row.text}"`).toBe(columns);
      for (const right of row.rights) expect(right, `the row "${row.text}" within the viewport`).toBeLessThanOrEqual(width);
    }
  }
}

test("/developers fits the screen: every table's last column is shown and within the viewport, on a phone too", PHONE, async ({ page }, testInfo) => {
  await page.goto("/developers");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("For developers and AI agents");
  await expectTablesFit(page);
  // The paid routes' last column, when each is settled, is read on a phone too.
  const settled = page.getByTestId("paid-routes").locator("tbody tr").first().locator("td").last();
  await expect(settled).toBeVisible();
  await expect(settled).toHaveText("when the result is delivered");
  await page.screenshot({ path: testInfo.outputPath("developers.png"), fullPage: true });
  await page.getByTestId("paid-routes").screenshot({ path: testInfo.outputPath("developers-paid-routes.png") });
});
