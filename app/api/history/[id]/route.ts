import { forgetResult } from "@/lib/gateway/history/record";
import { reopenResult } from "@/lib/gateway/history/reopen";
import { withSignIn } from "@/lib/gateway/history/with-sign-in";
import { ApiError, jsonResponse } from "@/lib/shared/http";
import { getAgentApi } from "@/lib/gateway/upstream";

export const dynamic = "force-dynamic";

// GET /api/history/[id] – reopen one of the signed-in wallet's paid requests with what it bought
// (another wallet's, or none: 404); a sealed one shows its kind and time only
export const GET = withSignIn<{ id: string }>("GET /api/history/[id]", async ({ params, wallet, db, config }) =>
  jsonResponse(await reopenResult({ db, agent: getAgentApi(), publicUrl: config.publicUrl, wallet, id: params.id })),
);

// DELETE /api/history/[id] – forget its question and answer (the payment stays on the ledger); 404 as for GET
export const DELETE = withSignIn<{ id: string }>("DELETE /api/history/[id]", async ({ params, wallet, db }) => {
  if (!(await forgetResult({ db, wallet, id: params.id }))) throw new ApiError("not_found", "No result of the wallet signed in has this id", { reason: "not_found" });
  return new Response(null, { status: 204, headers: { "cache-control": "no-store" } });
});
