/**
 * Amounts of the service's token, a USD stablecoin with 6 decimals (USDC): the 402's `amount` is
 * in its base units (1000000 = $1.00), the local MCP server's caps are written in dollars, and every price shown is rendered from base units.
 */
const USD_DECIMALS = 6;
const UNIT = 10n ** BigInt(USD_DECIMALS);

/** `"1"`, `"1.5"`, `"$0.02"` → base units. Throws on anything else (a negative, more than 6 decimals). */
export function parseUsd(text: string): bigint {
  const match = /^\$?(\d+)(?:\.(\d{1,6}))?$/.exec(text.trim());
  if (!match) throw new Error(`"${text}" is not an amount in dollars such as 1.00 (at most ${USD_DECIMALS} decimals)`);
  return BigInt(match[1]!) * UNIT + BigInt((match[2] ?? "").padEnd(USD_DECIMALS, "0"));
}

/** Base units → `$0.02`, with all the digits it needs past the cents (`$0.000001`). */
export function formatUsd(units: bigint): string {
  const sign = units < 0n ? "-" : "";
  const abs = units < 0n ? -units : units;
  const cents = (abs % UNIT).toString().padStart(USD_DECIMALS, "0").replace(/0+$/, "").padEnd(2, "0");
  return `${sign}$${abs / UNIT}.${cents}`;
}
