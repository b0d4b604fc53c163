import "server-only";
import { nativePrimitives } from "./native";
import * as scheme from "./scheme";

/** The sealing scheme on Node's native crypto (servers: the gateway and the agent's enclave side). */
type Args<F> = F extends (p: never, args: infer A) => unknown ? A : never;

export const sealRequestNative = (args: Args<typeof scheme.sealRequest>) => scheme.sealRequest(nativePrimitives, args);
export const openRequestNative = (args: Args<typeof scheme.openRequest>) => scheme.openRequest(nativePrimitives, args);
export const sealResponseNative = (args: Args<typeof scheme.sealResponse>) => scheme.sealResponse(nativePrimitives, args);
export const openResponseNative = (args: Args<typeof scheme.openResponse>) => scheme.openResponse(nativePrimitives, args);
export { nativePrimitives };
