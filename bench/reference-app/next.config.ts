import path from "node:path";
import type { NextConfig } from "next";

// The benchmark's reference: the same chat handler behind the official `withX402` (@x402/next).
// Built and started only by `npm run bench`; it is not part of the product.
const nextConfig: NextConfig = {
  turbopack: { root: path.resolve(import.meta.dirname, "../..") },
  serverExternalPackages: ["pg"],
  poweredByHeader: false,
};

export default nextConfig;
