import { parseEnclaveTrust, type EnclaveTrust } from "@/lib/shared/sealing/trust";

/**
 * The enclave this web app trusts, fixed when the app is built: the repository whose signed
 * release the enclave must run (`NEXT_PUBLIC_TRUSTED_ENCLAVE_REPO`) and, optionally, the measurement
 * of one release (`NEXT_PUBLIC_TRUSTED_ENCLAVE_MEASUREMENT`). Never read from the server's answer:
 * private mode verifies the enclave's attestation against these in the browser. Null when the
 * build set no repository: the page trusts none, and its private mode is unattested.
 *
 * Read here rather than through lib/gateway/config because Next.js writes a value into the bundles only
 * where the code names it literally as `process.env.NEXT_PUBLIC_…`. next.config.ts defines both
 * at build (empty when unset), for the server's bundle as for the browser's, so the running
 * server's environment is never read; lib/gateway/config validates them first, so a bad value fails the
 * build, named.
 */
export const PAGE_TRUST: EnclaveTrust | null = parseEnclaveTrust(
  { repo: process.env.NEXT_PUBLIC_TRUSTED_ENCLAVE_REPO, measurement: process.env.NEXT_PUBLIC_TRUSTED_ENCLAVE_MEASUREMENT },
  { repo: "NEXT_PUBLIC_TRUSTED_ENCLAVE_REPO", measurement: "NEXT_PUBLIC_TRUSTED_ENCLAVE_MEASUREMENT" },
);
