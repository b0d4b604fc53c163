import type { DeepResearchStatus, EncryptedDeepResearchStatus } from "@/lib/shared/contracts";
import { getPayment, type PaymentRow } from "@/lib/gateway/payments/ledger";
import type { SettleDeps } from "@/lib/gateway/payments/settle";
import { reconcilePayment, type ReconcileCounts } from "@/lib/gateway/deep-research/reconcile";

/**
 * Encrypted deep research is paid like plain deep research, on delivery: the payment of a run is
 * settled once the agent reports the run completed (by the cron, or by a poll), voided when it
 * failed, expired when its authorization ran out first. The gateway learns only the run's status;
 * its content stays sealed under the client's recovery key.
 */
export async function reconcilePrivateRun(
  deps: SettleDeps,
  payment: PaymentRow,
  /** The run's status (a sealed run's words are deep research's: queued, running, completed, failed). */
  status: DeepResearchStatus,
): Promise<{ payment: PaymentRow; outcome: keyof ReconcileCounts | null }> {
  const outcome = await reconcilePayment(deps, payment, status);
  return { payment: (await getPayment({ db: deps.db, id: payment.id })) ?? payment, outcome };
}

/**
 * What a poll may see: the agent's sealed answer only once the run's payment settled (until then
 * a completed run reads `running`, so clients keep polling), and a failure when the payment could
 * not be made. Encrypted runs have no `timeout` state (section 3): an expired authorization is a
 * `failed` run whose error says nothing was charged. Each answer is built from the fields its
 * status may carry, so nothing else the agent sent with a status (partial content) is passed on.
 */
export function presentPrivateRun(answer: EncryptedDeepResearchStatus, payment: PaymentRow): EncryptedDeepResearchStatus {
  if (payment.status === "expired") {
    return { status: "failed", reason: "authorization_expired", error: "The payment authorization expired before the research finished; nothing was charged" };
  }
  if (payment.status === "failed") return { status: "failed", reason: "settlement_failed", error: `The payment could not be settled (${payment.failureReason ?? "settlement_failed"})` };
  switch (answer.status) {
    case "completed":
      if (payment.status !== "settled") return { status: "running" };
      return { status: "completed", hpke_response_ciphertext: answer.hpke_response_ciphertext, hpke_response_ephemeral_key: answer.hpke_response_ephemeral_key };
    case "failed":
      return answer.error === undefined ? { status: "failed" } : { status: "failed", error: answer.error };
    default:
      return { status: answer.status };
  }
}
