/**
 * Sealing for private mode (section 4.3), usable in the browser and in Node. This entry uses the
 * portable @noble primitives; the agent's enclave side imports `lib/shared/sealing/native` for Node's
 * native crypto. Both produce the same bytes (tests check both against docs/sealing.md's vectors).
 */
import { portablePrimitives } from "@/lib/shared/sealing/portable";
import * as scheme from "@/lib/shared/sealing/scheme";

export { SealingError } from "@/lib/shared/sealing/errors";
export { decodeBase64, encodeBase64, REQUEST_INFO, RESPONSE_INFO } from "@/lib/shared/sealing/codec";
export type { Envelope, SealedResponse } from "@/lib/shared/sealing/scheme";
export type { SealingPrimitives } from "@/lib/shared/sealing/primitives";
export { portablePrimitives };

type Args<F> = F extends (p: never, args: infer A) => unknown ? A : never;

export const sealRequest = (args: Args<typeof scheme.sealRequest>) => scheme.sealRequest(portablePrimitives, args);
export const openRequest = (args: Args<typeof scheme.openRequest>) => scheme.openRequest(portablePrimitives, args);
export const openResponse = (args: Args<typeof scheme.openResponse>) => scheme.openResponse(portablePrimitives, args);
export { createRecoveryKey, deriveRecoveryKeys, encryptAtRest, decryptAtRest, parseRecoveryKey } from "@/lib/shared/sealing/recovery";
