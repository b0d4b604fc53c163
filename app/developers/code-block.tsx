"use client";

import { useState } from "react";

/** A code example with a Copy button. */
export function CodeBlock({ code, label }: { code: string; label: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <figure className="code-block">
      <figcaption className="sr-only">{label}</figcaption>
      <button
        type="button"
        className="code-copy"
        onClick={() =>
          void navigator.clipboard.writeText(code).then(
            () => setCopied(true),
            () => setCopied(false),
          )
        }
        aria-label={`Copy the ${label}`}
      >
        {copied ? "Copied" : "Copy"}
      </button>
      <pre>
        <code>{code}</code>
      </pre>
    </figure>
  );
}
