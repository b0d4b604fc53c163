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
