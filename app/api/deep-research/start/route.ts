import { startPaidTurn } from "@/lib/gateway/deep-research/start-turn";
import { requireLiteratureReach } from "@/lib/gateway/literature/reach";
import { deepResearch } from "@/lib/shared/operations/deep-research";
import { withPayment } from "@/lib/gateway/payments/paid-route";
import { ownEdge } from "@/lib/shared/http/own-edge";

export const dynamic = "force-dynamic";

// Every other method, answered here: the proxy does not run for this path (lib/shared/http/own-edge.ts).
export const { GET, HEAD, PUT, PATCH, DELETE, OPTIONS } = ownEdge(deepResearch.path);

// POST /api/deep-research/start – start deep research, or continue a conversation the same payer
// started (`conversationId`; anyone else's is 404, never charged) (settled when delivered).
// 503 literature_unavailable before payment when no literature source can answer, as for chat; a
// turn whose searches then reached none fails, and a failed turn is never charged.
export const POST = withPayment(deepResearch, {
  precheck: () => requireLiteratureReach(),
  handle: ({ body, payment }) => startPaidTurn({ body, payer: payment.payer }),
});
