import { test as base } from "@playwright/test";
import { stackOf } from "./stacks";

/** Playwright's `test`, with `baseURL` the gateway of this worker's own demo stack (stacks.ts). */
export const test = base.extend({
  baseURL: async ({}, provide, testInfo) => provide(stackOf(testInfo.parallelIndex).baseURL),
});

export { expect } from "@playwright/test";
