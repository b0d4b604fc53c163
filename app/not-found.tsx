import type { Metadata } from "next";
import { connection } from "next/server";
import Link from "next/link";

export const metadata: Metadata = { title: "Page not found · Longevity Research Agent" };

/**
 * The 404 of every page. Rendered per request, not prerendered: the Content Security Policy
 * (proxy.ts) admits only scripts and styles carrying this request's nonce, which a page built
 * ahead of time cannot carry, so a prerendered 404 came unstyled with its scripts blocked.
 */
export default async function NotFound() {
  await connection();
  return (
    <main className="not-found">
      <p className="muted small">404</p>
      <h1>This page does not exist</h1>
      <p>The address may be mistyped, or the page has moved.</p>
      <p>
        <Link href="/">Go to the Longevity Research Agent</Link>
      </p>
    </main>
  );
}
