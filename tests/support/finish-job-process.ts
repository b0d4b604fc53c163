/**
 * Another agent process, for the long-poll tests: it finishes job JOB_ID (a private literature job)
 * the way a worker does, claim then complete with RESULT (JSON), against POSTGRES_URL, and exits.
 * Being another process, it cannot wake a waiter in the test's process except through the database.
 */
import { createPool } from "../../lib/shared/db/pool";
import { claimJob, completeJob } from "../../agent/jobs/queue";

const db = createPool({ url: process.env.POSTGRES_URL!, max: 1 });
const job = await claimJob({ db, workerId: "other-process", kinds: ["private_literature"], leaseSeconds: 30 });
if (!job || job.id !== process.env.JOB_ID) throw new Error(`claimed ${job?.id ?? "nothing"}, not ${process.env.JOB_ID}`);
if (!(await completeJob({ db, id: job.id, workerId: "other-process", result: JSON.parse(process.env.RESULT ?? "{}") }))) throw new Error("not completed");
await db.end();
console.log("DONE");
