/**
 * `npm test`: the type check, lint and dead-code check (side by side), then the unit, integration
 * and browser suites, each with a JSON report, a line per suite (with its skipped tests), and one
 * closing line summing them: `N passed, N failed`. Exits non-zero when any suite failed or could
 * not run. `.ci/run` runs exactly this.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { ensureBuild } from "./lib/processes";

const root = path.resolve(import.meta.dirname, "..");
const results = path.join(root, "test-results");
fs.mkdirSync(results, { recursive: true });

type Counts = { passed: number; failed: number; skipped: number };
type Suite = {
  name: string;
  command: string;
  args: string[];
  report?: string;
  read?: (report: any) => Counts;
  /** The failed tests named in the report, each with the first line of its error. */
  failures?: (report: any) => string[];
};

/** The first non-blank line of an error message, without colour codes, cut to one screen line. */
const firstLine = (message: unknown): string => {
  const text = String(message ?? "").replace(/\u001b\[[0-9;]*m/g, "");
  const line = text.split("\n").find((l) => l.trim() !== "") ?? "";
  return line.trim().slice(0, 240);
};

const vitestCounts = (r: any): Counts => ({
  passed: r.numPassedTests ?? 0,
  failed: r.numFailedTests ?? 0,
  skipped: (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0),
});

const vitest = (project: string): Suite => ({
  name: project,
  command: "npx",
  args: ["vitest", "run", "--project", project, `--reporter=${project === "integration" ? "verbose" : "default"}`, "--reporter=json", `--outputFile=test-results/${project}.json`],
  report: path.join(results, `${project}.json`),
  read: vitestCounts,
  failures: (r: any) =>
    (r.testResults ?? []).flatMap((file: any) => {
      const where = path.relative(root, String(file.name ?? ""));
      const failed = (file.assertionResults ?? []).filter((t: any) => t.status === "failed");
      // A file that failed outside any test (its setup, an import) has no failed assertion to name.
      if (failed.length === 0 && file.status === "failed") return [`${where}: ${firstLine(file.message)}`];
      return failed.map((t: any) => `${where} › ${t.fullName}: ${firstLine(t.failureMessages?.[0])}`);
    }),
});

/** Playwright's JSON report nests suites in suites; a test failed when its outcome was unexpected. */
function playwrightFailures(suite: any): string[] {
  const own = (suite.specs ?? []).flatMap((spec: any) =>
    (spec.tests ?? [])
      .filter((t: any) => t.status === "unexpected")
      .map((t: any) => {
        const error = (t.results ?? []).map((r: any) => r.error?.message).find(Boolean);
        return `${spec.file}:${spec.line} [${t.projectName}] › ${spec.title}: ${firstLine(error)}`;
      }),
  );
  return [...own, ...(suite.suites ?? []).flatMap(playwrightFailures)];
}

const suites: Suite[] = [
  { name: "typecheck", command: "npx", args: ["tsc", "--noEmit"] },
  { name: "lint", command: "npx", args: ["eslint", "."] },
  // Unused files, exports, types and dependencies (knip.ts).
  { name: "deadcode", command: "npx", args: ["knip", "--no-progress"] },
  vitest("unit"),
  vitest("integration"),
  {
    name: "e2e",
    command: "npx",
    args: ["playwright", "test"],
    report: path.join(results, "e2e-report.json"),
    read: (r: any) => ({
      passed: (r.stats?.expected ?? 0) + (r.stats?.flaky ?? 0),
      failed: r.stats?.unexpected ?? 0,
      skipped: r.stats?.skipped ?? 0,
    }),
    failures: (r: any) => (r.suites ?? []).flatMap(playwrightFailures),
  },
];

function run(suite: Suite): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(suite.command, suite.args, { cwd: root, stdio: "inherit", env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" } });
    child.once("exit", (code) => resolve(code ?? 1));
  });
}

/**
 * The browser suite's stack (`npm run demo`, playwright.config.ts) needs a production build of the
 * gateway, minutes of work that no other suite needs or makes. It is made while those suites run
 * (once the type check is done: it reads the build's `.next/types`, which the build rewrites),
 * with the environment the demo builds with (no `NEXT_PUBLIC_` values of its own, the type check
 * left to the typecheck suite), so the demo finds it fresh and starts at once. A failed build is
 * not a suite: the demo then builds itself and fails the browser suite with the build's output.
 */
function buildGatewayEarly(): Promise<void> {
  const log = path.join(results, "gateway-build.log");
  return ensureBuild(root, { ...process.env, NEXT_TELEMETRY_DISABLED: "1", SKIP_BUILD_TYPECHECK: "1" }, { log }).catch((err: Error) => {
    console.log(`\nThe early build of the gateway failed (${err.message}); the browser suite's demo builds it again.`);
  });
}

/** A suite's counts and failed tests once it has run, and how long it took. */
async function runSuite(suite: Suite): Promise<{ counts: Counts; failed: string[]; seconds: number }> {
  if (suite.report) fs.rmSync(suite.report, { force: true });
  const started = performance.now();
  const code = await run(suite);
  const seconds = Math.round((performance.now() - started) / 1000);
  const failed: string[] = [];
  let counts: Counts;
  if (!suite.report || !suite.read) {
    counts = code === 0 ? { passed: 1, failed: 0, skipped: 0 } : { passed: 0, failed: 1, skipped: 0 };
  } else if (fs.existsSync(suite.report)) {
    const report = JSON.parse(fs.readFileSync(suite.report, "utf8"));
    counts = suite.read(report);
    failed.push(...(suite.failures?.(report) ?? []).map((f) => `  ${suite.name}: ${f}`));
    if (code !== 0 && counts.failed === 0) counts.failed = 1;
  } else {
    counts = { passed: 0, failed: 1, skipped: 0 };
  }
  if (counts.failed > 0 && failed.length === 0) failed.push(`  ${suite.name}: exited ${code} with no failed test to name; its output is above`);
  return { counts, failed, seconds };
}

async function main(): Promise<void> {
  let building: Promise<void> = Promise.resolve();
  const total: Counts = { passed: 0, failed: 0, skipped: 0 };
  const lines: string[] = [];
  const failedTests: string[] = [];
  // The type check and lint are one process each, on one core each: they run side by side, and the
  // dead-code check (seconds of one core) beside them, both under the type check's heading.
  const beside = suites.filter((s) => s.name === "lint" || s.name === "deadcode");
  const started = new Map<Suite, ReturnType<typeof runSuite>>();
  for (const suite of suites) {
    if (suite.name === "e2e") await building;
    if (!beside.includes(suite)) console.log(`\n=== ${suite.name}${suite.name === "typecheck" ? ", lint and deadcode" : ""} ===`);
    if (suite.name === "typecheck") for (const other of beside) started.set(other, runSuite(other));
    const { counts, failed, seconds } = await (started.get(suite) ?? runSuite(suite));
    failedTests.push(...failed);
    if (suite.name === "typecheck") building = buildGatewayEarly();
    lines.push(`${suite.name}: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped (${seconds} s)`);
    total.passed += counts.passed;
    total.failed += counts.failed;
    total.skipped += counts.skipped;
  }
  const summary = `${total.passed} passed, ${total.failed} failed`;
  fs.writeFileSync(path.join(results, "summary.txt"), summary + "\n");
  const failedList = failedTests.length > 0 ? `\nfailed tests:\n${failedTests.join("\n")}` : "";
  console.log(`\n${lines.join("\n")}\nall suites: ${total.skipped} skipped${failedList}\n${summary}`);
  process.exit(total.failed === 0 ? 0 : 1);
}

void main();
