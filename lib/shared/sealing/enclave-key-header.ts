/**
 * The response header in which the agent's 400 for a sealed request it could not open names the
 * enclave's current public key (base64). It travels only on the agent→gateway hop, which the
 * gateway's service key authenticates; the gateway relays the 400's body, never this header, and
 * drops its cached key only when the key named here is not the one it holds
 * (lib/gateway/private/enclave-key.ts).
 */
export const ENCLAVE_KEY_HEADER = "x-enclave-public-key";
