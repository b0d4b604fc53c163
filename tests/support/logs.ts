import { log } from "@/lib/shared/log";

/**
 * Captures what this process's logger writes (gateway and agent alike log through lib/shared/log to
 * stderr) while `run` runs, with LOG_SILENT lifted so every line is really written. A first line
 * proves the capture sees the logger's output, so a test that finds nothing cannot pass vacuously.
 */
export async function captureLogs(run: () => Promise<void>): Promise<string> {
  const written: string[] = [];
  const silent = process.env.LOG_SILENT;
  delete process.env.LOG_SILENT;
  const original = process.stderr.write.bind(process.stderr);
  process.stderr.write = ((chunk: string | Uint8Array, ...rest: never[]) => {
    written.push(String(chunk));
    return original(chunk, ...rest);
  }) as typeof process.stderr.write;
  try {
    log.info("log capture is live");
    await run();
  } finally {
    process.stderr.write = original;
    if (silent !== undefined) process.env.LOG_SILENT = silent;
  }
  const text = written.join("");
  if (!text.includes("log capture is live")) throw new Error("the log capture saw nothing of the logger's output");
  return text;
}
