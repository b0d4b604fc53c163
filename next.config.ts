import type { NextConfig } from "next";
import { getConfig } from "./lib/gateway/config";

// Validate the environment when the build or the server starts: a bad variable fails here, named.
const config = getConfig();
const trustedEnclave = config.webBuild.trustedEnclave;

const nextConfig: NextConfig = {
  // The enclave the web app trusts, written into the server's and the browser's bundles alike at
  // build, empty when unset: without a value Next.js would leave the server reading the running
  // environment while the browser saw nothing (lib/web/enclave-trust.ts).
  env: {
    NEXT_PUBLIC_TRUSTED_ENCLAVE_REPO: trustedEnclave?.repo ?? "",
    NEXT_PUBLIC_TRUSTED_ENCLAVE_MEASUREMENT: trustedEnclave?.measurement ?? "",
  },
  // PGlite ships WASM and data files that must be loaded from node_modules, not bundled.
  serverExternalPackages: ["@electric-sql/pglite", "@electric-sql/pglite-socket", "pg"],
  // `npm test` type-checks the whole project (tsc) before the browser suite builds the gateway, so
  // that build may skip Next.js's own second pass (SKIP_BUILD_TYPECHECK=1, set by
  // playwright.config.ts): on a busy machine it is most of the build. Every other build checks.
  typescript: { ignoreBuildErrors: process.env.SKIP_BUILD_TYPECHECK === "1" },
  poweredByHeader: false,
  reactStrictMode: true,
  // Agents and browsers on any origin call the API: allow the x402 request header and expose the
  // x402 response headers. Static headers cost nothing per request; Next.js answers preflights.
  async headers() {
    return [
      // Every page says where the machine-readable descriptions are (RFC 8631 `service-desc`, and
      // `describedby`), so an agent that starts at the base URL finds them without guessing a path.
      {
        source: "/((?!api/|_next/).*)",
        headers: [
          {
            key: "Link",
            value: '</llms.txt>; rel="describedby"; type="text/markdown", </api/openapi.json>; rel="service-desc"; type="application/openapi+json", </.well-known/x402.json>; rel="describedby"; type="application/json"',
          },
        ],
      },
      {
        source: "/api/:path*",
        headers: [
          { key: "Access-Control-Allow-Origin", value: "*" },
          // DELETE and SIGN-IN-WITH-X: a wallet's history (/api/history), read with a proof by a client
          // running in a browser; a session cookie never goes cross-site (SameSite=Strict, and `*` admits no credentials).
          { key: "Access-Control-Allow-Methods", value: "GET, POST, DELETE, OPTIONS" },
          // Mcp-*: the MCP endpoint's headers (/api/mcp), for MCP clients running in a browser.
          { key: "Access-Control-Allow-Headers", value: "Content-Type, Authorization, PAYMENT-SIGNATURE, SIGN-IN-WITH-X, Mcp-Protocol-Version, Mcp-Session-Id" },
          { key: "Access-Control-Expose-Headers", value: "PAYMENT-REQUIRED, PAYMENT-RESPONSE, Retry-After, Mcp-Session-Id" },
          { key: "Access-Control-Max-Age", value: "86400" },
        ],
      },
    ];
  },
};

export default nextConfig;
