import type { Rule } from "eslint";

/** The lint rule of who may import what (boundaries.mjs beside this file). */
export const boundaries: Rule.RuleModule;
