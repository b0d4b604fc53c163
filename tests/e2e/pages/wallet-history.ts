import { expect, type Locator, type Page } from "@playwright/test";

/**
 * Page object of the research history signed in with the payer's wallet (x402 sign-in-with-x):
 * the sign-in, the wallet's past threads as the service keeps them, opening one into the thread.
 */
export class WalletHistoryPage {
  readonly root: Locator;
  readonly signInButton: Locator;
  readonly state: Locator;
  /** The wallet's threads, as the service lists them (signed in). */
  readonly threads: Locator;

  constructor(readonly page: Page) {
    this.root = page.getByTestId("research-history");
    this.signInButton = this.root.getByTestId("history-sign-in");
    this.state = this.root.getByTestId("history-sign-in-state");
    this.threads = this.root.locator('[data-testid="history-thread"][data-source="wallet"]');
  }

  /** Signs in with the payer's wallet (it signs a message, paying nothing) and waits for the wallet's history. */
  async signIn(): Promise<void> {
    await expect(this.state).toHaveAttribute("data-state", "signed-out");
    await this.signInButton.click();
    await expect(this.state).toHaveAttribute("data-state", "signed-in");
  }

  /** The listed thread whose title is `question`. */
  thread(question: string): Locator {
    return this.threads.filter({ hasText: question });
  }

  /** Opens the thread of `question` into this page's research thread. */
  async open(question: string): Promise<void> {
    await this.thread(question).getByRole("button", { name: "Open" }).click();
    await expect(this.thread(question).getByText("open", { exact: true })).toBeVisible();
  }
}
