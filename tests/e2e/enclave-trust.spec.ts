import { expect, test } from "./support/test";
import { HomePage } from "./pages/home";

/**
 * The home page (in plain words, in its private-mode section) and /status (in the operator's
 * terms) say which enclave repository the page trusts, as fixed when it was built. The usual e2e
 * build sets no NEXT_PUBLIC_TRUSTED_ENCLAVE_REPO (the local demo's enclave serves no attestation,
 * and a page trusting a repository refuses it), so it says it trusts none and that private mode
 * is unattested. Run with the variable set, e.g.
 * `NEXT_PUBLIC_TRUSTED_ENCLAVE_REPO=longevity-research/enclave npx playwright test tests/e2e/enclave-trust.spec.ts`
 * (the demo then rebuilds: scripts/lib/processes.ts), the same tests check a build that trusts it,
 * and that its private mode refuses the demo's unattested key. The wording is also checked for
 * every case in tests/unit/enclave-trust-note.test.ts.
 */
const trusted = process.env.NEXT_PUBLIC_TRUSTED_ENCLAVE_REPO?.trim() || null;

test("the home page says in plain words, in its private-mode section, which enclave it trusts (none in the usual e2e build: private mode unattested)", async ({ page }) => {
  const home = new HomePage(page);
  await home.goto();
  const note = home.privateMode.getByTestId("enclave-trust");
  if (trusted) {
    await expect(note).toContainText(`this page checks in your browser that the enclave runs the published code of ${trusted}`);
    await expect(note.getByRole("link", { name: trusted })).toHaveAttribute("href", `https://github.com/${trusted}`);
  } else {
    await expect(note).toContainText("Private mode here is not attested");
    await expect(note).toContainText("only as private as the server that runs the enclave");
  }
  // The operator's terms (the build variable, the command line) are on /status, linked.
  await expect(note).not.toContainText("NEXT_PUBLIC_TRUSTED_ENCLAVE_REPO");
  await expect(note.getByRole("link", { name: "Service status" })).toHaveAttribute("href", "/status");
});

test("/status says which enclave repository the page trusts", async ({ page }) => {
  await page.goto("/status");
  await expect(page.getByRole("heading", { name: "Which enclave this page trusts" })).toBeVisible();
  await expect(page.getByTestId("enclave-trust")).toContainText(trusted ? `This page trusts the enclave repository ${trusted}` : "This page trusts no enclave repository, so its private mode is not attested");
});

test("private mode checks the enclave key against the repository the page was built to trust", async ({ page }) => {
  const home = new HomePage(page);
  await home.goto();
  await page.getByTestId("private-switch").click();
  if (trusted) {
    // The demo's enclave serves no attestation: a page that trusts a repository refuses to seal to it.
    await expect(page.getByTestId("private-mode").getByTestId("error-note")).toContainText(`this client trusts only an enclave running ${trusted}`);
    await expect(page.getByTestId("private-switch")).not.toBeChecked();
  } else {
    await expect(page.getByTestId("enclave-status")).toContainText("not attested");
  }
});
