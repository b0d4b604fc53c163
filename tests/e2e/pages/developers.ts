import { expect, type Locator, type Page } from "@playwright/test";

/** Page object of /developers: routes, prices, polling, the OpenAPI document and examples. */
export class DevelopersPage {
  readonly paidRoutes: Locator;
  readonly freeRoutes: Locator;
  readonly polling: Locator;
  readonly openApiLink: Locator;

  constructor(readonly page: Page) {
    this.paidRoutes = page.getByTestId("paid-routes");
    this.freeRoutes = page.getByTestId("free-routes");
    this.polling = page.getByTestId("polling");
    this.openApiLink = page.getByRole("link", { name: "OpenAPI 3.1 document" });
  }

  async goto(): Promise<void> {
    await this.page.goto("/developers");
    await expect(this.page.getByRole("heading", { level: 1 })).toHaveText("For developers and AI agents");
  }

  priceOf(operation: string): Locator {
    return this.paidRoutes.getByRole("row", { name: new RegExp(`^${operation}\\b`) }).locator("td.price");
  }

  example(label: string): Locator {
    return this.page.getByRole("figure", { name: label }).locator("pre");
  }
}
