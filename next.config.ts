import type { NextConfig } from "next";
import { getConfig } from "./lib/config";

// Validate the environment when the build or the server starts: a bad variable fails here, named.
getConfig();

const nextConfig: NextConfig = {
  // PGlite ships WASM and data files that must be loaded from node_modules, not bundled.
  serverExternalPackages: ["@electric-sql/pglite", "@electric-sql/pglite-socket", "pg"],
  poweredByHeader: false,
  reactStrictMode: true,
};

export default nextConfig;
