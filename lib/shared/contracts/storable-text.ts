/** A UTF-16 code unit that is half of a surrogate pair with no other half beside it. */
const UNPAIRED_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * Why a string is not text both services can keep, or null when it is. PostgreSQL refuses NUL
 * (U+0000) in `text` and `jsonb`, and an unpaired surrogate (JSON allows `"\ud800"`) is not
 * Unicode at all: `jsonb` refuses it and UTF-8 has no encoding for it. Either would otherwise
 * reach the database as a 500 (a 502 through the gateway). Zod-free, for the gateway's proxy.
 */
export function unstorableTextProblem(value: string): string | null {
  if (value.includes("\u0000")) return "must not contain NUL (U+0000), which PostgreSQL cannot store";
  const surrogate = UNPAIRED_SURROGATE.exec(value);
  if (surrogate) {
    const code = surrogate[0].charCodeAt(0).toString(16).toUpperCase();
    return `must be Unicode text: it holds an unpaired surrogate (U+${code}) at position ${surrogate.index}`;
  }
  return null;
}
