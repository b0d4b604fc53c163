import { expect, type Locator, type Page } from "@playwright/test";

/** Page object of the home page: the research app for people, with links to the developer and status pages. */
export class HomePage {
  readonly heading: Locator;
  readonly lead: Locator;
  readonly developersLink: Locator;
  readonly statusLink: Locator;
  readonly tabs: Locator;
  /** The chat panel's question box: the first thing a visitor reaches. */
  readonly questionBox: Locator;
  /** Example questions; a click writes one in the box (it asks and pays for nothing). */
  readonly examples: Locator;
  /** The free sample answer, rendered from the engine's stored answer. */
  readonly sample: Locator;
  readonly privateMode: Locator;
  /** Which enclave the page trusts, in plain words (in the private-mode section). */
  readonly trust: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole("heading", { level: 1 });
    this.lead = page.locator("p.lead");
    this.developersLink = page.getByRole("link", { name: /For developers and AI agents/ });
    this.statusLink = page.locator("footer").getByRole("link", { name: "Service status" });
    this.tabs = page.getByRole("tablist", { name: "What to do" }).getByRole("tab");
    this.questionBox = page.locator("#tabpanel-chat").getByLabel("Your question");
    this.examples = page.getByTestId("example-questions").getByRole("button");
    this.sample = page.getByTestId("sample-answer");
    this.privateMode = page.getByTestId("private-mode");
    this.trust = page.getByTestId("enclave-trust");
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
