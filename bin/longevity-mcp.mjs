#!/usr/bin/env node
// The local MCP server's command (package.json `bin`): runs scripts/mcp.ts through tsx, with this
// clone's tsconfig (its `@/` paths) whatever directory the MCP client starts it from. No build
// step; tsx comes with the clone's dependencies (`npm install`, dev dependencies included).
import path from "node:path";
import { pathToFileURL } from "node:url";

const root = path.resolve(import.meta.dirname, "..");
const tsx = await import("tsx/esm/api").catch(() => null);
if (!tsx) {
  console.error(`longevity-mcp: tsx is missing; run \`npm install\` in ${root} (dev dependencies included) first.`);
  process.exit(1);
}
tsx.register({ tsconfig: path.join(root, "tsconfig.json") });
await import(pathToFileURL(path.join(root, "scripts", "mcp.ts")).href);
