/** A CAIP-2 chain id (section 2.2's `network`, e.g. `eip155:8453`): the pattern the contract and the configuration check. */
export const CAIP2_NETWORK = /^[-a-z0-9]{3,8}:[-_a-zA-Z0-9]{1,32}$/;

/** A CAIP-2 chain id, typed as x402's `Network`. */
export type Caip2Network = `${string}:${string}`;

/** Whether `value` is a CAIP-2 chain id. */
export function isCaip2Network(value: unknown): value is Caip2Network {
  return typeof value === "string" && CAIP2_NETWORK.test(value);
}
