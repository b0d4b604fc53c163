import { describe, expect, it } from "vitest";
import { clientAddress, normalize } from "@/lib/shared/http/client-address";

const request = (headers: Record<string, string>) => new Request("https://gateway.test/api/chat", { headers });

describe("who the client is", () => {
  it("is the last X-Forwarded-For hop when no proxy is trusted: the one the server appended from the socket", () => {
    expect(clientAddress(request({ "x-forwarded-for": "203.0.113.9, 198.51.100.7" }), { kind: "none" })).toBe("198.51.100.7");
    expect(clientAddress(request({ "x-forwarded-for": "198.51.100.7" }), { kind: "none" })).toBe("198.51.100.7");
  });

  it("counts back past each trusted proxy's hop, and trusts nothing when the chain is shorter than the proxies", () => {
    const chain = request({ "x-forwarded-for": "6.6.6.6, 203.0.113.9, 10.0.0.2, 10.0.0.1" });
    expect(clientAddress(chain, { kind: "hops", hops: 2 })).toBe("203.0.113.9");
    expect(clientAddress(request({ "x-forwarded-for": "10.0.0.1" }), { kind: "hops", hops: 1 })).toBeNull();
  });

  it("on Vercel, is Vercel's own header, whatever X-Forwarded-For the client wrote", () => {
    expect(clientAddress(request({ "x-vercel-forwarded-for": "203.0.113.9", "x-forwarded-for": "6.6.6.6" }), { kind: "vercel" })).toBe("203.0.113.9");
    expect(clientAddress(request({ "x-real-ip": "203.0.113.10" }), { kind: "vercel" })).toBe("203.0.113.10");
    expect(clientAddress(request({ "x-forwarded-for": "6.6.6.6" }), { kind: "vercel" })).toBeNull();
  });

  it("is nobody when there is no trusted hop, never a shared 'unknown'", () => {
    expect(clientAddress(request({}), { kind: "none" })).toBeNull();
    expect(clientAddress(request({ "x-forwarded-for": "not an address" }), { kind: "none" })).toBeNull();
  });

  it("where the service sees its socket (the agent), the socket is the last hop: the same rule, one function", () => {
    const spoofed = request({ "x-forwarded-for": "6.6.6.6, 203.0.113.9" });
    expect(clientAddress(spoofed, { kind: "none" }, { socket: "::ffff:198.51.100.7" })).toBe("198.51.100.7");
    expect(clientAddress(spoofed, { kind: "hops", hops: 1 }, { socket: "10.0.0.1" })).toBe("203.0.113.9");
    expect(clientAddress(request({}), { kind: "hops", hops: 1 }, { socket: "10.0.0.1" })).toBeNull();
    // No socket to see (an in-process request): nothing the headers say is trusted.
    expect(clientAddress(spoofed, { kind: "none" }, { socket: null })).toBeNull();
    expect(clientAddress(request({ "x-forwarded-for": "2001:db8:1:2::99" }), { kind: "hops", hops: 1 }, { socket: "10.0.0.1" })).toBe("2001:db8:1:2::/64");
  });

  it("keys IPv4-mapped addresses as IPv4, ports away, and IPv6 by its /64", () => {
    expect(normalize("::ffff:203.0.113.9")).toBe("203.0.113.9");
    expect(normalize("203.0.113.9:5120")).toBe("203.0.113.9");
    expect(normalize("[2001:db8:1:2::5]:443")).toBe("2001:db8:1:2::/64");
    expect(normalize("2001:db8:1:2:aaaa::1")).toBe(normalize("2001:0db8:0001:0002:ffff::2"));
    expect(normalize("2001:db8:1:3::1")).not.toBe(normalize("2001:db8:1:2::1"));
  });
});
