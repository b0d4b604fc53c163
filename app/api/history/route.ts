import { listHistory, readHistoryQuery } from "@/lib/gateway/history/list";
import { withSignIn } from "@/lib/gateway/history/with-sign-in";
import { jsonResponse } from "@/lib/shared/http";

export const dynamic = "force-dynamic";

// GET /api/history – the signed-in wallet's paid requests, newest first, a page at a time (free;
// sign in with x402 sign-in-with-x, or a browser's session cookie; 402 with a challenge otherwise)
export const GET = withSignIn("GET /api/history", async ({ request, wallet, db }) => {
  const { limit, cursor } = readHistoryQuery(new URL(request.url));
  return jsonResponse({ address: wallet, ...(await listHistory({ db, wallet, limit, cursor })) });
});
