export * from "./errors";
export * from "./body";
export * from "./relay";
export * from "./route";
export * from "./rate-limited";
export * from "./unmatched";
