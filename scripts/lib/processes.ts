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

/** Runs a command to completion; throws with its exit code when it fails. */
export async function runCommand({ command, args, env, cwd = process.cwd() }: { command: string; args: string[]; env: NodeJS.ProcessEnv; cwd?: string }): Promise<void> {
  const child = spawn(command, args, { cwd, env, stdio: "inherit" });
  const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
  if (code !== 0) throw new Error(`${command} ${args.join(" ")} exited with ${code}`);
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
 * True when `<dir>/.next` holds a production build newer than every source file it was built from
 * (`inputs`, relative to `root`).
 */
export function isBuildFresh(root: string, { dir = root, inputs = BUILD_INPUTS }: { dir?: string; inputs?: string[] } = {}): boolean {
  const buildId = path.join(dir, ".next", "BUILD_ID");
  if (!fs.existsSync(buildId)) return false;
  const builtAt = fs.statSync(buildId).mtimeMs;
  const newest = (p: string): number => {
    if (!fs.existsSync(p)) return 0;
    const stat = fs.statSync(p);
    if (!stat.isDirectory()) return stat.mtimeMs;
    return Math.max(stat.mtimeMs, ...fs.readdirSync(p).map((entry) => newest(path.join(p, entry))));
  };
  return inputs.every((input) => newest(path.join(root, input)) <= builtAt);
}

/** Builds the Next.js app in `dir` (default: the gateway) unless its build is fresh. */
export async function ensureBuild(
  root: string,
  env: NodeJS.ProcessEnv,
  { dir = root, inputs = BUILD_INPUTS }: { dir?: string; inputs?: string[] } = {},
): Promise<void> {
  if (isBuildFresh(root, { dir, inputs })) return;
  await runCommand({ command: process.execPath, args: [nextBin(root), "build", dir], env, cwd: root });
}

/** The gateway's production server (`npm start`): Next.js behind server.mjs, which records the socket's address. */
export function gatewayServerArgs(root: string): string[] {
  return [path.join(root, "server.mjs")];
}

export function nextBin(root: string): string {
  return path.join(root, "node_modules", "next", "dist", "bin", "next");
}
