import { describe, expect, it } from "vitest";
import { loadAgentConfig } from "@/agent/config";

describe("agent configuration: where library records are read", () => {
  it("links records without PMID, DOI or NCT id to the page LIBRARY_RECORD_PAGE_URL names (the gateway's)", () => {
    const config = loadAgentConfig({ LIBRARY_RECORD_PAGE_URL: "https://research.example/library/records/" });
    expect(config.recordPageBase).toBe("https://research.example/library/records");
  });

  it("falls back to the agent's own record route when it is not set", () => {
    expect(loadAgentConfig({}).recordPageBase).toBe("http://localhost:3001/api/library/records");
    expect(loadAgentConfig({ AGENT_PUBLIC_URL: "https://agent.example" }).recordPageBase).toBe("https://agent.example/api/library/records");
  });

  it("refuses a value that is not an http(s) URL, naming it", () => {
    expect(() => loadAgentConfig({ LIBRARY_RECORD_PAGE_URL: "javascript:alert(1)" })).toThrow(/LIBRARY_RECORD_PAGE_URL/);
  });
});

describe("agent configuration: who says where a public caller came from", () => {
  it("is the socket by default, or N proxies as the gateway's TRUSTED_PROXY; never Vercel's header", () => {
    expect(loadAgentConfig({}).access.trustedProxy).toEqual({ kind: "none" });
    expect(loadAgentConfig({ AGENT_TRUSTED_PROXY: "none" }).access.trustedProxy).toEqual({ kind: "none" });
    expect(loadAgentConfig({ AGENT_TRUSTED_PROXY: "2" }).access.trustedProxy).toEqual({ kind: "hops", hops: 2 });
    expect(() => loadAgentConfig({ AGENT_TRUSTED_PROXY: "vercel" })).toThrow(/AGENT_TRUSTED_PROXY/);
    expect(() => loadAgentConfig({ AGENT_TRUSTED_PROXY: "true" })).toThrow(/AGENT_TRUSTED_PROXY/);
  });

  it("refuses the old AGENT_TRUST_PROXY=true (it trusted the entry a client writes itself), naming its replacement", () => {
    expect(() => loadAgentConfig({ AGENT_TRUST_PROXY: "true" })).toThrow(/AGENT_TRUST_PROXY: is replaced by AGENT_TRUSTED_PROXY/);
    expect(loadAgentConfig({ AGENT_TRUST_PROXY: "false" }).access.trustedProxy).toEqual({ kind: "none" });
  });
});
