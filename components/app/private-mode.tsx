"use client";

import { useEffect, useId, useState } from "react";
import { PrivateModeTrust } from "@/components/enclave-trust";
import { PAGE_TRUST } from "@/lib/web/enclave-trust";
import { describeThrown } from "@/lib/web/describe-thrown";
import { UserFacingError } from "@/lib/web/user-facing-error";
import type { PrivateState } from "./context";
import { ErrorNote } from "./status-bits";

const STORED_KEY = "lra:recovery-key";
const RECOVERY_KEY = /^longevity_key_v1_[A-Za-z0-9_-]{42}[AEIMQUYcgkosw048]$/;

function storedKey(): string | null {
  if (typeof window === "undefined") return null;
  const stored = localStorage.getItem(STORED_KEY);
  return stored && RECOVERY_KEY.test(stored) ? stored : null;
}

/**
 * The private-mode switch: on, every request is sealed in this browser to the enclave's key
 * (fetched here and checked against the enclave this page was built to trust, PAGE_TRUST; its
 * attestation status shown), and answers are opened here. The
 * recovery key (for persistent private conversations and private deep research) is created here,
 * shown once, and kept only where the person chooses: this tab's memory, or this browser.
 */
export function PrivateModeControls({ value, onChange }: { value: PrivateState | null; onChange: (next: PrivateState | null) => void }) {
  const [error, setError] = useState<UserFacingError | null>(null);
  const [checking, setChecking] = useState(false);
  // Read once, in the browser (this section renders only after private mode is switched on).
  const [recoveryKey, setRecoveryKey] = useState<string | null>(storedKey);
  const [kept, setKept] = useState(() => storedKey() !== null);
  const [shownOnce, setShownOnce] = useState<string | null>(null);
  const [importing, setImporting] = useState("");
  // Replacing or forgetting a key in use loses access to what it keeps: asked first, in the page.
  const [confirming, setConfirming] = useState<"replace" | "import" | "forget" | null>(null);
  const importId = useId();

  // The panels see the recovery key through the private state.
  useEffect(() => {
    if (value && value.recoveryKey !== recoveryKey) onChange({ ...value, recoveryKey });
  }, [recoveryKey, value, onChange]);

  async function toggle(on: boolean) {
    setError(null);
    if (!on) {
      onChange(null);
      return;
    }
    setChecking(true);
    try {
      const { fetchEnclaveKey } = await import("@/lib/client/sealing/client");
      // The trusted repository and measurement are the page's own (fixed at build), never the server's.
      const enclave = await fetchEnclaveKey({ gateway: location.origin }, { trust: PAGE_TRUST });
      onChange({ enclave, recoveryKey });
    } catch (err) {
      setError(describeThrown(err));
    } finally {
      setChecking(false);
    }
  }

  async function create() {
    setConfirming(null);
    const { createRecoveryKey, portablePrimitives } = await import("@/lib/shared/sealing");
    const key = createRecoveryKey(portablePrimitives);
    setRecoveryKey(key);
    setShownOnce(key);
    if (kept) localStorage.setItem(STORED_KEY, key);
  }

  function keep(on: boolean) {
    setKept(on);
    if (on && recoveryKey) localStorage.setItem(STORED_KEY, recoveryKey);
    if (!on) localStorage.removeItem(STORED_KEY);
  }

  function importKey(event: React.FormEvent) {
    event.preventDefault();
    const key = importing.trim();
    if (!RECOVERY_KEY.test(key)) {
      setError(describeThrown(new Error("That is not a recovery key (longevity_key_v1_ followed by 43 characters).")));
      return;
    }
    if (recoveryKey && recoveryKey !== key && confirming !== "import") {
      setConfirming("import");
      return;
    }
    setConfirming(null);
    setRecoveryKey(key);
    setImporting("");
    if (kept) localStorage.setItem(STORED_KEY, key);
  }

  function exportKey() {
    if (!recoveryKey) return;
    const link = document.createElement("a");
    link.href = URL.createObjectURL(new Blob([`${recoveryKey}\n`], { type: "text/plain" }));
    link.download = "longevity-recovery-key.txt";
    link.click();
    URL.revokeObjectURL(link.href);
  }

  function forget() {
    setConfirming(null);
    setRecoveryKey(null);
    setShownOnce(null);
    localStorage.removeItem(STORED_KEY);
  }

  return (
    <section aria-labelledby="private-heading" className="panel private" data-testid="private-mode">
      <h2 id="private-heading">Private mode</h2>
      <PrivateModeTrust trust={PAGE_TRUST} />
      <label className="switch">
        <input type="checkbox" checked={value !== null} disabled={checking} onChange={(e) => void toggle(e.target.checked)} data-testid="private-switch" />
        Seal every request in this browser to the research enclave; the gateway never sees the question or the answer.
      </label>
      {value ? (
        <p className="small" data-testid="enclave-status">
          Enclave key <code>{value.enclave.publicKey.slice(0, 16)}…</code> ·{" "}
          {value.enclave.attested ? (
            <strong className="status-healthy">
              attested: verified in this browser to run {value.enclave.measurement ? "the release" : "a signed release"} of {value.enclave.repo}
              {value.enclave.measurement ? ` at measurement ${value.enclave.measurement.slice(0, 16)}…` : ""}
            </strong>
          ) : value.enclave.unverifiedAttestation ? (
            <strong className="status-degraded">not attested: this page trusts no enclave repository, so the attestation the server sent could not be checked; only as private as its server</strong>
          ) : (
            <strong className="status-degraded">not attested: this enclave runs without a confidential VM, so it is only as private as its server</strong>
          )}
        </p>
      ) : null}
      {value ? (
      <div className="recovery">
        <h3>Recovery key</h3>
        <p className="muted small">Anyone holding this key can read your private conversations and research; lose it and they are gone for good.</p>
        {shownOnce ? (
          <div className="shown-once" data-testid="recovery-key-shown">
            <code>{shownOnce}</code>{" "}
            <button type="button" onClick={() => void navigator.clipboard.writeText(shownOnce)}>
              Copy
            </button>{" "}
            <button type="button" onClick={() => setShownOnce(null)}>
              I have saved it
            </button>
          </div>
        ) : null}
        <div className="wallet-row">
          {recoveryKey ? <span className="small">A recovery key is in use{kept ? " (kept in this browser)" : " (for this tab only)"}.</span> : <span className="small">No recovery key: private chats are not kept.</span>}
          <button type="button" onClick={() => (recoveryKey ? setConfirming("replace") : void create())} data-testid="create-recovery-key" disabled={confirming !== null}>
            {recoveryKey ? "Replace with a new one" : "Create a recovery key"}
          </button>
          <button type="button" onClick={exportKey} disabled={!recoveryKey}>
            Export
          </button>
          <button type="button" className="danger" onClick={() => setConfirming("forget")} disabled={!recoveryKey || confirming !== null} data-testid="forget-recovery-key">
            Forget
          </button>
          <label className="small">
            <input type="checkbox" checked={kept} onChange={(e) => keep(e.target.checked)} /> Keep it in this browser
          </label>
        </div>
        {confirming && recoveryKey ? (
          <div className="confirm-note" role="alertdialog" aria-labelledby="recovery-confirm-text" data-testid="recovery-key-confirm">
            <p id="recovery-confirm-text">
              {confirming !== "forget"
                ? "Replace the recovery key in use? The private conversations and research it keeps can no longer be continued from this page unless you saved the current key (Export it first)."
                : `Forget the recovery key? It is removed from ${kept ? "this browser" : "this tab"}; without a saved copy, the private conversations and research it keeps are gone for good.`}
            </p>
            <div className="wallet-row">
              {confirming === "replace" ? (
                <button type="button" className="danger" onClick={() => void create()}>
                  Replace it
                </button>
              ) : confirming === "import" ? (
                <button type="submit" className="danger" form={`${importId}-form`}>
                  Replace it
                </button>
              ) : (
                <button type="button" className="danger" onClick={forget}>
                  Forget it
                </button>
              )}
              <button type="button" className="secondary" onClick={exportKey}>
                Export it first
              </button>
              <button type="button" className="secondary" onClick={() => setConfirming(null)}>
                Keep it
              </button>
            </div>
          </div>
        ) : null}
        <form onSubmit={importKey} className="wallet-row import-row" id={`${importId}-form`}>
          <label htmlFor={importId} className="small">
            Import a key
          </label>
          <input id={importId} value={importing} onChange={(e) => setImporting(e.target.value)} autoComplete="off" spellCheck={false} placeholder="longevity_key_v1_…" />
          <button type="submit">Import</button>
        </form>
      </div>
      ) : null}
      {error ? <ErrorNote error={error} /> : null}
    </section>
  );
}
