/**
 * `npm run casts`: the type assertions (`x as T`, `<T>x`; `as const` is not one) in lib/ and agent/,
 * counted with the TypeScript compiler API, by folder and by file (issue 26: row mappers and
 * hand-offs that cast every value hide the shapes the compiler could check).
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import ts from "typescript";

const files = execFileSync("git", ["ls-files", "lib/*.ts", "lib/*.tsx", "agent/*.ts"], { encoding: "utf8" })
  .split("\n")
  .filter((f) => f && !f.endsWith(".d.ts"));

const byFile = new Map<string, number>();
for (const file of files) {
  const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true, file.endsWith(".tsx") ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const visit = (node: ts.Node): void => {
    if ((ts.isAsExpression(node) || ts.isTypeAssertionExpression(node)) && !(ts.isTypeReferenceNode(node.type) && node.type.typeName.getText(source) === "const")) {
      byFile.set(file, (byFile.get(file) ?? 0) + 1);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
}

const byFolder = new Map<string, number>();
for (const [file, n] of byFile) {
  const folder = file.startsWith("lib/") ? file.split("/").slice(0, 2).join("/") : "agent";
  byFolder.set(folder, (byFolder.get(folder) ?? 0) + n);
}
const total = [...byFile.values()].reduce((a, b) => a + b, 0);
console.log(`${total} type assertions in lib/ and agent/ (as const not counted)`);
for (const [folder, n] of [...byFolder].sort((a, b) => b[1] - a[1])) console.log(`  ${String(n).padStart(4)}  ${folder}`);
if (process.argv.includes("--files")) for (const [file, n] of [...byFile].sort((a, b) => b[1] - a[1])) console.log(`${String(n).padStart(4)}  ${file}`);
