/**
 * `npm test`: the type check, then the unit, integration and browser suites, each with a JSON
 * report, a line per suite (with its skipped tests), and one closing line summing them:
 * `N passed, N failed`. Exits non-zero when
 * any suite failed or could not run. `.ci/run` runs exactly this.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const results = path.join(root, "test-results");
fs.mkdirSync(results, { recursive: true });

type Counts = { passed: number; failed: number; skipped: number };
type Suite = { name: string; command: string; args: string[]; report?: string; read?: (report: any) => Counts };

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
});

const suites: Suite[] = [
  { name: "typecheck", command: "npx", args: ["tsc", "--noEmit"] },
  { name: "lint", command: "npx", args: ["eslint", "."] },
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
  },
];

function run(suite: Suite): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(suite.command, suite.args, { cwd: root, stdio: "inherit", env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" } });
    child.once("exit", (code) => resolve(code ?? 1));
  });
}

async function main(): Promise<void> {
  const total: Counts = { passed: 0, failed: 0, skipped: 0 };
  const lines: string[] = [];
  for (const suite of suites) {
    if (suite.report) fs.rmSync(suite.report, { force: true });
    console.log(`\n=== ${suite.name} ===`);
    const code = await run(suite);
    let counts: Counts;
    if (!suite.report || !suite.read) {
      counts = code === 0 ? { passed: 1, failed: 0, skipped: 0 } : { passed: 0, failed: 1, skipped: 0 };
    } else if (fs.existsSync(suite.report)) {
      counts = suite.read(JSON.parse(fs.readFileSync(suite.report, "utf8")));
      // A runner that failed without a failing test (a crash, a failed setup) still fails the run.
      if (code !== 0 && counts.failed === 0) counts.failed = 1;
    } else {
      counts = { passed: 0, failed: 1, skipped: 0 };
    }
    lines.push(`${suite.name}: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped`);
    total.passed += counts.passed;
    total.failed += counts.failed;
    total.skipped += counts.skipped;
  }
  const summary = `${total.passed} passed, ${total.failed} failed`;
  fs.writeFileSync(path.join(results, "summary.txt"), summary + "\n");
  console.log(`\n${lines.join("\n")}\nall suites: ${total.skipped} skipped\n${summary}`);
  process.exit(total.failed === 0 ? 0 : 1);
}

void main();
