import { withCron } from "@/lib/cron/with-cron";
import { jsonResponse } from "@/lib/http";

export const dynamic = "force-dynamic";

// GET /api/cron – the scheduler's minute tick (settlement arrives with the payments work)
export const GET = withCron("GET /api/cron", async () => jsonResponse({ ok: true }));
