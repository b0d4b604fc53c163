import { decodePaymentRequiredHeader } from "@x402/core/http";
import { expect } from "vitest";

/**
 * Holds a 402's PAYMENT-REQUIRED to its body: the same requirements and the same words (`error`
 * and `message` cut short past a few hundred characters, ending "…"), with the header's own lighter
 * extensions (docs/payments.md, "Headers that fit"). Returns the decoded header.
 */
export function expectHeaderSaysBody(response: Response, body: object): ReturnType<typeof decodePaymentRequiredHeader> {
  const decoded = decodePaymentRequiredHeader(response.headers.get("payment-required")!);
  const { extensions: _header, error: headerError, message: headerMessage, ...header } = decoded as typeof decoded & { message?: string };
  const { extensions: _body, error, message, ...expected } = body as Record<string, unknown>;
  expect(header).toEqual(expected);
  for (const [said, whole] of [[headerError, error], [headerMessage, message]] as const) {
    if (whole === undefined) expect(said).toBeUndefined();
    else expect(String(whole).startsWith(String(said).replace(/…$/, ""))).toBe(true);
  }
  return decoded;
}
