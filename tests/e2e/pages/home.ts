import { expect, type Locator, type Page } from "@playwright/test";

/** Page object of the home page: the research app for people, with links to the developer and status pages. */
export class HomePage {
  readonly heading: Locator;
  readonly lead: Locator;
  readonly developersLink: Locator;
  readonly statusLink: Locator;
  readonly tabs: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole("heading", { level: 1 });
    this.lead = page.locator("p.lead");
    this.developersLink = page.getByRole("link", { name: /For developers and AI agents/ });
    this.statusLink = page.getByRole("link", { name: "Service status" });
    this.tabs = page.getByRole("tablist", { name: "What to do" }).getByRole("tab");
  }

  async goto(): Promise<void> {
    await this.page.goto("/");
    await expect(this.heading).toHaveText("Longevity Research Agent");
  }
}

/** Page object of /status: the live health report. */
export class StatusPage {
  readonly health: Locator;
  readonly overall: Locator;

  constructor(readonly page: Page) {
    this.health = page.getByTestId("health-panel");
    this.overall = page.getByTestId("health-overall");
  }

  async goto(): Promise<void> {
    await this.page.goto("/status");
    await expect(this.page.getByRole("heading", { level: 1 })).toHaveText("Status");
  }

  component(id: "database" | "upstreamApi"): Locator {
    return this.page.getByTestId(`health-component-${id}`);
  }
}
