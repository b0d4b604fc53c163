import { createHash, timingSafeEqual } from "node:crypto";

/**
 * Whether `authorization` is `Bearer <secret>`, compared in constant time (both sides hashed
 * first, so not even the length of the guess leaks). An unset secret matches nothing.
 */
export function bearerMatches(authorization: string | null | undefined, secret: string | undefined): boolean {
  if (!secret || !authorization) return false;
  const match = /^Bearer (.+)$/.exec(authorization);
  if (!match?.[1]) return false;
  return timingSafeEqual(digest(match[1]), digest(secret));
}

function digest(value: string): Buffer {
  return createHash("sha256").update(value, "utf8").digest();
}
