import nextVitals from "eslint-config-next/core-web-vitals";
import nextTypeScript from "eslint-config-next/typescript";

/** Next.js' recommended rules (React, hooks, accessibility, TypeScript). */
const config = [
  ...nextVitals,
  ...nextTypeScript,
  {
    rules: {
      // Unused bindings named with a leading underscore are deliberate (destructuring to omit).
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", destructuredArrayIgnorePattern: "^_" }],
    },
  },
  {
    files: ["tests/**", "scripts/**"],
    rules: { "@typescript-eslint/no-explicit-any": "off" },
  },
  { ignores: [".next/**", "node_modules/**", "test-results/**", "bench-results/**", "next-env.d.ts"] },
];

export default config;
