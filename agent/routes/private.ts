import { Hono } from "hono";
import { ApiError } from "@/lib/http";
import { log } from "@/lib/log";
import { requireServiceOrPremium } from "../access";
import { encryptedEnvelopeSchema, PRIVATE_ENVELOPE_MAX_BYTES } from "@/lib/contracts";
import { readJsonObject, validateBody } from "@/lib/http";
import { nativePrimitives } from "@/lib/sealing/native";
import { SealingError } from "@/lib/sealing";
import * as scheme from "@/lib/sealing/scheme";
import { enqueueJob, getJob } from "../jobs/queue";
import { jobWakeups } from "../jobs/worker";
import { createEnclaveKeyLoader, type EnclaveKey } from "../private/enclave-key";
import type { AgentDeps } from "../server";

/**
 * The enclave side's public face: its key (open, cacheable 60 s) and its readiness, which the
 * gateway reads before asking anyone to pay for a private request. Locally the agent is not in a
 * confidential VM and says so: `attested: false`.
 */
export function privateRoutes(deps: AgentDeps): { routes: Hono; enclaveKey: () => Promise<EnclaveKey> } {
  const { config, db } = deps;
  const enclaveKey = deps.enclaveKey ?? createEnclaveKeyLoader({ db, configured: config.enclave.privateKey, kekFile: config.enclave.kekFile });
  const routes = new Hono();
  const keyed = requireServiceOrPremium(deps);

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

  // POST /api/private/chat – a sealed chat request: 200 sealed when answered within the wait, else 202
  routes.post("/private/chat", keyed, async (c) => {
    const envelope = validateBody(encryptedEnvelopeSchema, await readJsonObject(c.req.raw, { maxBytes: PRIVATE_ENVELOPE_MAX_BYTES }));
    // Opened here once so an envelope the enclave cannot open is a 400 before any work (and any charge).
    try {
      scheme.openRequest(nativePrimitives, { enclavePrivateKey: (await enclaveKey()).privateKey, envelope });
    } catch (err) {
      if (err instanceof SealingError) throw new ApiError("bad_request", "The envelope could not be opened", { reason: err.code });
      throw new ApiError("unavailable", "Private mode is not ready", { reason: "private_mode_not_ready" });
    }
    const job = await enqueueJob({ db, kind: "private_chat", input: { envelope }, caller: "private" });
    jobWakeups.emit("job");
    const deadline = Date.now() + config.enclave.chatWaitMs;
    // Polled like /api/chat/sync: the worker may run in another process. Stop if the caller left.
    while (Date.now() < deadline && !c.req.raw.signal.aborted) {
      const current = await getJob({ db, id: job.id });
      if (current?.status === "completed") return c.json({ requestId: job.id, ...(current.result as object) });
      if (current?.status === "failed" || current?.status === "cancelled") break;
      await new Promise((r) => setTimeout(r, 50));
    }
    return c.json({ requestId: job.id, status: "queued" }, 202);
  });

  // GET /api/private/chat/status/:requestId – the job, its answer sealed to the request's key
  routes.get("/private/chat/status/:requestId", keyed, async (c) => {
    const job = await getJob({ db, id: c.req.param("requestId") });
    if (!job || job.kind !== "private_chat") throw new ApiError("not_found", "Unknown request id", { reason: "not_found" });
    if (job.status === "completed") return c.json({ status: "completed", requestId: job.id, ...(job.result as object) });
    if (job.status === "failed" || job.status === "cancelled") return c.json({ status: "failed", error: job.error ?? "The private request failed" });
    return c.json({ status: job.status === "running" ? "active" : "queued" });
  });

  return { routes, enclaveKey };
}
