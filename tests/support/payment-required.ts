import { decodePaymentRequiredHeader } from "@x402/core/http";
import { expect } from "vitest";

/**
 * Holds a 402's PAYMENT-REQUIRED to its body: the same requirements and the same `error` (cut
 * short past a hundred characters, ending "…"), `message` left to the body, with the header's own
 * lighter extensions (docs/payments.md, "Headers that fit"). Returns the decoded header.
 */
export function expectHeaderSaysBody(response: Response, body: object): ReturnType<typeof decodePaymentRequiredHeader> {
  const decoded = decodePaymentRequiredHeader(response.headers.get("payment-required")!);
  const { extensions: _header, error: headerError, message: headerMessage, ...header } = decoded as typeof decoded & { message?: string };
  const { extensions: _body, error, message: _message, ...expected } = body as Record<string, unknown>;
  expect(header).toEqual(expected);
  if (error === undefined) expect(headerError).toBeUndefined();
  else expect(String(error).startsWith(String(headerError).replace(/…$/, ""))).toBe(true);
  expect(headerMessage).toBeUndefined();
  return decoded;
}
