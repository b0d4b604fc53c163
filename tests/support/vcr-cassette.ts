import fs from "node:fs";
import zlib from "node:zlib";
import { parse } from "yaml";

/**
 * Reads one interaction of a VCR (vcrpy) cassette: the request URI and the recorded response,
 * with a gzip `!!binary` body decompressed and headers flattened to their first value. Lets the
 * replay server answer with a recorded response exactly as the service sent it.
 */
export type CassetteInteraction = { uri: string; status: number; headers: Record<string, string>; body: string };

export function readCassetteInteraction(file: string, index: number): CassetteInteraction {
  const doc = parse(fs.readFileSync(file, "utf8")) as {
    interactions: {
      request: { uri: string };
      response: { status: { code: number }; headers: Record<string, string[]>; body: { string: string | Uint8Array } };
    }[];
  };
  const interaction = doc.interactions[index];
  if (!interaction) throw new Error(`${file} has no interaction ${index}`);
  const raw = interaction.response.body.string;
  const bytes = typeof raw === "string" ? Buffer.from(raw, "utf8") : Buffer.from(raw);
  const gzipped = bytes[0] === 0x1f && bytes[1] === 0x8b;
  const headers: Record<string, string> = {};
  for (const [name, values] of Object.entries(interaction.response.headers)) {
    const lower = name.toLowerCase();
    // The body is served decompressed, so its encoding and length headers no longer apply.
    if (lower === "content-encoding" || lower === "content-length" || lower === "transfer-encoding" || lower === "connection") continue;
    if (values[0] !== undefined) headers[lower] = values[0];
  }
  return {
    uri: interaction.request.uri,
    status: interaction.response.status.code,
    headers,
    body: (gzipped ? zlib.gunzipSync(bytes) : bytes).toString("utf8"),
  };
}
