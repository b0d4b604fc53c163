import { spawnSync } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";

/**
 * A throwaway PostgreSQL cluster from the installed server binaries (Debian's `postgresql`),
 * started in a temporary folder with durability off. Used by the integration setup and the
 * benchmarks when POSTGRES_URL is not given.
 */
export type ThrowawayPostgres = {
  url: string;
  stop: () => Promise<void>;
  /** Stops the server (fast shutdown: open connections are cut) and keeps its data. */
  halt: () => Promise<void>;
  /** Starts it again on the same port after `halt`. */
  resume: () => Promise<void>;
};

/** The folder holding `initdb` and `pg_ctl`, newest version first, or null when none is installed. */
export function findPostgresBin(): string | null {
  const base = "/usr/lib/postgresql";
  if (!fs.existsSync(base)) return null;
  const versions = fs
    .readdirSync(base)
    .filter((v) => fs.existsSync(path.join(base, v, "bin", "initdb")))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] ? path.join(base, versions[0], "bin") : null;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => (typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port"))));
    });
  });
}

/**
 * Starts a cluster; as root the data folder must belong to `postgres`, so commands run as that user.
 * `dir` (default: a new temporary folder) must be empty or absent; `port` defaults to a free one.
 */
export async function startThrowawayPostgres(bin: string, options: { dir?: string; port?: number } = {}): Promise<ThrowawayPostgres> {
  const dir = options.dir ?? fs.mkdtempSync(path.join(os.tmpdir(), "lra-pg-"));
  fs.mkdirSync(dir, { recursive: true });
  const isRoot = process.getuid?.() === 0;
  if (isRoot) spawnSync("chown", ["postgres", dir]);
  const run = postgresCommand(bin);
  const port = options.port ?? (await freePort());
  const data = path.join(dir, "data");
  run("initdb", ["-D", data, "-U", "postgres", "--auth=trust", "--no-sync", "-E", "UTF8", "--locale=C.UTF-8"]);
  const start = () =>
    run("pg_ctl", [
      "-D", data, "-l", path.join(dir, "pg.log"), "-w", "-o",
      `-c listen_addresses=127.0.0.1 -p ${port} -k ${dir} -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200`,
      "start",
    ]);
  start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    halt: async () => run("pg_ctl", ["-D", data, "-m", "fast", "-w", "stop"]),
    resume: async () => start(),
    stop: async () => {
      try {
        run("pg_ctl", ["-D", data, "-m", "immediate", "-w", "stop"]);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

/** Runs one of the server's programs to its end (as `postgres` when we are root); throws when it fails. */
export function postgresCommand(bin: string): (cmd: string, args: string[]) => void {
  const isRoot = process.getuid?.() === 0;
  return (cmd, args) => {
    const [command, fullArgs] = isRoot ? ["runuser", ["-u", "postgres", "--", path.join(bin, cmd), ...args]] : [path.join(bin, cmd), args];
    const result = spawnSync(command as string, fullArgs as string[], { encoding: "utf8" });
    if (result.status !== 0) throw new Error(`${cmd} failed: ${result.stderr || result.stdout}`);
  };
}

