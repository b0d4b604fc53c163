import nextPlugin from "@next/eslint-plugin-next";
import jsxA11y from "eslint-plugin-jsx-a11y";
import reactHooks from "eslint-plugin-react-hooks";
import tseslint from "typescript-eslint";
import { boundaries } from "./eslint-rules/boundaries.mjs";

/**
 * TypeScript, React hooks, accessibility and Next.js rules. (eslint-config-next would bundle these,
 * but its import resolver pins native binaries that the registry reachable here does not all
 * carry, which breaks `npm ci`; so the plugins are composed directly.)
 */
export default tseslint.config(
  { ignores: ["**/.next/**", "node_modules/**", "test-results/**", "bench-results/**", "**/next-env.d.ts"] },
  ...tseslint.configs.recommended,
  {
    files: ["**/*.{ts,tsx}"],
    plugins: { "@next/next": nextPlugin, "react-hooks": reactHooks, "jsx-a11y": jsxA11y },
    rules: {
      ...nextPlugin.configs.recommended.rules,
      ...nextPlugin.configs["core-web-vitals"].rules,
      ...reactHooks.configs.recommended.rules,
      ...jsxA11y.flatConfigs.recommended.rules,
      // Unused bindings named with a leading underscore are deliberate (destructuring to omit).
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", destructuredArrayIgnorePattern: "^_" },
      ],
    },
  },
  {
    // Who may import what: lib/shared, lib/gateway, lib/client, lib/web, agent, components, app
    // (README, "Layout"; tests/unit/eslint-boundaries.test.ts).
    files: ["**/*.{ts,tsx,mjs}"],
    plugins: { local: { rules: { boundaries } } },
    rules: { "local/boundaries": "error" },
  },
  {
    files: ["tests/**", "scripts/**"],
    rules: { "@typescript-eslint/no-explicit-any": "off" },
  },
);
