import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { DataDirInUseError, readLiveOwner, startEmbeddedPostgres } from "@/lib/db/embedded";
import { freePort } from "../support/postgres";

describe("embedded database (PGlite over the wire protocol)", () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "lra-embedded-"));
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it("serves a data folder to pg clients, refuses a second owner, and keeps data across restarts", async () => {
    const first = await startEmbeddedPostgres({ dataDir, port: await freePort() });
    try {
      const a = new pg.Client(first.url);
      const b = new pg.Client(first.url);
      await Promise.all([a.connect(), b.connect()]);
      await a.query("CREATE TABLE kept (v text)");
      await b.query("INSERT INTO kept VALUES ('survives a restart')");
      await Promise.all([a.end(), b.end()]);

      expect(readLiveOwner(dataDir)).toMatchObject({ pid: process.pid, url: first.url });
      // A second owner in another process finds the folder in use.
      const error = await startInChild(dataDir);
      expect(error).toContain("DataDirInUseError");
      expect(error).toContain(`in use by process ${process.pid}`);
      expect(error).toContain(`POSTGRES_URL=${first.url}`);
    } finally {
      await first.stop();
    }
    expect(readLiveOwner(dataDir)).toBeNull();

    const second = await startEmbeddedPostgres({ dataDir, port: await freePort() });
    try {
      const c = new pg.Client(second.url);
      await c.connect();
      const { rows } = await c.query("SELECT v FROM kept");
      expect(rows).toEqual([{ v: "survives a restart" }]);
      await c.end();
    } finally {
      await second.stop();
    }
  });

  it("takes over a lock left by a process that died", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "lra-stale-"));
    try {
      // PID 2^22 + 1 is above Linux's pid_max default range: no such process.
      fs.writeFileSync(path.join(dir, "owner.json"), JSON.stringify({ pid: 4194305, url: "postgres://x", startedAt: "then" }));
      const db = await startEmbeddedPostgres({ dataDir: dir, port: await freePort() });
      expect(readLiveOwner(dir)?.pid).toBe(process.pid);
      await db.stop();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("refuses a second owner in the same process too, naming the first", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "lra-same-"));
    const db = await startEmbeddedPostgres({ dataDir: dir, port: await freePort() });
    try {
      fs.writeFileSync(path.join(dir, "owner.json"), JSON.stringify({ pid: process.ppid, url: db.url, startedAt: "now" }));
      await expect(startEmbeddedPostgres({ dataDir: dir, port: await freePort() })).rejects.toBeInstanceOf(DataDirInUseError);
    } finally {
      await db.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

/** Runs startEmbeddedPostgres in a separate Node process and returns what it printed. */
async function startInChild(dataDir: string): Promise<string> {
  const { spawnSync } = await import("node:child_process");
  const script = `
    import { startEmbeddedPostgres } from "./lib/db/embedded.ts";
    startEmbeddedPostgres({ dataDir: ${JSON.stringify(dataDir)}, port: 1 })
      .then(() => { console.log("STARTED"); process.exit(0); })
      .catch((e) => { console.log(e.name + ": " + e.message); process.exit(3); });
  `;
  const result = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
    cwd: path.resolve(import.meta.dirname, "../.."),
    encoding: "utf8",
  });
  return result.stdout + result.stderr;
}
