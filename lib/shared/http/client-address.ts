import { isIPv4, isIPv6 } from "node:net";

/**
 * Where a request came from, as far as this deployment can trust it: the one rule of both
 * services (the gateway's paid routes, the agent's free chat and premium challenges). Any client
 * can write an X-Forwarded-For header, so only the hops added by servers we run count. The hops
 * are X-Forwarded-For's entries followed by the socket's own address, then:
 * - `none` (the default): the socket's address, the last hop; everything before it is the
 *   client's own claim and ignored;
 * - `hops` N: N reverse proxies in front each appended one more hop, so the client is the one N
 *   places before the last (only sound when nobody can reach the service except through them);
 * - `vercel` (the gateway on Vercel): Vercel's edge overwrites `x-vercel-forwarded-for` with the
 *   address it saw.
 * Returns null when the request carries no address we can trust (a misconfigured proxy chain).
 */
export type TrustedProxy = { kind: "none" } | { kind: "vercel" } | { kind: "hops"; hops: number };

/** Every header `clientAddress` reads: what a request made on a client's behalf carries over (lib/gateway/mcp). */
export const CLIENT_ADDRESS_HEADERS = ["x-forwarded-for", "x-vercel-forwarded-for", "x-real-ip"] as const;

/**
 * `socket`: the address of the connection this process accepted, where it can see it (the agent,
 * `getConnInfo`), null when it cannot (an in-process request: nothing is trusted). Left out by the
 * gateway, whose route handlers cannot see the socket: `npm start` (server.mjs) appends it to
 * X-Forwarded-For instead, so there the last entry is the socket's.
 */
export function clientAddress(request: Request, trusted: TrustedProxy, { socket }: { socket?: string | null } = {}): string | null {
  if (trusted.kind === "vercel") {
    return normalize(firstHop(request.headers.get("x-vercel-forwarded-for")) ?? firstHop(request.headers.get("x-real-ip")));
  }
  if (socket === null) return null;
  const hops = (request.headers.get("x-forwarded-for") ?? "")
    .split(",")
    .map((h) => h.trim())
    .filter(Boolean);
  if (socket !== undefined) hops.push(socket);
  const index = hops.length - 1 - (trusted.kind === "hops" ? trusted.hops : 0);
  return index >= 0 ? normalize(hops[index]) : null;
}

function firstHop(value: string | null): string | undefined {
  return value?.split(",")[0]?.trim() || undefined;
}

/**
 * One key per client: an IPv4-mapped IPv6 address is its IPv4 address, and an IPv6 address is
 * its /64 network (one subscriber's allocation, whose addresses cost nothing to rotate through).
 */
export function normalize(address: string | undefined): string | null {
  if (!address) return null;
  let value = address.trim();
  // "[::1]:443" or "203.0.113.7:5120" from some proxies.
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(value);
  if (bracketed) value = bracketed[1]!;
  else if (/^\d+\.\d+\.\d+\.\d+:\d+$/.test(value)) value = value.split(":")[0]!;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(value);
  if (mapped) value = mapped[1]!;
  if (isIPv4(value)) return value;
  if (isIPv6(value)) return `${expandIPv6(value).slice(0, 4).join(":")}::/64`;
  return null;
}

function expandIPv6(address: string): string[] {
  const [head, tail] = address.split("::");
  const left = head ? head.split(":") : [];
  const right = tail ? tail.split(":") : [];
  const missing = 8 - left.length - right.length;
  return [...left, ...Array(tail === undefined ? 0 : missing).fill("0"), ...right].map((g) => g.toLowerCase().replace(/^0+(?=.)/, ""));
}
