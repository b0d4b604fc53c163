import path from "node:path";
import { z } from "zod";
import type { PaidOperation } from "@/lib/shared/operations";
import type { DestinationPins } from "@/lib/client/mcp-local/config";
import { formatUsd } from "@/lib/shared/contracts/money";
import { updateStateFile } from "@/lib/client/mcp-local/state-file";

/**
 * What the local MCP server agrees to sign: payments in one token, on one network, to one payee,
 * of at most the tool's own price and the per-call cap. The destination is the user's pins
 * (LONGEVITY_MCP_NETWORK, _ASSET, _PAY_TO) where set, and otherwise what the service advertised
 * at /.well-known/x402.json the first time this state directory used it: remembered per service
 * URL, so a service (or whoever answers in its name) that later asks for payments elsewhere is
 * refused until the user says the change is genuine. A 402 asking anything else is refused before
 * the official client signs.
 */

export type Destination = { network: string; asset: string; payTo: string };

/** Thrown when the service's payment terms cannot be read or are not the ones trusted; the message says what to do. */
class PaymentTermsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "PaymentTermsError";
  }
}

const manifestSchema = z.object({
  items: z.array(z.object({ accepts: z.array(z.object({ scheme: z.string(), network: z.string(), asset: z.string(), payTo: z.string() })) })),
});

const rememberedSchema = z.object({
  version: z.literal(1),
  services: z.record(z.string(), z.object({ network: z.string(), asset: z.string(), payTo: z.string(), firstSeen: z.number() })),
});
type Remembered = z.infer<typeof rememberedSchema>;

const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();
const matches = (d: Destination, pins: DestinationPins) =>
  (!pins.network || same(d.network, pins.network)) && (!pins.asset || same(d.asset, pins.asset)) && (!pins.payTo || same(d.payTo, pins.payTo));
const describe = (d: Destination) => `${d.payTo} in ${d.asset} on ${d.network}`;

export class PaymentTerms {
  private readonly baseUrl: string;
  private readonly pins: DestinationPins;
  private readonly file: string;
  private readonly fetchImpl: typeof fetch;
  private resolved: Promise<Destination> | null = null;

  constructor({ baseUrl, pins, stateDir, fetchImpl = fetch }: { baseUrl: string; pins: DestinationPins; stateDir: string; fetchImpl?: typeof fetch }) {
    this.baseUrl = baseUrl;
    this.pins = pins;
    this.file = path.join(stateDir, "services.json");
    this.fetchImpl = fetchImpl;
  }

  /** The one destination this server pays, resolved once per process. Throws PaymentTermsError. */
  destination(): Promise<Destination> {
    this.resolved ??= this.resolve().catch((err: unknown) => {
      this.resolved = null;
      throw err;
    });
    return this.resolved;
  }

  private async resolve(): Promise<Destination> {
    const { network, asset, payTo } = this.pins;
    if (network && asset && payTo) return { network, asset, payTo };
    const advertised = await this.advertised();
    const pinned = advertised.filter((d) => matches(d, this.pins));
    if (pinned.length === 0) {
      throw new PaymentTermsError(
        `The service at ${this.baseUrl} advertises payments to ${advertised.map(describe).join("; ")}, which is not what LONGEVITY_MCP_NETWORK, LONGEVITY_MCP_ASSET and LONGEVITY_MCP_PAY_TO allow: nothing was paid.`,
      );
    }
    return updateStateFile({
      file: this.file,
      schema: rememberedSchema,
      empty: (): Remembered => ({ version: 1, services: {} }),
      change: (state) => {
        const remembered = state.services[this.baseUrl];
        const candidates = remembered ? pinned.filter((d) => matches(d, { ...remembered, ...this.pins })) : pinned;
        if (candidates.length === 0) {
          throw new PaymentTermsError(
            `The service at ${this.baseUrl} now asks for payments to ${pinned.map(describe).join("; ")}, but when this computer first used it (${new Date(remembered!.firstSeen).toISOString()}) it took them as ${describe(remembered!)}. Nothing was paid. If the change is genuine, set LONGEVITY_MCP_PAY_TO (and LONGEVITY_MCP_ASSET, LONGEVITY_MCP_NETWORK) to the new values, or remove its entry from ${this.file}.`,
          );
        }
        if (candidates.length > 1) {
          throw new PaymentTermsError(
            `The service at ${this.baseUrl} advertises several payment destinations (${candidates.map(describe).join("; ")}); set LONGEVITY_MCP_NETWORK, LONGEVITY_MCP_ASSET and LONGEVITY_MCP_PAY_TO to the one to pay. Nothing was paid.`,
          );
        }
        const chosen = candidates[0]!;
        if (remembered && matches(chosen, remembered)) return { result: chosen };
        return { state: { version: 1 as const, services: { ...state.services, [this.baseUrl]: { ...chosen, firstSeen: Date.now() } } }, result: chosen };
      },
    });
  }

