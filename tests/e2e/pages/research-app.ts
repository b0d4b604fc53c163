import { expect, type Locator, type Page, type Request } from "@playwright/test";
import { createPublicClient, http, parseAbi } from "viem";
import { readStack } from "../support/stack";

export type PanelName = "chat" | "literature" | "research";

/** Each panel's tab, its question box and its pay button. */
const PANELS: Record<PanelName, { tab: string; question: string; pay: string }> = {
  chat: { tab: "Chat", question: "Your question", pay: "Pay and ask" },
  literature: { tab: "Literature search", question: "Your question", pay: "Pay and search" },
  research: { tab: "Deep research", question: "Your research question", pay: "Pay and start research" },
};

/** Page object of the research app on the home page (who pays, private mode, the three panels). */
export class ResearchAppPage {
  readonly payerAddress: Locator;
  readonly balance: Locator;
  readonly paymentHistory: Locator;
  readonly privateSwitch: Locator;
  readonly enclaveStatus: Locator;
  readonly privateMode: Locator;

  constructor(readonly page: Page) {
    this.payerAddress = page.getByTestId("payer-address");
    this.balance = page.getByTestId("balance");
    this.paymentHistory = page.getByTestId("payment-history");
    this.privateSwitch = page.getByTestId("private-switch");
    this.enclaveStatus = page.getByTestId("enclave-status");
    this.privateMode = page.getByTestId("private-mode");
  }

  panel(name: PanelName): Locator {
    return this.page.locator(`#tabpanel-${name}`);
  }

  payButton(name: PanelName, label = PANELS[name].pay): Locator {
    return this.panel(name).getByRole("button", { name: label });
  }

  /** Opens the page and chooses the demo's local test wallet as the payer. */
  async useTestWallet(): Promise<void> {
    await this.page.goto("/");
    await this.page.getByTestId("use-test-wallet").click();
    await expect(this.payerAddress).toHaveText(/^0x[0-9a-fA-F]{40}$/);
    await expect(this.balance).toContainText("USDC");
  }

  /** Opens the page and connects the browser wallet (an injected one: support/scripted-wallet.ts). */
  async connectWallet(expectedAddress: string | RegExp = /^0x[0-9a-fA-F]{40}$/): Promise<void> {
    await this.page.goto("/");
    await this.page.getByRole("button", { name: "Connect wallet" }).click();
    await expect(this.payerAddress).toHaveText(expectedAddress);
  }

  /** Private mode on (enclave key fetched and checked), with a fresh recovery key when asked. */
  async switchPrivateOn({ recoveryKey = false }: { recoveryKey?: boolean } = {}): Promise<void> {
    await this.privateSwitch.click();
    await expect(this.enclaveStatus).toBeVisible();
    if (recoveryKey) {
      await this.page.getByTestId("create-recovery-key").click();
      await this.page.getByRole("button", { name: "I have saved it" }).click();
    }
  }

  async openTab(name: PanelName): Promise<void> {
    await this.page.getByRole("tab", { name: PANELS[name].tab }).click();
  }

  /** Confirms the question a panel asks before paying more than a chat (literature, deep research). */
  async confirmSpend(name: PanelName): Promise<void> {
    await this.panel(name).getByTestId("spend-confirm").getByRole("button", { name: /^Pay \$/ }).click();
  }

  /** Opens the panel's tab (only the open panel can be typed into) and writes the question. */
  async fillQuestion(name: PanelName, question: string): Promise<void> {
    await this.openTab(name);
    await this.panel(name).getByLabel(PANELS[name].question).fill(question);
  }

  /**
   * Clicks pay buttons from inside the page, all within one event-loop task: React state set by
   * the first click is not rendered yet when the next ones run, as with a fast double click or a
   * script. `clicks` lists each click's panel (and button label when not the panel's default).
   */
  async clickWithinOneTask(clicks: { panel: PanelName; label?: string }[]): Promise<void> {
    const targets = clicks.map((c) => ({ panel: `#tabpanel-${c.panel}`, label: c.label ?? PANELS[c.panel].pay }));
    await this.page.evaluate((list) => {
      const buttons = list.map(({ panel, label }) => {
        const button = [...document.querySelectorAll<HTMLButtonElement>(`${panel} button`)].find((b) => b.textContent?.trim() === label);
        if (!button) throw new Error(`No "${label}" button in ${panel}`);
        return button;
      });
      for (const button of buttons) button.click();
    }, targets);
  }
}

/** One payment authorization the page sent (decoded from a PAYMENT-SIGNATURE header). */
export type SentAuthorization = { url: string; from: `0x${string}`; nonce: `0x${string}`; value: string };

/**
 * Records every request the page sends with a PAYMENT-SIGNATURE header (a paid request), and reads
 * on the demo's chain which of their authorizations were used: what the payee was charged.
 */
export class PaidRequests {
  readonly sent: SentAuthorization[] = [];
  private readonly pending: Promise<void>[] = [];

  constructor(page: Page) {
    page.on("request", (request) => this.pending.push(this.record(request)));
  }

  private async record(request: Request): Promise<void> {
    const header = await request.headerValue("payment-signature").catch(() => null);
    if (!header) return;
    const payload = JSON.parse(Buffer.from(header, "base64").toString("utf8")) as { payload?: { authorization?: { from: `0x${string}`; nonce: `0x${string}`; value: string } } };
    const authorization = payload.payload?.authorization;
    if (!authorization) throw new Error(`A PAYMENT-SIGNATURE without an EIP-3009 authorization to ${request.url()}`);
    this.sent.push({ url: new URL(request.url()).pathname, from: authorization.from, nonce: authorization.nonce, value: authorization.value });
  }

  /** The paid requests sent so far to paths ending in `suffix` (all of them without one). */
  async count(suffix = ""): Promise<number> {
    await Promise.all(this.pending);
    return this.sent.filter((s) => s.url.endsWith(suffix)).length;
  }

  /** How many of the sent authorizations the token shows as used, i.e. how many were charged. */
  async charged(): Promise<number> {
    await Promise.all(this.pending);
    const stack = demoStack();
    const client = createPublicClient({ transport: http(stack.rpcUrl) });
    const abi = parseAbi(["function authorizationState(address authorizer, bytes32 nonce) view returns (bool)"]);
    const used = await Promise.all(
      this.sent.map((s) => client.readContract({ address: stack.asset, abi, functionName: "authorizationState", args: [s.from, s.nonce] })),
    );
    return used.filter(Boolean).length;
  }
}

/** What the demo started (written by scripts/demo.ts into the test's DEMO_DIR). */
const demoStack = readStack;
