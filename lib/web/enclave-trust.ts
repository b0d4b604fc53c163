import { parseEnclaveTrust, type EnclaveTrust } from "@/lib/sealing/trust";

/**
 * The enclave this web app trusts, fixed when the app is built: the repository whose signed
 * release the enclave must run (`NEXT_PUBLIC_TRUSTED_ENCLAVE_REPO`) and, optionally, the measurement
 * of one release (`NEXT_PUBLIC_TRUSTED_ENCLAVE_MEASUREMENT`). Never read from the server's answer:
 * private mode verifies the enclave's attestation against these in the browser. Null when the
 * build set no repository: the page trusts none, and its private mode is unattested.
 *
 * Read here rather than in lib/config because Next.js writes a `NEXT_PUBLIC_` variable into the
 * bundles only where the code names it literally as `process.env.NEXT_PUBLIC_…`; lib/config
 * validates the same two variables when the build starts, so a bad value fails the build, named.
 */
export const PAGE_TRUST: EnclaveTrust | null = parseEnclaveTrust(
  { repo: process.env.NEXT_PUBLIC_TRUSTED_ENCLAVE_REPO, measurement: process.env.NEXT_PUBLIC_TRUSTED_ENCLAVE_MEASUREMENT },
  { repo: "NEXT_PUBLIC_TRUSTED_ENCLAVE_REPO", measurement: "NEXT_PUBLIC_TRUSTED_ENCLAVE_MEASUREMENT" },
);
