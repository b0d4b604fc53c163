"use client";

import { useCallback, useEffect, useRef, useState } from "react";
import { describeThrown } from "@/lib/web/describe-thrown";
import type { UserFacingError } from "@/lib/web/user-facing-error";
import type { Payer, WebConfig } from "@/lib/web/types";

/** Who paid last in this browser, so a reload (or a later visit) does not ask again. */
const PAYER_KEY = "lra:payer";
type PayerKind = "test" | "injected" | "walletConnect";

export type PayerState = {
  payer: Payer | null;
  /** The payment token balance in words ("12.34 USDC"), "unknown" when it could not be read, null before it is. */
  balance: string | null;
  error: UserFacingError | null;
  connecting: boolean;
  choose: (kind: PayerKind) => Promise<void>;
  leave: () => Promise<void>;
  refreshBalance: (address: `0x${string}`) => Promise<void>;
};

/**
 * Who pays: a browser wallet or, in local mode, the demo's test wallet, chosen again on the next
 * visit; and its balance of the payment token. `onChange` hears each payer chosen or left.
 */
export function usePayer({ config, onChange }: { config: WebConfig; onChange: (payer: Payer | null) => void }): PayerState {
  const [payer, setPayer] = useState<Payer | null>(null);
  const [balance, setBalance] = useState<string | null>(null);
  const [error, setError] = useState<UserFacingError | null>(null);
  const [connecting, setConnecting] = useState(false);

  const refreshBalance = useCallback(
    async (address: `0x${string}`) => {
      try {
        // The wallet code is loaded the first time it is needed, not with the page; each use
        // imports it by name, so the dead-code check sees which of its exports are used.
        const { tokenBalance } = await import("@/lib/web/wallet");
        const units = await tokenBalance(config, address);
        setBalance(`${(Number(units) / 1e6).toFixed(2)} ${config.assetSymbol}`);
      } catch {
        setBalance("unknown");
      }
    },
    [config],
  );

  async function choose(kind: PayerKind) {
    setConnecting(true);
    setError(null);
    try {
      const wallet = await import("@/lib/web/wallet");
      const chosen = kind === "test" ? wallet.testWalletPayer(config) : await wallet.connectWallet(config, kind);
      setPayer(chosen);
      localStorage.setItem(PAYER_KEY, kind);
      onChange(chosen);
      void refreshBalance(chosen.address);
    } catch (err) {
      setError(describeThrown(err));
    } finally {
      setConnecting(false);
    }
  }

  async function leave() {
    if (payer?.kind === "wallet") {
      const { disconnectWallet } = await import("@/lib/web/wallet");
      await disconnectWallet(config).catch(() => undefined);
    }
    localStorage.removeItem(PAYER_KEY);
    setPayer(null);
    setBalance(null);
    onChange(null);
  }

  // The payer chosen last time is chosen again (the test wallet, or a wallet that already allowed this site).
  const restored = useRef(false);
  useEffect(() => {
    if (restored.current) return;
    restored.current = true;
    const kept = localStorage.getItem(PAYER_KEY);
    const kind: PayerKind | null = kept === "test" && config.testWallet ? "test" : kept === "injected" ? "injected" : null;
    if (!kind) return;
    const timer = setTimeout(() => void choose(kind), 0);
    return () => clearTimeout(timer);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once, on mount
  }, []);

  return { payer, balance, error, connecting, choose, leave, refreshBalance };
}
