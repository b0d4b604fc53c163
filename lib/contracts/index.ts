/** The service contract (`../shared/spec/service-contract.md`) as zod schemas and inferred types. */
export * from "./common";
export * from "./storable-text";
export * from "./payment";
export * from "./sign-in";
export * from "./history";
export * from "./evidence";
export * from "./chat";
export * from "./deep-research";
export * from "./deep-research-world";
export * from "./literature";
export * from "./sealing";
export * from "./sealing-page";
export * from "./health";
export * from "./source-health";
export * from "./upstream-chat";
export * from "./work-statuses";
export { componentRef, documentAs, documentedShapeOf, requestRegistry, responseRegistry } from "./registry";
export * from "./version";
