import fs from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

/**
 * No module of agent/ imports itself through others (issue 14, section 7): routes import the
 * middleware and types of agent/http, agent/server.ts imports the routes, and nothing imports
 * back. Type-only imports count too: a cycle of types is still two modules that cannot be read,
 * moved or tested one without the other. Imports are read with the TypeScript compiler's own
 * pre-processor (static, type-only, re-exports and dynamic imports alike).
 */

const root = path.resolve(import.meta.dirname, "../..");
const agentDir = path.join(root, "agent");

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith(".d.ts") ? [full] : [];
  });
}

/** The file an import names, for `@/…` and relative specifiers; null for packages. */
function resolveImport(from: string, specifier: string): string | null {
  const base = specifier.startsWith("@/") ? path.join(root, specifier.slice(2)) : specifier.startsWith(".") ? path.resolve(path.dirname(from), specifier) : null;
  if (base === null) return null;
  const candidates = [`${base}.ts`, `${base}.tsx`, path.join(base, "index.ts"), base];
  return candidates.find((c) => fs.existsSync(c) && fs.statSync(c).isFile()) ?? null;
}

/** Each agent/ module (relative to the repository) and the agent/ modules it imports. */
function agentImportGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles(agentDir)) {
    const { importedFiles } = ts.preProcessFile(fs.readFileSync(file, "utf8"), true, true);
    const targets = importedFiles
      .map((i) => resolveImport(file, i.fileName))
      .filter((target): target is string => target !== null && target.startsWith(agentDir + path.sep));
    graph.set(path.relative(root, file), [...new Set(targets.map((t) => path.relative(root, t)))]);
  }
  return graph;
}

/** The strongly connected components of more than one module, or of one that imports itself (Tarjan). */
function findCycles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next);
    next++;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v)!, index.get(w)!));
      }
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1 || (graph.get(v) ?? []).includes(v)) cycles.push(component.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return cycles;
}

describe("agent/ imports", () => {
  it("finds a cycle where there is one, and none where there is none", () => {
    const cyclic = new Map([
      ["a", ["b"]],
      ["b", ["c"]],
      ["c", ["a"]],
      ["d", ["a"]],
      ["e", ["e"]],
    ]);
    expect(findCycles(cyclic)).toEqual([["a", "b", "c"], ["e"]]);
    expect(findCycles(new Map([["a", ["b"]], ["b", []], ["c", ["a", "b"]]]))).toEqual([]);
  });

  it("reads the imports of agent/ modules, type-only ones included", () => {
    const graph = agentImportGraph();
    expect(graph.get(path.join("agent", "server.ts"))).toEqual(expect.arrayContaining([path.join("agent", "routes", "chat.ts"), path.join("agent", "http", "deps.ts")]));
    // `import type { Caller } from "../http/context"`
    expect(graph.get(path.join("agent", "jobs", "queue.ts"))).toContain(path.join("agent", "http", "context.ts"));
  });

  it("holds no import cycle", () => {
    expect(findCycles(agentImportGraph())).toEqual([]);
  });

  it("keeps the routes to the HTTP layer's modules: no route imports agent/server.ts or another route", () => {
    const graph = agentImportGraph();
    const routes = [...graph.keys()].filter((f) => f.startsWith(path.join("agent", "routes") + path.sep));
    expect(routes.length).toBeGreaterThan(5);
    for (const route of routes) {
      const imported = graph.get(route)!;
      expect(imported.filter((f) => f === path.join("agent", "server.ts") || f.startsWith(path.join("agent", "routes") + path.sep)), route).toEqual([]);
    }
  });
});
