/** "a", "a and b", "a, b and c" (or "or"): items as a sentence lists them. */
export function listed(items: readonly string[], conjunction: "and" | "or" = "and"): string {
  return items.length <= 1 ? (items[0] ?? "") : `${items.slice(0, -1).join(", ")} ${conjunction} ${items.at(-1)}`;
}

/** A string as a regular expression matches it, every special character escaped. */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
