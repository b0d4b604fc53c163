import { expect, type Download, type Locator, type Page } from "@playwright/test";
import fs from "node:fs/promises";

/** Page object of a cited answer (AnswerView): its bottom line, evidence table, legend and tools. */
export class AnswerPage {
  readonly root: Locator;
  readonly bottomLine: Locator;
  readonly verdict: Locator;
  readonly origin: Locator;
  readonly table: Locator;
  readonly rows: Locator;
  readonly legend: Locator;
  readonly tools: Locator;

  constructor(
    readonly page: Page,
    scope: Locator = page.locator("body"),
  ) {
    this.root = scope.getByTestId("answer").first();
    this.bottomLine = this.root.getByTestId("bottom-line");
    this.verdict = this.root.getByTestId("verdict");
    this.origin = this.root.getByTestId("evidence-origin");
    this.table = this.root.getByTestId("references");
    this.rows = this.table.getByTestId("evidence-row");
    this.legend = this.root.getByTestId("evidence-legend");
    this.tools = this.root.getByTestId("answer-tools");
  }

  row(ordinal: number): Locator {
    return this.table.locator(`tr[id$="-ref-${ordinal}"]`);
  }

  /** The cell of a column ("Design", "Who", "Sample size", "Finding", "Role", "Verification") in a row. */
  cell(row: Locator, column: string): Locator {
    return row.locator(`td[data-label="${column}"]`);
  }

  async openLegend(): Promise<void> {
    await this.legend.locator("summary").click();
    await expect(this.legend).toHaveAttribute("open", "");
  }

  /** Clicks an export button and returns the downloaded file's name and text. */
  async exportAs(format: "BibTeX" | "RIS" | "CSV"): Promise<{ name: string; text: string }> {
    const [download]: [Download, void] = await Promise.all([this.page.waitForEvent("download"), this.tools.getByRole("button", { name: format, exact: true }).click()]);
    const file = await download.path();
    return { name: download.suggestedFilename(), text: await fs.readFile(file, "utf8") };
  }

  async copyWithSources(): Promise<string> {
    await this.tools.getByRole("button", { name: "Copy answer with sources" }).click();
    await expect(this.tools.getByRole("status")).toHaveText("Copied, with its sources.");
    return this.page.evaluate(() => navigator.clipboard.readText());
  }
}
