import { Hono } from "hono";
import {
  encryptedChatPlaintextSchema,
  encryptedDeepResearchPollPlaintextSchema,
  encryptedDeepResearchStartPlaintextSchema,
  encryptedEnvelopeSchema,
  encryptedLiteraturePlaintextSchema,
  PRIVATE_ENVELOPE_MAX_BYTES,
  type EncryptedDeepResearchReceipt,
} from "@/lib/shared/contracts";
import { ApiError, readJsonObject, validateBody } from "@/lib/shared/http";
import { log } from "@/lib/shared/log";
import { describeSealingSuite, SEALING_PAGE_PATH } from "@/lib/shared/sealing/descriptor";
import { buildSealingPage, type SealingPage } from "@/lib/shared/sealing/page";
import { callerOf, ownerOf, requireServiceKey, requireServiceOrPremium } from "../http/access";
import type { AgentEnv } from "../http/context";
import type { RouteDeps } from "../http/deps";
import { countPremiumUse, type PremiumUse } from "../http/rate-limit";
import { getJobOfKind, laneOf, withdrawJob } from "../jobs/queue";
import { submitJob } from "../jobs/submit";
import { getPrivateRunStatus, readPrivateRun, startPrivateRun } from "../private/deep-research";
import { isEnclaveKeyReady, type EnclaveKey } from "../private/enclave-key";
import { openSealedRequest, sealTo } from "../private/envelope";
import { presentPrivateChatJob, presentPrivateLiteratureJob } from "../private/present";

/** Longest wait of the encrypted literature status route (section 4.4: `timeout` up to 25 s). */
const MAX_LITERATURE_WAIT_SECONDS = 25;

/**
 * The enclave side's routes. Its key (open, cacheable 60 s, with the attestation material of a
 * confidential VM when configured) and readiness, which the gateway reads before asking anyone to
 * pay for a private request; locally the agent is not in a confidential VM and says so
 * (`attested: false`). Every sealed start is opened here once (openSealedRequest), so an envelope
 * the enclave cannot open or one without a valid request is a 400 before any work is queued; the
 * job row keeps only the envelope, and answers go out sealed to the request's (or poll's) key.
 */
