import { expect, type Locator, type Page } from "@playwright/test";

/** Page object of the home page. */
export class HomePage {
  readonly heading: Locator;
  readonly operations: Locator;
  readonly health: Locator;
  readonly overall: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole("heading", { level: 1 });
    this.operations = page.locator("table").first();
    this.health = page.getByTestId("health-panel");
    this.overall = page.getByTestId("health-overall");
  }

  async goto(): Promise<void> {
    await this.page.goto("/");
    await expect(this.heading).toHaveText("Longevity Research Agent");
  }

  component(id: "database" | "upstreamApi"): Locator {
    return this.page.getByTestId(`health-component-${id}`);
  }

  priceOf(operation: string): Locator {
    return this.operations.getByRole("row", { name: new RegExp(`^${operation}\\b`) }).locator("td.price");
  }
}
