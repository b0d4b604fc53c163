import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";

/** A gateway process started from tests/support/gateway-process.ts. */
export type GatewayProcess = { url: string; child: ChildProcess; kill: (signal?: NodeJS.Signals) => Promise<void> };

const root = path.resolve(import.meta.dirname, "../..");

/** Starts a gateway process with `env` on a free port and waits for it to listen. */
export async function startGatewayProcess(env: Record<string, string>): Promise<GatewayProcess> {
  const child = spawn(process.execPath, ["--conditions=react-server", "--import", "tsx", path.join(root, "tests/support/gateway-process.ts")], {
    cwd: root,
    env: { ...process.env, LOG_SILENT: process.env.LOG_SILENT ?? "1", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr?.on("data", (c: Buffer) => (stderr += c.toString()));
  const port = await new Promise<number>((resolve, reject) => {
    let out = "";
    child.stdout?.on("data", (c: Buffer) => {
      out += c.toString();
      const match = /READY (\d+)/.exec(out);
      if (match) resolve(Number(match[1]));
    });
    child.once("exit", (code) => reject(new Error(`gateway process exited with ${code}: ${stderr}`)));
  });
  const kill = async (signal: NodeJS.Signals = "SIGTERM") => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
    child.kill(signal);
    await exited;
  };
  return { url: `http://127.0.0.1:${port}`, child, kill };
}
