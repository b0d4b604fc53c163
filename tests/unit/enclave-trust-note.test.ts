/**
 * What the home page and /status say about the enclave the page trusts. The browser tests see the
 * e2e build, which trusts no repository (the local demo's enclave is unattested); these render the
 * note for a build that trusts one, and read the build-time variables as the page does.
 */
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { afterEach, describe, expect, it, vi } from "vitest";
import { EnclaveTrustNote } from "@/components/enclave-trust";

const REPO = "longevity-research/enclave";
const MEASUREMENT = "a1".repeat(48);
const text = (html: string) => html.replace(/<[^>]+>/g, "").replace(/&#x27;|&apos;/g, "'");

describe("the page's note on the enclave it trusts", () => {
  afterEach(() => {
    vi.unstubAllEnvs();
    vi.resetModules();
  });

  it("names the trusted repository and the pinned measurement", () => {
    const html = renderToStaticMarkup(createElement(EnclaveTrustNote, { trust: { repo: REPO, measurement: MEASUREMENT } }));
    expect(text(html)).toContain(`This page trusts the enclave repository ${REPO} at measurement ${MEASUREMENT}.`);
    expect(html).toContain(`href="https://github.com/${REPO}"`);
    expect(text(html)).toContain("refuses any other enclave, whatever the server says");
  });

  it("names the repository alone when no measurement is pinned", () => {
    expect(text(renderToStaticMarkup(createElement(EnclaveTrustNote, { trust: { repo: REPO } })))).toContain(`This page trusts the enclave repository ${REPO} (any signed release).`);
  });

  it("says plainly when the page trusts none, and that its private mode is then unattested", () => {
    const note = text(renderToStaticMarkup(createElement(EnclaveTrustNote, { trust: null })));
    expect(note).toContain("This page trusts no enclave repository, so its private mode is not attested");
    expect(note).toContain("NEXT_PUBLIC_TRUSTED_ENCLAVE_REPO");
  });

  it("takes the trusted enclave from NEXT_PUBLIC_TRUSTED_ENCLAVE_REPO and NEXT_PUBLIC_TRUSTED_ENCLAVE_MEASUREMENT", async () => {
    vi.stubEnv("NEXT_PUBLIC_TRUSTED_ENCLAVE_REPO", REPO);
    vi.stubEnv("NEXT_PUBLIC_TRUSTED_ENCLAVE_MEASUREMENT", MEASUREMENT.toUpperCase());
    expect((await import("@/lib/web/enclave-trust")).PAGE_TRUST).toEqual({ repo: REPO, measurement: MEASUREMENT });
    vi.resetModules();
    vi.stubEnv("NEXT_PUBLIC_TRUSTED_ENCLAVE_REPO", "");
    vi.stubEnv("NEXT_PUBLIC_TRUSTED_ENCLAVE_MEASUREMENT", "");
    expect((await import("@/lib/web/enclave-trust")).PAGE_TRUST).toBeNull();
  });
});

describe("the home page's private-mode section says the same in plain words", () => {
  it("trusting none: private mode is not attested, and only as private as its server; no build variables, a link to /status", async () => {
    const { PrivateModeTrust } = await import("@/components/enclave-trust");
    const html = renderToStaticMarkup(createElement(PrivateModeTrust, { trust: null }));
    expect(text(html)).toContain("Private mode here is not attested.");
    expect(text(html)).toContain("only as private as the server that runs the enclave");
    expect(text(html)).not.toContain("NEXT_PUBLIC_TRUSTED_ENCLAVE_REPO");
    expect(text(html)).not.toContain("npm run ask");
    expect(html).toContain('href="/status"');
  });

  it("trusting a repository: checked in the browser, any other enclave refused, the repository linked", async () => {
    const { PrivateModeTrust } = await import("@/components/enclave-trust");
    const html = renderToStaticMarkup(createElement(PrivateModeTrust, { trust: { repo: REPO, measurement: MEASUREMENT } }));
    expect(text(html)).toContain(`this page checks in your browser that the enclave runs the published code of ${REPO} (the release measured ${MEASUREMENT.slice(0, 12)}…)`);
    expect(text(html)).toContain("refuses any other enclave, whatever the server says");
    expect(html).toContain(`href="https://github.com/${REPO}"`);
    expect(text(renderToStaticMarkup(createElement(PrivateModeTrust, { trust: { repo: REPO } })))).toContain("(any signed release)");
  });
});
