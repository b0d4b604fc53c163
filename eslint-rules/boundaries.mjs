import path from "node:path";

/**
 * Who may import what (issue 26): code shared by the gateway, the agent and the clients sits in
 * lib/shared and imports nothing of theirs; the agent is a separate service; the clients (the web
 * page, the CLI, the local MCP server) never load gateway code, which holds its secrets and
 * database. Each zone lists the folders its files may import from the repository; packages are
 * not restricted. Relative and `@/` imports are resolved alike, so `../../gateway/x` cannot slip by.
 */
const ZONES = [
  { from: "lib/shared", allow: ["lib/shared"] },
  { from: "lib/client", allow: ["lib/shared", "lib/client"] },
  { from: "lib/web", allow: ["lib/shared", "lib/client", "lib/web"] },
  { from: "components", allow: ["lib/shared", "lib/client", "lib/web", "components"] },
  { from: "lib/gateway", allow: ["lib/shared", "lib/gateway"] },
  { from: "agent", allow: ["lib/shared", "agent"] },
  { from: "app", allow: ["lib/shared", "lib/client", "lib/web", "lib/gateway", "components", "app"] },
];

const inside = (file, folder) => file === folder || file.startsWith(`${folder}/`);

export const boundaries = {
  meta: { type: "problem", schema: [], messages: { outside: "{{from}} may not import {{target}}: allowed are {{allowed}} (eslint-rules/boundaries.mjs)." } },
  create(context) {
    const root = context.cwd;
    const file = path.relative(root, context.filename).split(path.sep).join("/");
    const zone = ZONES.find((z) => inside(file, z.from));
    if (!zone) return {};
    const check = (node, spec) => {
      if (typeof spec !== "string") return;
      let target;
      if (spec.startsWith("@/")) target = spec.slice(2);
      else if (spec.startsWith(".")) target = path.posix.normalize(path.posix.join(path.posix.dirname(file), spec));
      else return;
      const top = ["lib/shared", "lib/client", "lib/web", "lib/gateway", "components", "agent", "app", "lib", "scripts", "tests"].find((f) => inside(target, f));
      if (!top || zone.allow.some((a) => inside(target, a))) return;
      context.report({ node, messageId: "outside", data: { from: zone.from, target, allowed: zone.allow.join(", ") } });
    };
    // A type crosses no runtime boundary (it is erased): `import type` of another zone's shape is allowed.
    const typeOnly = (node) => node.importKind === "type" || node.exportKind === "type" || (node.specifiers?.length > 0 && node.specifiers.every((s) => s.importKind === "type" || s.exportKind === "type"));
    return {
      ImportDeclaration: (node) => typeOnly(node) || check(node.source, node.source.value),
      ExportNamedDeclaration: (node) => !node.source || typeOnly(node) || check(node.source, node.source.value),
      ExportAllDeclaration: (node) => typeOnly(node) || check(node.source, node.source.value),
      ImportExpression: (node) => node.source.type === "Literal" && check(node.source, node.source.value),
    };
  },
};
