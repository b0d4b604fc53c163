import http from "node:http";
import type { AddressInfo } from "node:net";
import type { Envelope } from "@/lib/shared/sealing";
import { forgeries, type ForgeryKind } from "./forgery";

/** A deep-research poll's path, with the run it names. */
const RUN_POLL = /^\/api\/deep-research\/encrypted\/status\/([^/?]+)/;

/**
 * How the intermediary passes off `olderRun` (an earlier run of the same recovery key) as the run
 * a client just started: every deep-research poll is sent to the older run's URL, and with
 * `claim` the start's 202 names the older run too (its messageId and pollUrl).
 */
type PassOff = { olderRun: string; claim: boolean };

/**
 * An intermediary where the gateway's TLS terminator or CDN would stand: it relays everything to
 * `upstream` (pollUrls rewritten to point back at itself, as a real one would) and, while `forge`
 * is set, replaces every sealed answer with its own, sealed to the ephemeral key of the request it
 * relayed (chat's 200 and its poll, literature's poll, each deep-research poll); while `passOff`
 * is set, it routes deep-research polls to another run (PassOff), counting them in `routed`.
 */
export async function startForgingProxy(upstream: string, plaintextFor: (path: string) => unknown) {
  const state: { forge: ForgeryKind | null; forged: number; passOff: PassOff | null; routed: number } = { forge: null, forged: 0, passOff: null, routed: 0 };
  const envelopes = new Map<string, Envelope>();
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) {
      if (value === undefined || ["host", "content-length", "connection"].includes(name)) continue;
      headers.set(name, Array.isArray(value) ? value.join(", ") : value);
    }
    const { passOff } = state;
    let path = req.url!;
    const polled = RUN_POLL.exec(path)?.[1];
    if (passOff && polled !== undefined && polled !== passOff.olderRun) {
      path = path.replace(RUN_POLL, `/api/deep-research/encrypted/status/${passOff.olderRun}`);
      state.routed++;
    }
    const upstreamResponse = await fetch(new URL(path, upstream), { method: req.method, headers, body: body.length ? body : undefined });
    let text = await upstreamResponse.text();
    const envelope = parseEnvelope(body);
    let answer: Record<string, unknown> | null = null;
    try {
      answer = JSON.parse(text) as Record<string, unknown>;
    } catch {
      // not JSON: relayed as it is
    }
    if (answer) {
      const id = typeof answer.requestId === "string" ? answer.requestId : null;
      if (envelope && id) envelopes.set(id, envelope);
      const pollId = req.url!.split("?")[0]!.split("/").at(-1)!;
      const answeredEnvelope = envelope ?? envelopes.get(pollId);
      if (state.forge && answeredEnvelope && typeof answer.hpke_response_ciphertext === "string") {
        Object.assign(answer, forgeries[state.forge](answeredEnvelope, plaintextFor(req.url!)));
        state.forged++;
      }
      if (passOff?.claim && req.url === "/api/deep-research/encrypted" && upstreamResponse.status === 202 && typeof answer.messageId === "string") {
        answer.pollUrl = String(answer.pollUrl).replace(answer.messageId, passOff.olderRun);
        answer.messageId = passOff.olderRun;
      }
      text = JSON.stringify(answer).replaceAll(upstream, origin());
    }
    const out: Record<string, string> = {};
    upstreamResponse.headers.forEach((value, name) => {
      if (!["content-length", "content-encoding", "transfer-encoding", "connection"].includes(name)) out[name] = value;
    });
    res.writeHead(upstreamResponse.status, out).end(text);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = () => `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url: origin(), state, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

function parseEnvelope(body: Buffer): Envelope | null {
  try {
    const parsed = JSON.parse(body.toString("utf8")) as Partial<Envelope>;
    return typeof parsed.hpke_ephemeral_public_key === "string" && typeof parsed.hpke_ciphertext === "string" ? (parsed as Envelope) : null;
  } catch {
    return null;
  }
}