  /** Every destination the service's discovery manifest names, each once. */
  private async advertised(): Promise<Destination[]> {
    const url = `${this.baseUrl}/.well-known/x402.json`;
    const unreadable = (why: string) =>
      new PaymentTermsError(
        `Cannot read the service's payment terms at ${url} (${why}), so nothing was paid. Set LONGEVITY_MCP_NETWORK, LONGEVITY_MCP_ASSET and LONGEVITY_MCP_PAY_TO to pay without them.`,
      );
    let body: unknown;
    try {
      const response = await this.fetchImpl(url, { signal: AbortSignal.timeout(15_000) });
      if (!response.ok) throw unreadable(`HTTP ${response.status}`);
      body = await response.json();
    } catch (err) {
      throw err instanceof PaymentTermsError ? err : unreadable(err instanceof Error ? err.message : String(err));
    }
    const manifest = manifestSchema.safeParse(body);
    if (!manifest.success) throw unreadable("not an x402 discovery manifest");
    const all = manifest.data.items.flatMap((item) => item.accepts.filter((a) => a.scheme === "exact"));
    const distinct: Destination[] = [];
    for (const { network, asset, payTo } of all) {
      if (!distinct.some((d) => matches(d, { network, asset, payTo }))) distinct.push({ network, asset, payTo });
    }
    if (distinct.length === 0) throw unreadable("it lists no exact-scheme payment");
    return distinct;
  }
}

/**
 * Why `requirement` must not be signed for `tool` (null when it may): another scheme, network,
 * token or payee than `destination`, an amount above the tool's own price or above the per-call
 * cap, or an authorization valid longer than the tool needs (this build's `maxTimeoutSeconds` of
 * the operation: a signature counts against the caps until it expires, and a service could
 * settle it until then). The daily cap is the spend ledger's.
 */
export function requirementProblem(
  requirement: { scheme: string; network: string; asset: string; payTo: string; amount: string; maxTimeoutSeconds: number },
  { destination, operation, maxPerCall, tool }: { destination: Destination; operation: PaidOperation; maxPerCall: bigint; tool: string },
): string | null {
  if (requirement.scheme !== "exact") return `uses the scheme "${requirement.scheme}", not "exact"`;
  if (!same(requirement.network, destination.network)) return `pays on the network ${requirement.network}, not ${destination.network}`;
  if (!same(requirement.asset, destination.asset)) return `pays in the token ${requirement.asset}, not ${destination.asset}`;
  if (!same(requirement.payTo, destination.payTo)) return `pays ${requirement.payTo}, not the service's payee ${destination.payTo}`;
  if (!/^\d+$/.test(requirement.amount)) return `asks an amount (${JSON.stringify(requirement.amount)}) that is not a whole number of base units`;
  const amount = BigInt(requirement.amount);
  if (amount > BigInt(operation.amount)) return `asks ${formatUsd(amount)}, more than the ${operation.price} ${tool} costs`;
  if (amount > maxPerCall) return `asks ${formatUsd(amount)}, above the per-call cap of ${formatUsd(maxPerCall)} (LONGEVITY_MCP_MAX_PER_CALL)`;
  const valid = requirement.maxTimeoutSeconds;
  if (!Number.isInteger(valid) || valid <= 0) return `asks for an authorization valid ${JSON.stringify(valid)} s, not a whole number of seconds`;
  if (valid > operation.maxTimeoutSeconds) return `asks for an authorization valid ${valid} s, longer than the ${operation.maxTimeoutSeconds} s ${tool} needs`;
  return null;
}