export function privateRoutes(deps: RouteDeps): Hono<AgentEnv> {
  const { config, db, enclaveKey, jobWaiter } = deps;
  const routes = new Hono<AgentEnv>();
  const keyed = requireServiceOrPremium(deps);
  // A premium key's sealed starts count against its limits before the envelope is opened, so
  // refused envelopes cost the enclave no more than accepted ones.
  const counted = (use: PremiumUse) => countPremiumUse(deps, use);
  const readEnvelope = async (request: Request) =>
    validateBody(encryptedEnvelopeSchema, await readJsonObject(request, { maxBytes: PRIVATE_ENVELOPE_MAX_BYTES }));
  const maxAgeMs = config.enclave.retentionSeconds * 1000;
  let sealingPage: SealingPage | undefined;

  // GET /api/enclave-key – the enclave's X25519 public key and the suite to seal to it (free)
  routes.get("/enclave-key", async (c) => {
    let key: EnclaveKey;
    try {
      key = await enclaveKey();
    } catch (err) {
      log.error("enclave key unavailable", { error: err });
      throw new ApiError("internal", "The enclave key is unavailable", { reason: "private_mode_not_ready" });
    }
    c.header("cache-control", "public, max-age=60");
    return c.json({
      hpke_public_key: key.publicKey,
      attested: config.enclave.attestation !== null,
      attestation: config.enclave.attestation,
      sealing: describeSealingSuite({ pageUrl: `${config.publicUrl}${SEALING_PAGE_PATH}` }),
    });
  });

  // GET /api/sealing – how to seal to that key and open the answer, with test vectors (free), as the gateway serves it
  routes.get(SEALING_PAGE_PATH.slice("/api".length), (c) => {
    // The schemas it names are the OpenAPI document's, which the gateway serves and the agent does not.
    sealingPage ??= ((page) => ({ ...page, plaintexts: { ...page.plaintexts, schemas: "GET /api/openapi.json on the gateway (components.schemas)" } }))(
      buildSealingPage({ publicUrl: config.publicUrl }),
    );
    c.header("cache-control", "public, max-age=300");
    return c.json(sealingPage);
  });

  // GET /api/private/status – is private mode ready, is private literature on
  routes.get("/private/status", keyed, async (c) => {
    const ready = await isEnclaveKeyReady(enclaveKey);
    return c.json({
      privateMode: ready ? "ready" : "not_ready",
      privateLiterature: config.enclave.privateLiterature ? "enabled" : "disabled",
      attested: config.enclave.attestation !== null,
      localLibrary: config.literature.enabledSources.includes("local"),
    });
  });

  // POST /api/private/chat – a sealed chat request: 200 sealed when answered within the wait, else 202
  routes.post("/private/chat", keyed, counted("private"), async (c) => {
    const envelope = await readEnvelope(c.req.raw);
    await openSealedRequest(enclaveKey, envelope, encryptedChatPlaintextSchema, "chat request");
    const job = await submitJob({ db, kind: "private_chat", input: { envelope }, lane: laneOf(callerOf(c)), caller: ownerOf(callerOf(c)) });
    const done = await jobWaiter.wait(job.id, config.enclave.chatWaitMs, c.req.raw.signal);
    if (done?.status === "completed" && done.kind === "private_chat") return c.json({ requestId: job.id, ...done.result });
    return c.json({ requestId: job.id, status: "queued" }, 202);
  });

  // GET /api/private/chat/status/:requestId – the job, its answer sealed to the request's key
  routes.get("/private/chat/status/:requestId", keyed, async (c) => {
    const job = await getJobOfKind({ db, id: c.req.param("requestId"), kind: "private_chat", maxAgeMs, caller: ownerOf(callerOf(c)) });
    if (!job) throw new ApiError("not_found", "Unknown or expired request id", { reason: "not_found" });
    return c.json(presentPrivateChatJob(job));
  });

  // POST /api/private/jobs/:requestId/cancel – the gateway withdraws a sealed chat or literature
  // job whose payment could not be settled: stopped if it runs, its sealed answer discarded if done
  routes.post("/private/jobs/:requestId/cancel", requireServiceKey(config.serviceKey), async (c) => {
    const withdrawn = await withdrawJob({ db, id: c.req.param("requestId"), kinds: ["private_chat", "private_literature"], error: "The request was not paid for" });
    if (!withdrawn) throw new ApiError("not_found", "Unknown request id", { reason: "not_found" });
    return c.body(null, 204);
  });

  // POST /api/private/literature – a sealed literature search (202 pending)
  routes.post("/private/literature", keyed, counted("private"), async (c) => {
    if (!config.enclave.privateLiterature) throw new ApiError("forbidden", "private_literature_disabled", { reason: "private_literature_disabled" });
    const envelope = await readEnvelope(c.req.raw);
    await openSealedRequest(enclaveKey, envelope, encryptedLiteraturePlaintextSchema, "literature request");
    const job = await submitJob({ db, kind: "private_literature", input: { envelope }, lane: laneOf(callerOf(c)), caller: ownerOf(callerOf(c)) });
    return c.json({ requestId: job.id, status: "pending" }, 202);
  });

  // GET /api/private/literature/status/:requestId?timeout=N – waits up to N (≤ 25) seconds for the
  // answer, on the job's notification (agent/jobs/wait.ts), not by reading the database in a loop
  routes.get("/private/literature/status/:requestId", keyed, async (c) => {
    const timeout = parseTimeout(c.req.query("timeout"));
    const id = c.req.param("requestId");
    const notFound = () => c.json({ status: "not_found", error: "Unknown or expired request id" }, 404);
    if (!(await getJobOfKind({ db, id, kind: "private_literature", maxAgeMs, caller: ownerOf(callerOf(c)) }))) return notFound();
    const job = await jobWaiter.wait(id, timeout * 1000, c.req.raw.signal);
    if (job?.kind !== "private_literature") return notFound(); // swept while waited on
    return c.json(presentPrivateLiteratureJob(job));
  });

  // POST /api/private/deep-research – a sealed {message, recoveryKey}: a private run (202 queued, with its sealed receipt)
  routes.post("/private/deep-research", keyed, counted("deepResearch"), async (c) => {
    const envelope = await readEnvelope(c.req.raw);
    const { plaintext, replyTo } = await openSealedRequest(enclaveKey, envelope, encryptedDeepResearchStartPlaintextSchema, "deep-research request");
    const caller = callerOf(c);
    const messageId = await startPrivateRun({ db, envelope, message: plaintext.message, recoveryKey: plaintext.recoveryKey, owner: ownerOf(caller), lane: laneOf(caller) });
    // The receipt, sealed to this start: only its client learns, unforgeably, which run is its own.
    const receipt: EncryptedDeepResearchReceipt = { messageId, status: "queued" };
    return c.json({ ...receipt, ...sealTo(replyTo, receipt) }, 202);
  });

  // POST /api/private/deep-research/status/:messageId – a sealed {recoveryKey, messageId} poll, answered by its starter's run alone, sealed to this poll's key
  routes.post("/private/deep-research/status/:messageId", keyed, async (c) => {
    const envelope = await readEnvelope(c.req.raw);
    const { plaintext, replyTo } = await openSealedRequest(enclaveKey, envelope, encryptedDeepResearchPollPlaintextSchema, "deep-research poll");
    const messageId = c.req.param("messageId");
    // A poll names its run: sent to another run's URL (by a gateway passing one run off as
    // another), it is unknown. A poll that names none is the contract's first form, answered by URL.
    const named = plaintext.messageId === undefined || plaintext.messageId === messageId;
    const run = named ? await readPrivateRun({ db, messageId, recoveryKey: plaintext.recoveryKey, owner: ownerOf(callerOf(c)) }) : null;
    if (!run) throw new ApiError("not_found", "Unknown research run for this recovery key", { reason: "not_found" });
    if (run.status === "completed") return c.json({ status: "completed", ...sealTo(replyTo, run.result) });
    return c.json(run);
  });

  // GET /api/private/deep-research/:messageId – the run's status alone (the gateway's cron asks for many at once: POST /api/deep-research/statuses)
  routes.get("/private/deep-research/:messageId", keyed, async (c) => {
    const messageId = c.req.param("messageId");
    const status = await getPrivateRunStatus({ db, messageId, owner: ownerOf(callerOf(c)) });
    if (!status) throw new ApiError("not_found", "Unknown research run", { reason: "not_found" });
    return c.json({ messageId, status });
  });

  return routes;
}

function parseTimeout(raw: string | undefined): number {
  if (raw === undefined || raw === "") return 0;
  const seconds = Number(raw);
  if (!Number.isFinite(seconds) || seconds < 0) throw new ApiError("bad_request", "timeout must be a number of seconds from 0 to 25", { reason: "invalid_timeout" });
  return Math.min(seconds, MAX_LITERATURE_WAIT_SECONDS);
}
