/**
 * Narrow readers for JSON of unknown shape. Every source answers with JSON we do not control, so
 * parsers read it through these instead of trusting a cast: a missing or oddly typed field becomes
 * `undefined`, never an exception deep inside a parser.
 */

export type JsonObject = Record<string, unknown>;

export function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The object at `key`, or undefined. */
export function readObject(value: unknown, key: string): JsonObject | undefined {
  if (!isObject(value)) return undefined;
  const field = value[key];
  return isObject(field) ? field : undefined;
}

/** A string (numbers are converted; blank strings count as missing). */
export function readString(value: unknown, key?: string): string | undefined {
  const field = key === undefined ? value : isObject(value) ? value[key] : undefined;
  if (typeof field === "number" && Number.isFinite(field)) return String(field);
  if (typeof field !== "string") return undefined;
  const trimmed = field.trim();
  return trimmed === "" ? undefined : trimmed;
}

/** A finite number (numeric strings are converted). */
export function readNumber(value: unknown, key?: string): number | undefined {
  const field = key === undefined ? value : isObject(value) ? value[key] : undefined;
  if (typeof field === "number") return Number.isFinite(field) ? field : undefined;
  if (typeof field === "string" && field.trim() !== "") {
    const parsed = Number(field);
    return Number.isFinite(parsed) ? parsed : undefined;
  }
  return undefined;
}

export function readBoolean(value: unknown, key: string): boolean | undefined {
  const field = isObject(value) ? value[key] : undefined;
  return typeof field === "boolean" ? field : undefined;
}

/** The array at `key`; a lone value is wrapped, since several APIs collapse one-element lists. */
export function readArray(value: unknown, key?: string): unknown[] {
  const field = key === undefined ? value : isObject(value) ? value[key] : undefined;
  if (field === undefined || field === null) return [];
  return Array.isArray(field) ? field : [field];
}

/** The non-blank strings of the array at `key`. */
export function readStrings(value: unknown, key?: string): string[] {
  return readArray(value, key).flatMap((item) => readString(item) ?? []);
}

/** Follows `path` through nested objects. */
export function readPath(value: unknown, ...path: string[]): unknown {
  let current = value;
  for (const key of path) {
    if (!isObject(current)) return undefined;
    current = current[key];
  }
  return current;
}
