/**
 * Room for the JSON-RPC envelope and a PaymentPayload (about 1.5 KB) around arguments as large
 * as the paid routes accept (MAX_BODY_BYTES): every call a route would take fits, and the route
 * still enforces its own limit on the arguments (413, nothing charged).
 */
const ENVELOPE_BYTES = 16 * 1024;

/** The largest body POST /api/mcp reads, for a deployment whose MAX_BODY_BYTES is `maxBodyBytes`. */
export function mcpBodyLimit(maxBodyBytes: number): number {
  return maxBodyBytes + ENVELOPE_BYTES;
}
