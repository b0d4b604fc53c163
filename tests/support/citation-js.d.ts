/** The parts of Citation.js (npm @citation-js/core, untyped) the RIS tests use: input parsing to CSL-JSON. */
declare module "@citation-js/core" {
  export const plugins: { input: { chain(input: string, options?: { generateGraph?: boolean }): Record<string, unknown>[] } };
}
declare module "@citation-js/plugin-ris";
