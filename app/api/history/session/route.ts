import { getConfig } from "@/lib/gateway/config";
import { getDb } from "@/lib/gateway/db";
import { SESSION_PATH } from "@/lib/shared/contracts/history-paths";
import { closeSessionResponse, openSessionResponse } from "@/lib/gateway/history/session-routes";
import { withSignIn } from "@/lib/gateway/history/with-sign-in";
import { withApi } from "@/lib/shared/http";

export const dynamic = "force-dynamic";

// POST /api/history/session – a browser signs in once with a sign-in-with-x proof (402 with a
// challenge without one): an HttpOnly session cookie for the history routes
export const POST = withSignIn("POST /api/history/session", openSessionResponse, { proofOnly: true, resourcePath: SESSION_PATH });

// DELETE /api/history/session – sign out: the session ends and its cookie is removed
export const DELETE = withApi("DELETE /api/history/session", ({ request }) => closeSessionResponse({ request, db: getDb, config: getConfig() }));
