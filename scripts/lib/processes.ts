import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

/** Helpers the launcher, the benchmarks and the test setup share to run the stack's processes. */

export type Service = { name: string; child: ChildProcess; stop: () => Promise<void> };

/** Starts a long-running command, prefixing its output with its name. */
export function startService({
  name,
  command,
  args,
  env,
  cwd = process.cwd(),
  quiet = false,
}: {
  name: string;
  command: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  cwd?: string;
  quiet?: boolean;
}): Service {
  const child = spawn(command, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"], detached: false });
  const prefix = (stream: NodeJS.WritableStream) => (chunk: Buffer) => {
    if (quiet) return;
    for (const line of chunk.toString().split("\n")) if (line.trim()) stream.write(`[${name}] ${line}\n`);
  };
  child.stdout?.on("data", prefix(process.stdout));
  child.stderr?.on("data", prefix(process.stderr));
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
    child.kill("SIGTERM");
    const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
    await exited;
    clearTimeout(timer);
  };
  return { name, child, stop };
}

/** Runs a command to its end, its output on ours or, with `log`, in that file; throws when it fails. */
async function runCommand({ command, args, env, cwd = process.cwd(), log }: { command: string; args: string[]; env: NodeJS.ProcessEnv; cwd?: string; log?: string }): Promise<void> {
  const out = log === undefined ? "inherit" : fs.openSync(log, "w");
  const child = spawn(command, args, { cwd, env, stdio: log === undefined ? "inherit" : ["ignore", out, out] });
  const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
  if (typeof out === "number") fs.closeSync(out);
  if (code !== 0) throw new Error(`${command} ${args.join(" ")} exited with ${code}${log === undefined ? "" : ` (its output: ${log})`}`);
}

/** Polls `url` until it answers one of `statuses`, or throws after `timeoutMs`. */
export async function waitForHttp(url: string, { timeoutMs = 60_000, statuses = [200] }: { timeoutMs?: number; statuses?: number[] } = {}): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = "no answer";
  while (Date.now() < deadline) {
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(5_000) });
      await response.arrayBuffer();
      if (statuses.includes(response.status)) return;
      last = `status ${response.status}`;
    } catch (err) {
      last = (err as Error).message;
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${url} did not become ready within ${timeoutMs} ms (${last})`);
}

const BUILD_INPUTS = ["app", "lib", "components", "public", "next.config.ts", "package.json", "package-lock.json", "tsconfig.json", "instrumentation.ts", "proxy.ts"];

/**
 * The `NEXT_PUBLIC_` variables of `env` (blank ones left out), sorted: Next.js writes their values
 * into the build (the enclave the web app trusts among them), so a build made with other values
 * is not the build asked for.
 */
function publicEnv(env: NodeJS.ProcessEnv): Record<string, string> {
  return Object.fromEntries(
    Object.entries(env)
      .filter((entry): entry is [string, string] => entry[0].startsWith("NEXT_PUBLIC_") && typeof entry[1] === "string" && entry[1].trim() !== "")
      .sort(([a], [b]) => a.localeCompare(b)),
  );
}

/** Where ensureBuild records the `NEXT_PUBLIC_` values a build was made with. */
const publicEnvStamp = (dir: string) => path.join(dir, ".next", "public-env.json");

/**
 * True when `<dir>/.next` holds a production build newer than every source file it was built from
 * (`inputs`, relative to `root`) and, when `env` is given, made with its `NEXT_PUBLIC_` values (a
 * build without a record of them counts as made with none).
 */
function isBuildFresh(root: string, { dir = root, inputs = BUILD_INPUTS, env }: { dir?: string; inputs?: string[]; env?: NodeJS.ProcessEnv } = {}): boolean {
  const buildId = path.join(dir, ".next", "BUILD_ID");
  if (!fs.existsSync(buildId)) return false;
  if (env) {
    let builtWith: unknown = {};
    try {
      builtWith = JSON.parse(fs.readFileSync(publicEnvStamp(dir), "utf8"));
    } catch {
      // No record: a build made by hand, taken as made with no NEXT_PUBLIC_ values.
    }
    if (JSON.stringify(builtWith) !== JSON.stringify(publicEnv(env))) return false;
  }
  const builtAt = fs.statSync(buildId).mtimeMs;
  const newest = (p: string): number => {
    if (!fs.existsSync(p)) return 0;
    const stat = fs.statSync(p);
    if (!stat.isDirectory()) return stat.mtimeMs;
    return Math.max(stat.mtimeMs, ...fs.readdirSync(p).map((entry) => newest(path.join(p, entry))));
  };
  return inputs.every((input) => newest(path.join(root, input)) <= builtAt);
}

/** Builds the Next.js app in `dir` (default: the gateway) unless its build is fresh for `env`. */
export async function ensureBuild(
  root: string,
  env: NodeJS.ProcessEnv,
  { dir = root, inputs = BUILD_INPUTS, log }: { dir?: string; inputs?: string[]; log?: string } = {},
): Promise<void> {
  if (isBuildFresh(root, { dir, inputs, env })) return;
  await runCommand({ command: process.execPath, args: [nextBin(root), "build", dir], env, cwd: root, log });
  fs.writeFileSync(publicEnvStamp(dir), JSON.stringify(publicEnv(env)) + "\n");
}

/** The gateway's production server (`npm start`): Next.js behind server.mjs, which records the socket's address. */
export function gatewayServerArgs(root: string): string[] {
  return [path.join(root, "server.mjs")];
}

export function nextBin(root: string): string {
  return path.join(root, "node_modules", "next", "dist", "bin", "next");
}
