/**
 * The enclave a client trusts: the client's own configuration, never the server's answer. A
 * Tinfoil enclave is known by the GitHub repository whose signed releases it runs (`owner/name`)
 * and, optionally, by the measurement of one release. `npm run ask` takes them from flags or the
 * environment, the web app from its build (docs/sealing.md, "Clients"). Browser-safe, no
 * dependencies: the page's first load carries it.
 */

export type EnclaveTrust = {
  /** `owner/name` of the GitHub repository whose signed releases the enclave must run. */
  repo: string;
  /**
   * Lowercase hex measurement of the one release the client accepts (the fingerprint Tinfoil's
   * verifier reports: the launch measurement, or a SHA-256 of several registers). Unset: any
   * signed release of `repo`.
   */
  measurement?: string;
};

/** A trusted-enclave setting that cannot be used: `setting` names it, the message starts with it. */
export class EnclaveTrustError extends Error {
  readonly setting: string;
  readonly reason: string;
  constructor(setting: string, reason: string) {
    super(`${setting} ${reason}`);
    this.name = "EnclaveTrustError";
    this.setting = setting;
    this.reason = reason;
  }
}

// GitHub's rules: an owner is letters, digits and single inner dashes; a name letters, digits, `.`, `-`, `_`.
const REPO = /^[A-Za-z0-9](?:[A-Za-z0-9]|-(?=[A-Za-z0-9])){0,38}\/[A-Za-z0-9._-]{1,100}$/;
// A 32-byte fingerprint or a 48-byte register (SEV-SNP launch measurement, TDX MRTD).
const MEASUREMENT = /^(?:[0-9a-f]{64}|[0-9a-f]{96})$/;

/**
 * Reads a trust setting: `null` when no repository is given (the client trusts none). Blank
 * values count as unset. `names` are what the caller calls the two settings (a flag, a variable),
 * for the messages.
 */
export function parseEnclaveTrust(
  values: { repo?: string | undefined; measurement?: string | undefined },
  names: { repo: string; measurement: string },
): EnclaveTrust | null {
  const repo = values.repo?.trim() || undefined;
  const rawMeasurement = values.measurement?.trim() || undefined;
  if (!repo) {
    if (rawMeasurement) throw new EnclaveTrustError(names.measurement, `is the measurement of a release of the trusted repository: set ${names.repo} too`);
    return null;
  }
  const bare = repo.replace(/^(?:https?:\/\/)?github\.com\//i, "").replace(/\.git$/, "").replace(/\/+$/, "");
  if (!REPO.test(bare)) throw new EnclaveTrustError(names.repo, `must be a GitHub repository as owner/name, got "${repo}"`);
  if (!rawMeasurement) return { repo: bare };
  const measurement = rawMeasurement.replace(/^0x/i, "").toLowerCase();
  if (!MEASUREMENT.test(measurement)) throw new EnclaveTrustError(names.measurement, `must be 64 or 96 hexadecimal digits (the measurement Tinfoil's verifier reports), got "${rawMeasurement}"`);
  return { repo: bare, measurement };
}

/** GitHub repository names are case-insensitive: the same repository however it is spelled. */
export function sameRepo(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}
