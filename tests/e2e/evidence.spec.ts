import type { Page } from "@playwright/test";
import { expect, test } from "./support/test";
import { PHONE } from "./support/projects";
import { AnswerPage } from "./pages/answer";
import { ResearchAppPage } from "./pages/research-app";

/**
 * The evidence at a glance and taking it away, on a real paid chat answered from the demo's local
 * library: the bottom line, the evidence table with its legend and tooltips, links that lead to
 * public places (never the agent), the library's record page, copy and the three exports.
 */

type WireReference = { ordinal: number; title: string; url: string; verification: string; evidenceRole: string };

/** Asks in the chat panel with the test wallet and returns the references as the service sent them. */
async function askChat(page: Page, question: string): Promise<WireReference[]> {
  const app = new ResearchAppPage(page);
  await app.useTestWallet();
  const completed = page.waitForResponse(async (r) => r.url().includes("/api/chat/status/") && r.ok() && (await r.json()).status === "completed", { timeout: 60_000 });
  await app.fillQuestion("chat", question);
  await app.payButton("chat").click();
  const body = (await (await completed).json()) as { result: { references: WireReference[] } };
  return body.result.references;
}

test("a chat answer opens with its bottom line and lists its evidence in a table with a legend, tooltips and public links", PHONE, async ({ page, context }, testInfo) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  const references = await askChat(page, "Does caloric restriction delay age-related disease in rhesus monkeys?");
  const answer = new AnswerPage(page, page.locator("#tabpanel-chat"));
  await expect(answer.root).toBeVisible();
  expect(references.length).toBeGreaterThan(0);

  await test.step("the bottom line: the verdict in words, what it means, and where the evidence comes from", async () => {
    await expect(answer.verdict).toHaveText(/^The evidence (supports it|contradicts it|leans toward it|leans against it|is mixed|is insufficient)$/);
    await expect(answer.verdict).toHaveAttribute("title", /.{20,}/);
    await expect(answer.origin).toContainText(/^Evidence from: .*(human|animal|cell|not saying in whom)/);
  });

  await test.step("the table: a row per reference with every column, a tooltip on every grade, 'Verified' only where it is", async () => {
    await expect(answer.rows).toHaveCount(references.length);
    await expect(answer.root.getByRole("heading", { name: `Evidence (${references.length} reference${references.length === 1 ? "" : "s"})` })).toBeVisible();
    for (const ref of references) {
      const row = answer.row(ref.ordinal);
      await expect(row).toContainText(ref.title);
      for (const column of ["Design", "Who", "Sample size", "Finding", "Role", "Verification"]) await expect(answer.cell(row, column)).toHaveCount(1);
      const verification = answer.cell(row, "Verification");
      await expect(verification).toContainText(ref.verification === "verified" ? "Verified" : ref.verification === "probable" ? "Probably genuine" : "Not verified");
      if (ref.verification !== "verified") await expect(verification).not.toContainText(/^Verified/);
      await expect(verification).toContainText(/confidence \d+%/);
      // Every grade explains itself on hover.
      const grades = row.locator("td:not([data-label='Reference']) span[title]");
      expect(await grades.count()).toBeGreaterThanOrEqual(3);
      for (const title of await grades.evaluateAll((els) => els.map((e) => e.getAttribute("title") ?? ""))) expect(title.length).toBeGreaterThan(20);
    }
    await answer.openLegend();
    await expect(answer.legend).toContainText("Not verified");
    await expect(answer.legend).toContainText("No registry confirmed this record");
    await expect(answer.legend).toContainText("confidence N%");
  });

  await test.step("links go to PubMed, a DOI, the trial registry or this gateway's record page, never to the agent", async () => {
    const hrefs = await answer.root.locator("a[href]").evaluateAll((as) => as.map((a) => (a as HTMLAnchorElement).href));
    const origin = new URL(page.url()).origin;
    for (const href of hrefs) {
      const url = new URL(href);
      expect(href).not.toContain("/api/library/");
      expect(url.origin === origin ? /^\/(library\/records\/[0-9a-f-]{36})?$/.test(url.pathname) : /^(pubmed\.ncbi\.nlm\.nih\.gov|doi\.org|clinicaltrials\.gov)$/.test(url.hostname)).toBe(true);
    }
    // The rhesus monkey record has no PMID, DOI or trial id: it is served by the gateway, and the
    // API's own answer already names the gateway's public page (LIBRARY_RECORD_PAGE_URL), never the agent.
    expect(references.filter((r) => r.url.includes("/api/library/"))).toEqual([]);
    const local = references.find((r) => r.url.startsWith(`${origin}/library/records/`));
    expect(local, "the local-library record without ids is among the references").toBeTruthy();
    await page.screenshot({ path: testInfo.outputPath("evidence-table.png"), fullPage: true });
    const link = answer.row(local!.ordinal).getByRole("link", { name: "Library record" });
    await expect(link).toHaveAttribute("href", /^\/library\/records\/[0-9a-f-]{36}$/);
    const copied = await answer.copyWithSources();
    expect(copied).toContain("\n\nSources\n[1] ");
    expect(copied).not.toContain("**");
    expect(copied).not.toContain("/api/library/");
    expect(copied).toContain(`${origin}/library/records/`);

    await link.click();
    await expect(page.getByTestId("record-title")).toHaveText(local!.title);
    await expect(page.getByTestId("record-abstract")).toContainText(/rhesus/i);
    await page.screenshot({ path: testInfo.outputPath("library-record.png"), fullPage: true });
  });
});

test("the references export as BibTeX, RIS and CSV, and the answer prints without the controls", async ({ page }, testInfo) => {
  const references = await askChat(page, "Does rapamycin extend lifespan in mice?");
  const answer = new AnswerPage(page, page.locator("#tabpanel-chat"));
  await expect(answer.root).toBeVisible();

  const bib = await answer.exportAs("BibTeX");
  expect(bib.name).toBe("references-chat.bib");
  expect(bib.text.match(/^@(article|misc)\{/gm)).toHaveLength(references.length);
  expect(bib.text).toContain(`title = {{${references[0]!.title}}}`);

  const ris = await answer.exportAs("RIS");
  expect(ris.name).toBe("references-chat.ris");
  expect(ris.text.match(/^ER {2}- /gm)).toHaveLength(references.length);

  const csv = await answer.exportAs("CSV");
  expect(csv.name).toBe("references-chat.csv");
  const lines = csv.text.trimEnd().split("\r\n");
  expect(lines[0]).toBe("number,title,year,journal,design,species,population,sample size,outcome direction,role,verification,confidence,doi,pmid,url");
  expect(lines).toHaveLength(references.length + 1);
  for (const file of [bib, ris, csv]) expect(file.text).not.toContain("/api/library/");

  // The printable view: the answer and its evidence, no wallet, tabs, forms or buttons.
  await page.emulateMedia({ media: "print" });
  await expect(page.getByTestId("wallet")).toBeHidden();
  await expect(page.getByRole("tablist")).toBeHidden();
  await expect(answer.tools).toBeHidden();
  await expect(answer.table).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath("answer-print.png"), fullPage: true });
});
