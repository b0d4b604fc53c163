/**
 * The wallet stayed on another network than the payment chain (it refused or failed to switch).
 * Thrown by lib/web/wallet.ts but defined apart from it, so the page's words for failures
 * (describe-thrown.ts) recognise it by its class without loading the wallet code.
 */
export class WrongNetworkError extends Error {
  constructor(chainName: string, cause: unknown) {
    super(`The wallet is not on ${chainName}`, { cause });
    this.name = "WrongNetworkError";
  }
}
