/**
 * The tag of the tests that also run at a phone's width (playwright.config.ts, the `phone`
 * project): those whose layout or touch flow differs there (the first screen, the evidence as
 * cards, the thread and its follow-ups, tables that must fit). A test of what the server says
 * (status, exports, errors) runs once, at the desktop width: the phone would repeat it word for word.
 */
export const PHONE = { tag: "@phone" };
