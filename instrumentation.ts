/**
 * Runs once when the server starts: open the database and apply migrations before the first
 * request. A database that is down at start is logged, not fatal: the health route must still
 * answer (503, database down) and the next request tries again.
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const [{ getDb }, { log }] = await Promise.all([import("./lib/gateway/db"), import("./lib/shared/log")]);
  try {
    await getDb();
  } catch (err) {
    log.error("database not ready at start", { error: err });
  }
}
