import type { Page } from "@playwright/test";
import type { Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";

/** The account every scripted wallet holds. */
export const SCRIPTED_ACCOUNT = "0x1111111111111111111111111111111111111111";

export type ScriptedWalletOptions = {
  /** The chain the wallet is on when the page opens (hex, e.g. "0x7a69" for the local chain). */
  chainId: string;
  /** What signing does: the person declines (EIP-1193 4001), or the wallet fails (-32603). */
  sign: "reject" | "fail";
  /** The person refuses to switch networks when asked. */
  refuseSwitch?: boolean;
  /** A key the wallet signs messages with (EIP-191 `personal_sign`, as a sign-in is signed); its address is then the account. */
  messageKey?: Hex;
};

/**
 * Injects an EIP-1193 wallet into the page before it loads: it records every call, knows the
 * chains it started on or was asked to add, and signs typed data as `sign` says; with
 * `messageKey`, it is that key's account and signs messages with it. `moveWallet` switches it to
 * another network as a person would by hand.
 */
export async function injectScriptedWallet(page: Page, { chainId, sign, refuseSwitch = false, messageKey }: ScriptedWalletOptions): Promise<void> {
  const signer = messageKey ? privateKeyToAccount(messageKey) : null;
  // Signing happens here, in the test, with the key the page never sees; the page asks through this.
  if (signer) await page.exposeFunction("scriptedSignMessage", (raw: Hex) => signer.signMessage({ message: { raw } }));
  await page.addInitScript(
    ({ account, startChain, signMode, noSwitch, signsMessages }) => {
      let chain = startChain;
      const known = new Set([startChain]);
      const listeners: Record<string, ((...args: unknown[]) => void)[]> = {};
      const emit = (event: string, value: unknown) => (listeners[event] ?? []).forEach((fn) => fn(value));
      const calls: { method: string; params: unknown }[] = [];
      (window as unknown as { walletCalls: typeof calls }).walletCalls = calls;
      (window as unknown as { moveWallet: (to: string) => void }).moveWallet = (to: string) => {
        known.add(to);
        chain = to;
        emit("chainChanged", to);
      };
      (window as unknown as { ethereum: unknown }).ethereum = {
        isMetaMask: true,
        request: async ({ method, params }: { method: string; params?: unknown[] }) => {
          calls.push({ method, params });
          if (method === "eth_requestAccounts" || method === "eth_accounts") return [account];
          if (method === "eth_chainId") return chain;
          if (method === "wallet_requestPermissions" || method === "wallet_getPermissions") return [{ parentCapability: "eth_accounts" }];
          if (method === "wallet_switchEthereumChain") {
            if (noSwitch) throw Object.assign(new Error("User rejected the request."), { code: 4001 });
            const wanted = (params?.[0] as { chainId: string }).chainId;
            if (!known.has(wanted)) throw Object.assign(new Error("Unrecognized chain"), { code: 4902 });
            chain = wanted;
            emit("chainChanged", chain);
            return null;
          }
          if (method === "wallet_addEthereumChain") {
            const added = (params?.[0] as { chainId: string }).chainId;
            known.add(added);
            chain = added;
            emit("chainChanged", chain);
            return null;
          }
          if (method === "personal_sign" && signsMessages) {
            return (window as unknown as { scriptedSignMessage: (raw: string) => Promise<string> }).scriptedSignMessage((params as string[])[0]!);
          }
          if (method.startsWith("eth_signTypedData")) {
            if (signMode === "reject") throw Object.assign(new Error("User rejected the request."), { code: 4001 });
            throw Object.assign(new Error("Internal error"), { code: -32603 });
          }
          throw Object.assign(new Error(`unsupported ${method}`), { code: 4200 });
        },
        on: (event: string, fn: (...args: unknown[]) => void) => void (listeners[event] ??= []).push(fn),
        removeListener: (event: string, fn: (...args: unknown[]) => void) => void (listeners[event] = (listeners[event] ?? []).filter((f) => f !== fn)),
      };
    },
    { account: signer?.address ?? SCRIPTED_ACCOUNT, startChain: chainId, signMode: sign, noSwitch: refuseSwitch, signsMessages: signer !== null },
  );
}

/** Every call the page made to the scripted wallet, in order. */
export function walletCalls(page: Page): Promise<{ method: string; params: unknown }[]> {
  return page.evaluate(() => (window as unknown as { walletCalls: { method: string; params: unknown }[] }).walletCalls);
}

/** The chain the scripted wallet is on now, as the page would read it. */
export function walletChain(page: Page): Promise<string> {
  return page.evaluate(() => (window as unknown as { ethereum: { request: (a: { method: string }) => Promise<string> } }).ethereum.request({ method: "eth_chainId" }));
}

/** The person switches the wallet to another network by hand. */
export function moveWallet(page: Page, chainId: string): Promise<void> {
  return page.evaluate((to) => (window as unknown as { moveWallet: (to: string) => void }).moveWallet(to), chainId);
}
