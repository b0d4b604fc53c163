import { startPaidChat } from "@/lib/gateway/chat/start-chat";
import { requireLiteratureReach } from "@/lib/gateway/literature/reach";
import { chat } from "@/lib/shared/operations/chat";
import { withPayment } from "@/lib/gateway/payments/paid-route";
import { ownEdge } from "@/lib/shared/http/own-edge";

export const dynamic = "force-dynamic";

// Every other method, answered here: the proxy does not run for this path (lib/shared/http/own-edge.ts).
export const { GET, HEAD, PUT, PATCH, DELETE, OPTIONS } = ownEdge(chat.path);

// POST /api/chat – start a cited chat answer (settled before the 202), or continue a
// conversation the same payer started (`conversationId`; anyone else's is 404, never charged).
// 503 literature_unavailable before payment when no literature source can answer, and without a
// charge when the search reached none.
export const POST = withPayment(chat, {
  precheck: () => requireLiteratureReach({ mode: "fast" }),
  handle: ({ body, payment }) => startPaidChat({ body, payer: payment.payer }),
});
