import type { PaidOperation } from "@/lib/shared/operations";
import { createRecoveryKey, portablePrimitives, sealRequest } from "@/lib/shared/sealing";

/**
 * A body each paid route accepts once paid: its example, or for a sealed route a real envelope
 * sealed to `enclaveKey` (the key the gateway serves), with the recovery key it holds when one is needed.
 */
export async function acceptedBodyFor(op: PaidOperation, { enclaveKey }: { enclaveKey: () => Promise<string> }): Promise<{ body: unknown; recoveryKey?: string }> {
  const seal = async (plaintext: unknown) => sealRequest({ enclavePublicKey: await enclaveKey(), plaintext }).envelope;
  if (op.id === "chatEncrypted") return { body: await seal({ message: "Does rapamycin extend lifespan in mice?" }) };
  if (op.id === "literatureEncrypted") return { body: await seal({ question: "rapamycin lifespan mice" }) };
  if (op.id === "deepResearchEncrypted") {
    const recoveryKey = createRecoveryKey(portablePrimitives);
    return { body: await seal({ message: "Does rapamycin extend lifespan in mice?", recoveryKey }), recoveryKey };
  }
  return { body: op.bodyExample };
}
