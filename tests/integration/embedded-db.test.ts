import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DataDirInUseError, readLiveOwner, startEmbeddedPostgres } from "@/lib/shared/db/embedded";
import { freePort } from "../support/postgres";

const execFileAsync = promisify(execFile);

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

  /**
   * A folder of its own for a test, holding a database PGlite has already created: a copy of the
   * first test's (stopped by then), so it opens without running initdb again, which takes PGlite
   * seconds. Copied before the first test has run, it is empty and PGlite creates one itself.
   */
  function initializedFolder(prefix: string): string {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
    fs.cpSync(dataDir, dir, { recursive: true });
    fs.rmSync(path.join(dir, "owner.json"), { force: true });
    return dir;
  }

  describe("one server, connections from several clients", () => {
    let dir: string;
    let server: Awaited<ReturnType<typeof startEmbeddedPostgres>>;
    beforeAll(async () => {
      dir = initializedFolder("lra-embedded-shared-");
      server = await startEmbeddedPostgres({ dataDir: dir, port: await freePort() });
    });
    afterAll(async () => {
      await server?.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    });

    it("keeps each connection's statements whole while processes query at once (no parameters bound to another's statement)", async () => {
      // pglite-socket queues each protocol message on its own, so when connections of other
      // processes (the gateway and the agent) send at the same time, one connection's Parse could
      // run between another's Parse and Bind: its parameters then went to the other's statement
      // ("bind message supplies 1 parameters, but prepared statement requires 3", "malformed array
      // literal", or, between statements of the same shape, silently another connection's result).
      const outputs = await Promise.all([0, 1, 2].map((p) => queryInChild(server.url, p)));
      expect(outputs.flatMap((o) => o.failures)).toEqual([]);
      expect(outputs.map((o) => o.done)).toEqual([240, 240, 240]);
    });

    it("a connection that dies inside a transaction is rolled back, and the others go on", async () => {
      const a = new pg.Client(server.url);
      const b = new pg.Client(server.url);
      try {
        await Promise.all([a.connect(), b.connect()]);
        await a.query("CREATE TABLE t (v int)");
        await a.query("BEGIN");
        await a.query("INSERT INTO t VALUES ($1)", [1]);
        a.on("error", () => undefined);
        // Gone without COMMIT: its socket closed under it, as when a process is killed.
        (a as unknown as { connection: { stream: { destroy: () => void } } }).connection.stream.destroy();
        const { rows } = await b.query("SELECT count(*)::int AS n FROM t WHERE v = $1", [1]);
        expect(rows).toEqual([{ n: 0 }]);
      } finally {
        await b.end().catch(() => undefined);
      }
    });
  });

  it("takes over a lock left by a process that died", async () => {
    const dir = initializedFolder("lra-stale-");
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
    const dir = initializedFolder("lra-same-");
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
    import { startEmbeddedPostgres } from "./lib/shared/db/embedded.ts";
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

/**
 * Four connections in a child process, each sending 60 statements of its own shape (one, two or
 * three parameters, one of them large enough to span several socket reads) and checking every
 * answer; returns what went wrong and how many answers were right.
 */
async function queryInChild(url: string, processIndex: number): Promise<{ failures: string[]; done: number }> {
  const script = `
    const pg = require("pg");
    (async () => {
      const failures = []; let done = 0;
      const clients = Array.from({ length: 4 }, () => new pg.Client(process.env.URL));
      await Promise.all(clients.map((c) => c.connect()));
      await Promise.all(clients.map(async (client, k) => {
        const tag = process.env.P + "-" + k;
        for (let i = 0; i < 60; i++) {
          try {
            let expected, got;
            if ((k + i) % 3 === 0) { expected = tag + "/" + i; got = (await client.query("SELECT $1::text AS v", [expected])).rows[0].v; }
            else if ((k + i) % 3 === 1) { expected = k * 1000 + i; got = (await client.query("SELECT $1::int + $2::int AS v", [k * 1000, i])).rows[0].v; }
            else { const big = "x".repeat(100000 + i); expected = big.length + k + i; got = (await client.query("SELECT length($1::text) + array_length($2::int[], 1) - 1 + $3::int AS v", [big, [k], k + i])).rows[0].v; }
            if (got !== expected) failures.push(tag + ": expected " + expected + ", got " + got); else done++;
          } catch (err) { failures.push(tag + ": " + err.message); }
        }
      }));
      await Promise.all(clients.map((c) => c.end()));
      console.log(JSON.stringify({ failures, done }));
    })().catch((err) => { console.log(JSON.stringify({ failures: [err.message], done: 0 })); });
  `;
  const { stdout } = await execFileAsync(process.execPath, ["-e", script], { cwd: process.cwd(), env: { ...process.env, URL: url, P: String(processIndex) }, maxBuffer: 10_000_000 });
  return JSON.parse(stdout.trim().split("\n").pop()!) as { failures: string[]; done: number };
}
