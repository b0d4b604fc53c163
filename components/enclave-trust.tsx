import Link from "next/link";
import type { EnclaveTrust } from "@/lib/shared/sealing/trust";

/**
 * Which enclave this page trusts, in words (home page and /status): the repository, and the
 * measurement when one is pinned, both fixed when the page was built; or that it trusts none, so
 * its private mode is unattested. No hooks: rendered on the server.
 */
export function EnclaveTrustNote({ trust }: { trust: EnclaveTrust | null }) {
  if (!trust) {
    return (
      <p className="trust-note" data-testid="enclave-trust">
        <strong>This page trusts no enclave repository</strong>, so its private mode is <strong>not attested</strong>: it was built without{" "}
        <code>NEXT_PUBLIC_TRUSTED_ENCLAVE_REPO</code>, so it cannot check which code the enclave runs. Requests are still sealed, but they are only as
        private as the server that runs the enclave. To check the enclave yourself, use{" "}
        <code>npm run ask -- --private --enclave-repo owner/name</code>.
      </p>
    );
  }
  return (
    <p className="trust-note" data-testid="enclave-trust">
      <strong>This page trusts the enclave repository </strong>
      <a href={`https://github.com/${trust.repo}`}>
        <code>{trust.repo}</code>
      </a>
      {trust.measurement ? (
        <>
          {" "}
          at measurement <code data-testid="enclave-trust-measurement">{trust.measurement}</code>
        </>
      ) : (
        " (any signed release)"
      )}
      . Before sealing anything, private mode checks in your browser that the enclave&apos;s attestation proves it runs {trust.measurement ? "that release" : "a signed release of that repository"}, and refuses any other enclave, whatever the server says. These were fixed when the page was built; the page itself
      comes from this server, so to check without trusting it, use <code>npm run ask -- --private --enclave-repo {trust.repo}</code>.
    </p>
  );
}

/**
 * The same in plain words, for the private-mode section of the home page: what private mode can
 * and cannot promise here, with the operator's terms (the build variable, the command line) left to
 * /status. No hooks: rendered in the page's private-mode section as on the server.
 */
export function PrivateModeTrust({ trust }: { trust: EnclaveTrust | null }) {
  const details = (
    <>
      {" "}
      Details: <Link href="/status">Service status</Link>.
    </>
  );
  if (!trust) {
    return (
      <p className="small" data-testid="enclave-trust">
        <strong>Private mode here is not attested.</strong> This page was built without naming the enclave code it should trust, so it cannot check
        what the enclave runs. Your question is still sealed in this browser, but it is only as private as the server that runs the enclave.
        {details}
      </p>
    );
  }
  return (
    <p className="small" data-testid="enclave-trust">
      Before sealing anything, this page checks in your browser that the enclave runs the published code of{" "}
      <a href={`https://github.com/${trust.repo}`}>{trust.repo}</a>
      {trust.measurement ? <> (the release measured {trust.measurement.slice(0, 12)}…)</> : " (any signed release)"}, and refuses any other enclave, whatever the
      server says.
      {details}
    </p>
  );
}
