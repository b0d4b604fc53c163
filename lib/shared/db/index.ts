export type { Queryable } from "./pool";
