import { expect, type Locator, type Page } from "@playwright/test";

/** Page object of the chat panel: the question box, its messages, the answer. */
export class ChatPanelPage {
  readonly root: Locator;
  readonly question: Locator;
  readonly pay: Locator;
  readonly inputError: Locator;
  readonly answer: Locator;
  readonly progress: Locator;
  readonly resumeBanner: Locator;
  readonly priceNote: Locator;
  readonly errorNote: Locator;
  /** The first [N] marker of the answer. */
  readonly firstMarker: Locator;
  /** Shown while the next question follows up on an earlier answer (which one it names). */
  readonly followingUp: Locator;
  /** Drops the follow-up: the next question is a new one. */
  readonly stopFollowingUp: Locator;
  /** The question the answer on screen answers, and which turn of the thread it is. */
  readonly answerQuestion: Locator;
  readonly answerTurn: Locator;

  constructor(readonly page: Page) {
    this.root = page.locator("#tabpanel-chat");
    this.question = this.root.getByLabel("Your question");
    this.pay = this.root.getByRole("button", { name: "Pay and ask" });
    this.inputError = this.root.getByTestId("message-error");
    this.answer = this.root.getByTestId("answer");
    this.progress = this.root.getByTestId("progress");
    this.resumeBanner = this.root.getByTestId("resume-banner");
    this.priceNote = this.root.getByTestId("price-note");
    this.errorNote = this.root.getByTestId("error-note");
    this.firstMarker = this.answer.locator("a.marker").first();
    this.followingUp = this.root.getByTestId("following-up");
    this.stopFollowingUp = this.root.getByRole("button", { name: "Ask a new question instead" });
    this.answerQuestion = this.root.getByTestId("answer-question");
    this.answerTurn = this.root.getByTestId("answer-turn");
  }

  async open(): Promise<void> {
    await this.page.getByRole("tab", { name: "Chat" }).click();
  }

  /** Pays again for the question in the box (after a failure). */
  async payAgain(): Promise<void> {
    await this.pay.click();
  }

  async ask(question: string): Promise<void> {
    await this.open();
    await this.question.fill(question);
    await this.pay.click();
  }
}

/** Page object of the literature panel: the form (its options behind "Advanced" on phones), the results. */
export class LiteraturePanelPage {
  readonly root: Locator;
  readonly question: Locator;
  readonly pay: Locator;
  readonly questionError: Locator;
  readonly questionCount: Locator;
  readonly advanced: Locator;
  readonly options: Locator;
  readonly results: Locator;
  readonly progress: Locator;
  readonly priceNote: Locator;
  readonly coverage: Locator;
  readonly sourcesUsed: Locator;
  /** The rows of the results' evidence table. */
  readonly evidenceRows: Locator;

  constructor(readonly page: Page) {
    this.root = page.locator("#tabpanel-literature");
    this.question = this.root.getByLabel("Your question");
    this.pay = this.root.getByRole("button", { name: "Pay and search" });
    this.questionError = this.root.locator("#literature-question-error");
    this.questionCount = this.root.getByTestId("question-count");
    this.advanced = this.root.getByRole("button", { name: /advanced options/i });
    this.options = this.root.locator("#literature-options");
    this.results = this.root.getByTestId("literature-results");
    this.progress = this.root.getByTestId("progress");
    this.priceNote = this.root.getByTestId("price-note");
    this.coverage = this.root.getByTestId("tag-coverage");
    this.sourcesUsed = this.root.getByTestId("sources-used");
    this.evidenceRows = this.results.getByTestId("evidence-row");
  }

  async open(): Promise<void> {
    await this.page.getByRole("tab", { name: "Literature search" }).click();
  }

  /** Adds comma-separated tags and checks they are listed. */
  async addTags(tags: string): Promise<void> {
    await this.root.getByLabel("Add tags").fill(tags);
    await this.root.getByRole("button", { name: "Add tag" }).click();
    const list = this.root.getByRole("list", { name: "Tags" });
    for (const tag of tags.split(",").map((t) => t.trim())) await expect(list).toContainText(tag);
  }

  /** Each tag searched on its own beside the question (fanout), with coverage per tag. */
  async chooseFanout(): Promise<void> {
    await this.root.getByLabel(/Each on its own \(fanout\)/).check();
  }

