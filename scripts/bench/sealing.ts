import { performance } from "node:perf_hooks";
import { portablePrimitives, type SealingPrimitives } from "../../lib/shared/sealing";
import { nativePrimitives } from "../../lib/shared/sealing/native";
import { openResponseFast, sealRequestFast } from "../../lib/shared/sealing/webcrypto";
import * as scheme from "../../lib/shared/sealing/scheme";
import { percentile, saveResults } from "./common";

/** A JSON value of about `bytes` bytes shaped like an answer: many short cited sentences. */
function payload(bytes: number): unknown {
  const sentence = "Rapamycin extended median lifespan in genetically heterogeneous mice [1]. ";
  const sentences: string[] = [];
  for (let size = 0; size < bytes - 64; size += sentence.length + 3) sentences.push(sentence);
  return { answer: "summary", sentences };
}

/** Seal (client side) then open (enclave side) of the same value: the round trip of one request. */
function sealOpenTimes(p: SealingPrimitives, value: unknown, rounds: number): number[] {
  const enclavePrivateKey = p.randomBytes(32);
  const enclavePublicKey = Buffer.from(p.publicKey(enclavePrivateKey)).toString("base64");
  const times: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const started = performance.now();
    const { envelope } = scheme.sealRequest(p, { enclavePublicKey, plaintext: value });
    scheme.openRequest(p, { enclavePrivateKey, envelope });
    times.push(performance.now() - started);
  }
  return times;
}

/**
 * The browser's client round trip on 4 KB: seal a request and open an answer, X25519 through
 * WebCrypto (as Chromium does) or @noble; HKDF and XChaCha20-Poly1305 are @noble's either way.
 */
async function clientRoundTripTimes(value: unknown, rounds: number): Promise<number[]> {
  const enclavePrivateKey = nativePrimitives.randomBytes(32);
  const enclavePublicKey = Buffer.from(nativePrimitives.publicKey(enclavePrivateKey)).toString("base64");
  const times: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const started = performance.now();
    const sealed = await sealRequestFast({ enclavePublicKey, plaintext: value });
    const stopped = performance.now();
    // The enclave's reply needs the request's shared secret; it is not part of the client's time.
    const { replyTo } = scheme.openRequest(nativePrimitives, { enclavePrivateKey, envelope: sealed.envelope });
    const response = scheme.sealResponse(nativePrimitives, { ...replyTo, plaintext: value });
    const resumed = performance.now();
    await openResponseFast({ ...sealed, response });
    times.push(stopped - started + (performance.now() - resumed));
  }
  return times;
}

/** Sealing a large value, from the JSON value to the base64 envelope, in MB/s. */
function sealThroughput(p: SealingPrimitives, value: unknown, rounds: number): { mbPerSecond: number; p50: number } {
  const enclavePublicKey = Buffer.from(p.publicKey(p.randomBytes(32))).toString("base64");
  const bytes = Buffer.byteLength(JSON.stringify(value));
  const times: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const started = performance.now();
    scheme.sealRequest(p, { enclavePublicKey, plaintext: value });
    times.push(performance.now() - started);
  }
  const p50 = percentile(times, 50);
  return { mbPerSecond: bytes / 1e6 / (p50 / 1000), p50 };
}

/**
 * Issue 6's figures: seal + open of 4 KB on the server path (native node:crypto) against the
 * portable @noble path, and the throughput of sealing 1 MB on each; the portable path is the
 * reference measured in the same run. Paths alternate in rounds so drift hits both alike.
 */
export async function runSealingBench(): Promise<void> {
  const small = payload(4 * 1024);
  const large = payload(1024 * 1024);
  // Warm both paths (JIT, lazily built tables) before measuring.
  sealOpenTimes(nativePrimitives, small, 200);
  sealOpenTimes(portablePrimitives, small, 50);
  const nativeSmall: number[] = [];
  const portableSmall: number[] = [];
  const nativeLarge: number[] = [];
  const portableLarge: number[] = [];
  for (let round = 0; round < 8; round++) {
    nativeSmall.push(...sealOpenTimes(nativePrimitives, small, 400));
    portableSmall.push(...sealOpenTimes(portablePrimitives, small, 100));
    nativeLarge.push(sealThroughput(nativePrimitives, large, 10).p50);
    portableLarge.push(sealThroughput(portablePrimitives, large, 3).p50);
  }
  const mb = Buffer.byteLength(JSON.stringify(large)) / 1e6;
  const rows = {
    "seal+open 4 KB, native (server)": { p50: percentile(nativeSmall, 50), p99: percentile(nativeSmall, 99) },
    "seal+open 4 KB, portable (@noble)": { p50: percentile(portableSmall, 50), p99: percentile(portableSmall, 99) },
  };
  await clientRoundTripTimes(small, 50);
  const browserSmall = await clientRoundTripTimes(small, 400);
  Object.assign(rows, { "client seal request + open answer 4 KB, WebCrypto X25519 (browser path)": { p50: percentile(browserSmall, 50), p99: percentile(browserSmall, 99) } });
  const nativeSeal = percentile(nativeLarge, 50);
  const portableSeal = percentile(portableLarge, 50);
  console.log("\n## Sealing (issue 6)\n");
  console.log("| operation | p50 ms | p99 ms |\n|---|---:|---:|");
  for (const [name, r] of Object.entries(rows)) console.log(`| ${name} | ${r.p50.toFixed(3)} | ${r.p99.toFixed(3)} |`);
  console.log(`\n| seal ${mb.toFixed(2)} MB (JSON value → base64 envelope) | p50 ms | MB/s |\n|---|---:|---:|`);
  console.log(`| native (server) | ${nativeSeal.toFixed(2)} | ${(mb / (nativeSeal / 1000)).toFixed(0)} |`);
  console.log(`| portable (@noble, reference) | ${portableSeal.toFixed(2)} | ${(mb / (portableSeal / 1000)).toFixed(0)} |`);
  console.log(`\nnative / portable throughput: ${(portableSeal / nativeSeal).toFixed(2)}× (goal ≥ 2.5×); native 4 KB seal+open p50 ${rows["seal+open 4 KB, native (server)"].p50.toFixed(3)} ms (goal ≤ 0.3 ms)`);
  saveResults("sealing", { rows, large: { megabytes: mb, nativeP50: nativeSeal, portableP50: portableSeal, ratio: portableSeal / nativeSeal } });
}
