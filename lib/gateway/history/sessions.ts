import "server-only";
import { createHash, randomBytes } from "node:crypto";
import type { Queryable } from "@/lib/shared/db";
import { HISTORY_PATH } from "@/lib/shared/contracts/history-paths";

/**
 * A browser's sign-in: one proof (POST /api/history/session) opens a session, so a person signs
 * once rather than at every page of their history. Its token is 256 random bits in an HttpOnly,
 * SameSite=Strict cookie sent only to the history routes; the database keeps its SHA-256, so a
 * copy of the table opens nothing. A session reads one wallet's history, until it expires or its
 * browser signs out.
 */

export const SESSION_COOKIE = "lra_history_session";

const hash = (token: string) => createHash("sha256").update(token).digest("hex");

/** Opens a session for `payer`; returns its token and when it ends. */
export async function openSession({ db, payer, seconds }: { db: Queryable; payer: string; seconds: number }): Promise<{ token: string; expiresAt: Date }> {
  const token = randomBytes(32).toString("base64url");
  const expiresAt = new Date(Date.now() + seconds * 1000);
  await db.query("INSERT INTO gateway.sign_in_sessions (token_hash, payer, expires_at) VALUES ($1, $2, $3)", [hash(token), payer.toLowerCase(), expiresAt]);
  return { token, expiresAt };
}

/** The wallet a live session signed in, or null (no such session, or it ended). */
export async function sessionWallet({ db, token }: { db: Queryable; token: string }): Promise<string | null> {
  const { rows } = await db.query<{ payer: string }>("SELECT payer FROM gateway.sign_in_sessions WHERE token_hash = $1 AND expires_at > now()", [hash(token)]);
  return rows[0]?.payer ?? null;
}

/** Ends a session (signing out). */
export async function closeSession({ db, token }: { db: Queryable; token: string }): Promise<void> {
  await db.query("DELETE FROM gateway.sign_in_sessions WHERE token_hash = $1", [hash(token)]);
}

/** The session token a request's cookie carries, if any. */
export function sessionTokenOf(request: Request): string | null {
  for (const part of (request.headers.get("cookie") ?? "").split(";")) {
    const [name, ...value] = part.trim().split("=");
    if (name === SESSION_COOKIE && value.length > 0) return value.join("=") || null;
  }
  return null;
}

/** Set-Cookie for a session: HttpOnly, SameSite=Strict, the history routes only, Secure on an https origin. */
export function sessionCookie({ token, seconds, publicUrl }: { token: string; seconds: number; publicUrl: string }): string {
  return [`${SESSION_COOKIE}=${token}`, `Path=${HISTORY_PATH}`, `Max-Age=${seconds}`, "HttpOnly", "SameSite=Strict", ...(publicUrl.startsWith("https:") ? ["Secure"] : [])].join("; ");
}

/** Set-Cookie that removes the session cookie. */
export function clearedSessionCookie({ publicUrl }: { publicUrl: string }): string {
  return sessionCookie({ token: "", seconds: 0, publicUrl });
}
