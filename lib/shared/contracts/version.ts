/** Section 9: the description version of the service contract this code implements. */
export const CONTRACT_VERSION = "0.1.0";
/** Section 2.2: the x402 protocol version of every payment requirement. */
export const X402_VERSION = 2;
