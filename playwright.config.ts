import fs from "node:fs";
import path from "node:path";
import { defineConfig, type PlaywrightTestConfig } from "@playwright/test";
import { E2E_POSTGRES_READY_LINE, STACK_COUNT, e2ePostgresPort, stackOf, usesPostgresServer } from "./tests/e2e/support/stacks";

/**
 * Browser tests drive the system Chromium (Debian's packages; Playwright's own browser
 * download is not used) against the stacks that `npm run demo` starts: one per worker, each on
 * its own ports and data folder (tests/e2e/support/stacks.ts), so a running demo is not disturbed
 * and two workers never share a wallet, a ledger or a counter.
 */
/**
 * Chromium's headless shell (Debian's `chromium-headless-shell`, the build Playwright itself runs
 * headless tests in) where installed, else the full browser run headless: measured over the whole
 * suite, the shell took 99-110 CPU-seconds where the full browser took 178, the same tests passing.
 */
const HEADLESS_SHELL = "/usr/bin/chromium-headless-shell";
const CHROMIUM = fs.existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : "/usr/bin/chromium";
/** Port 1 (tcpmux) is not served on any machine these tests run on: a connection is refused at once. */
const CLOSED_PORT_URL = "http://127.0.0.1:1";
const stacks = Array.from({ length: STACK_COUNT }, (_, i) => stackOf(i));

/**
 * The stacks' PostgreSQL server (tests/e2e/support/postgres-server.ts), where one can be started:
 * Playwright starts its web servers one after another in this order and stops them in reverse, so
 * it is up before any stack and outlives them all. Stopped by signal (not killed) so that it stops
 * the detached server, whose data lives only for this run.
 */
type WebServer = Exclude<NonNullable<PlaywrightTestConfig["webServer"]>, unknown[]>;
const postgresServer: WebServer[] = usesPostgresServer()
  ? [
      {
        name: "postgres",
        command: `node --import tsx tests/e2e/support/postgres-server.ts`,
        wait: { stdout: new RegExp(E2E_POSTGRES_READY_LINE) },
        // Only catches a start that hangs: initdb and the start take about a second.
        timeout: 120_000,
        reuseExistingServer: false,
        gracefulShutdown: { signal: "SIGTERM", timeout: 30_000 },
        stdout: "pipe",
        stderr: "pipe",
        env: { E2E_POSTGRES_PORT: String(e2ePostgresPort()), E2E_STACKS: String(STACK_COUNT) },
      },
    ]
  : [];

export default defineConfig({
  testDir: "tests/e2e",
  outputDir: "test-results/e2e",
  // Files, not tests, are spread over the workers: a file's tests may build on each other.
  fullyParallel: false,
  workers: STACK_COUNT,
  retries: 0,
  // Every expectation waits for its condition and passes the moment it holds; these deadlines only
  // stop a test that hangs. Playwright's 5 s default failed a loaded CI run whose page took longer
  // to sign a payment with the local test wallet.
  timeout: 120_000,
  expect: { timeout: 30_000 },
  reporter: [["list"], ["json", { outputFile: "test-results/e2e-report.json" }]],
  use: {
    // Each worker's own gateway: tests/e2e/support/test.ts overrides it per worker.
    baseURL: stacks[0]!.baseURL,
    screenshot: "only-on-failure",
    // A failed test keeps its trace (every action with its call log and source, network, console),
    // a screenshot and the page's accessibility snapshot at the failure (error-context.md). Left
    // out of the trace, because it is recorded for every test, passed or not: the film strip (a
    // sixth of the suite's time on a 2-core machine) and each action's DOM snapshot (about 20 of
    // the suite's 210 CPU-seconds; E2E_TRACE_SNAPSHOTS=1 brings them back when a failure needs
    // them: Playwright's `--trace` sets only the mode and keeps these settings).
    trace: { mode: "retain-on-failure", screenshots: false, snapshots: process.env.E2E_TRACE_SNAPSHOTS === "1" },
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? CHROMIUM,
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
      ],
    },
  },
  projects: [
    { name: "desktop", use: { browserName: "chromium", viewport: { width: 1280, height: 900 } } },
    // Only the tests tagged PHONE (tests/e2e/support/projects.ts): those whose layout or flow differs there.
    { name: "phone", grep: /@phone/, use: { browserName: "chromium", viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true } },
  ],
  webServer: [
    ...postgresServer,
    ...stacks.map((stack): WebServer => ({
      // A fresh database each run: the demo's chain is in memory, so ledger rows of an earlier run
      // would refer to a chain that no longer exists (and the cron would keep trying them). On the
      // PostgreSQL server every run's cluster is new; PGlite's lives in DATA_DIR, removed here.
      command: `node -e "require('fs').rmSync(process.env.DATA_DIR, { recursive: true, force: true })" && npx tsx scripts/demo.ts`,
      url: `${stack.baseURL}/`,
      // Ready is a condition (the page answers), waited for; this bound only catches a start that
      // hangs. It covers building the gateway, which on a busy CI machine took over three minutes
      // (a 180 s bound failed whole runs), so it is far above any working start.
      timeout: 15 * 60_000,
      reuseExistingServer: false,
      stdout: "pipe",
      stderr: "pipe",
      env: {
        PORT: String(stack.port),
        DATA_DIR: stack.dataDir,
        DEMO_DIR: stack.demoDir,
        // The enclave's key-encryption key: the default would be the real ~/.config.
        ENCLAVE_KEK_FILE: path.join(stack.demoDir, "enclave.kek"),
        CHAIN_PORT: String(stack.chainPort),
        AGENT_PORT: String(stack.agentPort),
        ...(stack.databaseUrl ? { POSTGRES_URL: stack.databaseUrl } : { EMBEDDED_DB_PORT: String(stack.dbPort) }),
        HEALTH_SLOW_MS: "2000",
        // npm test has type-checked the project already (next.config.ts).
        SKIP_BUILD_TYPECHECK: "1",
        // The local library the offline demo answers from (synthetic records: see tests/fixtures/library),
        // with the records whose design and intervention only their own words name (evidence-words.spec.ts).
        DEMO_LIBRARY_FILES: "tests/fixtures/library/records.jsonl,tests/fixtures/library/designs.jsonl",
        // Offline by design, whatever the machine can reach: every live source is asked (the page
        // shows it searched) at a closed local port, so it fails at once as unreachable and no run
        // depends on, or sends a question to, the real PubMed.
        ...Object.fromEntries(["PUBMED", "EUROPEPMC", "CTGOV", "BIORXIV", "CROSSREF", "OPENALEX"].map((s) => [`${s}_BASE_URL`, CLOSED_PORT_URL])),
      },
    })),
  ],
});