  /** Pays for the search of `question`: its $0.03 asks first (more than a chat), and is confirmed. */
  async search(question: string): Promise<void> {
    await this.open();
    await this.question.fill(question);
    await this.pay.click();
    await this.confirmSpend();
  }

  /** Confirms the question asked before paying more than a chat. */
  async confirmSpend(): Promise<void> {
    await new SpendConfirmPage(this.page, this.root).pay.click();
  }
}

/** Page object of the deep-research panel: the question, the conversation choice, the turns, the world state. */
export class ResearchPanelPage {
  readonly root: Locator;
  readonly question: Locator;
  readonly followUp: Locator;
  readonly start: Locator;
  readonly continueButton: Locator;
  readonly inputError: Locator;
  readonly turns: Locator;
  readonly worldState: Locator;
  readonly done: Locator;
  readonly resumeBanner: Locator;
  readonly progress: Locator;
  /** Shown once the paid request is accepted and followed (not while the signature is awaited). */
  readonly working: Locator;
  readonly priceNote: Locator;
  readonly errorNote: Locator;
  /** The cited replies of the turns. */
  readonly answers: Locator;

  constructor(readonly page: Page) {
    this.root = page.locator("#tabpanel-research");
    this.question = this.root.getByLabel("Your research question");
    this.followUp = this.root.getByLabel("Your follow-up");
    this.start = this.root.getByRole("button", { name: "Pay and start research" });
    this.continueButton = this.root.getByRole("button", { name: "Pay and continue" });
    this.inputError = this.root.getByTestId("message-error");
    this.turns = this.root.getByTestId("research-turn");
    this.worldState = this.root.getByTestId("world-state");
    this.done = this.root.getByTestId("research-done");
    this.resumeBanner = this.root.getByTestId("resume-banner");
    this.progress = this.root.getByTestId("progress");
    this.working = this.root.getByTestId("job-working");
    this.priceNote = this.root.getByTestId("price-note");
    this.errorNote = this.root.getByTestId("error-note");
    this.answers = this.root.getByTestId("research-turns").getByTestId("answer");
  }

  async open(): Promise<void> {
    await this.page.getByRole("tab", { name: "Deep research" }).click();
  }

  /** Starts research on `question`: its $1.00 asks first, and is confirmed. */
  async research(question: string): Promise<void> {
    await this.open();
    await this.question.fill(question);
    await this.start.click();
    await this.confirmSpend();
  }

  /** Confirms the question asked before paying more than a chat. */
  async confirmSpend(): Promise<void> {
    await new SpendConfirmPage(this.page, this.root).pay.click();
  }
}

/** Page object of the research thread and of this wallet's history. */
export class ThreadPage {
  readonly root: Locator;
  readonly entries: Locator;
  readonly followUps: Locator;
  readonly history: Locator;
  readonly historySearch: Locator;
  readonly historyThreads: Locator;

  constructor(readonly page: Page) {
    this.root = page.getByTestId("thread");
    this.entries = this.root.getByTestId("thread-entry");
    this.followUps = this.root.getByTestId("follow-up");
    this.history = page.getByTestId("research-history");
    this.historySearch = this.history.getByLabel("Search your questions and answers");
    this.historyThreads = this.history.getByTestId("history-thread");
  }

  /** The entry that asked `question` (the whole question when a string: a follow-up names the question it follows too). */
  entry(question: string | RegExp): Locator {
    return this.entries.filter({ has: this.page.getByTestId("thread-question").getByText(question, { exact: typeof question === "string" }) });
  }

  async startNew(): Promise<void> {
    await this.root.getByRole("button", { name: "Start a new thread" }).click();
    await expect(this.entries).toHaveCount(0);
  }
}

/**
 * Page object of the question asked before any action that costs more than a chat: the price,
 * what it buys, "Don't ask again this visit", pay or not now.
 */
export class SpendConfirmPage {
  readonly root: Locator;
  readonly pay: Locator;
  readonly notNow: Locator;
  readonly dontAskAgain: Locator;

  constructor(
    readonly page: Page,
    scope: Locator | Page = page,
  ) {
    this.root = scope.getByTestId("spend-confirm");
    this.pay = this.root.getByRole("button", { name: /^Pay \$/ });
    this.notNow = this.root.getByRole("button", { name: "Not now" });
    this.dontAskAgain = this.root.getByLabel("Don't ask again this visit");
  }
}
