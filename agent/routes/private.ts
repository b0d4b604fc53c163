import { Hono } from "hono";
import { ApiError } from "@/lib/http";
import { log } from "@/lib/log";
import { requireServiceOrPremium } from "../access";
import { loadEnclaveKey, type EnclaveKey } from "../private/enclave-key";
import type { AgentDeps } from "../server";

/**
 * The enclave side's public face: its key (open, cacheable 60 s) and its readiness, which the
 * gateway reads before asking anyone to pay for a private request. Locally the agent is not in a
 * confidential VM and says so: `attested: false`.
 */
export function privateRoutes(deps: AgentDeps): { routes: Hono; enclaveKey: () => Promise<EnclaveKey> } {
  const { config, db } = deps;
  let pending: Promise<EnclaveKey> | undefined;
  const enclaveKey = () => {
    pending ??= loadEnclaveKey({ db, configured: config.enclave.privateKey, kekFile: config.enclave.kekFile }).catch((err: unknown) => {
      pending = undefined;
      throw err;
    });
    return pending;
  };
  const routes = new Hono();

  // GET /api/enclave-key – the enclave's X25519 public key (free)
  routes.get("/enclave-key", async (c) => {
    let key: EnclaveKey;
    try {
      key = await enclaveKey();
    } catch (err) {
      log.error("enclave key unavailable", { error: err });
      throw new ApiError("internal", "The enclave key is unavailable", { reason: "private_mode_not_ready" });
    }
    c.header("cache-control", "public, max-age=60");
    return c.json({ hpke_public_key: key.publicKey, attested: config.enclave.attested, attestation: null });
  });

  // GET /api/private/status – is private mode ready, is private literature on
  routes.get("/private/status", requireServiceOrPremium(deps), async (c) => {
    const ready = await enclaveKey().then(
      () => true,
      () => false,
    );
    return c.json({
      privateMode: ready ? "ready" : "not_ready",
      privateLiterature: config.enclave.privateLiterature ? "enabled" : "disabled",
      attested: config.enclave.attested,
      localLibrary: config.literature.enabledSources.includes("local"),
    });
  });

  return { routes, enclaveKey };
}
