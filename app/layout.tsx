import type { Metadata, Viewport } from "next";
import "./globals.css";

export const metadata: Metadata = {
  title: "Longevity Research Agent",
  description:
    "An AI research agent for aging and longevity questions: answers cite the scientific literature, with the evidence graded, paid per request with x402.",
  // For AI agents reading the page: the service in Markdown (and the Link header names the OpenAPI document).
  alternates: { types: { "text/markdown": "/llms.txt" } },
};

export const viewport: Viewport = { width: "device-width", initialScale: 1 };

export default function RootLayout({ children }: { children: React.ReactNode }) {
  return (
    <html lang="en">
      <body>
        {/* Hoisted into <head> by React: the OpenAPI document, for agents that read the page. */}
        <link rel="service-desc" type="application/openapi+json" href="/api/openapi.json" />
        {children}
      </body>
    </html>
  );
}
