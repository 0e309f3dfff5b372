/**
 * The README code compiles (issue 24): every ```ts block of each package's README (the packages'
 * landing pages: whole programs a user copies) is written as a module of its own into a folder of
 * examples/express-sqlite (whose
 * node_modules hold express, kysely, the SQL drivers and the workspace packages), and the whole set
 * is typechecked with the workspace's compiler options. Packages that example does not depend on
 * (koa, the koa adapter, BullMQ) resolve through `paths` to the workspace's sources and their own
 * node_modules. A block that is a fragment on purpose starts with `// not compiled:`.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "typescript";
import { afterAll, describe, expect, it } from "vitest";
import { root, workspacePackages } from "./workspace-packages.mjs";

/** The ```ts blocks of a Markdown text with the line each starts on. */
export function tsBlocks(markdown: string): { line: number; code: string }[] {
  const blocks: { line: number; code: string }[] = [];
  const lines = markdown.split("\n");
  for (let i = 0; i < lines.length; i++) {
    if (!/^```(ts|typescript)\s*$/.test(lines[i] ?? "")) continue;
    const start = i + 1;
    let end = start;
    while (end < lines.length && !/^```\s*$/.test(lines[end] ?? "")) end++;
    blocks.push({ line: start + 1, code: lines.slice(start, end).join("\n") });
    i = end;
  }
  return blocks;
}

const readmes = workspacePackages()
  .map((pkg) => join(pkg.dir, "README.md"))
  .filter((path) => existsSync(path));
const dir = join(root, "examples", "express-sqlite", ".readme-check");

/** `paths` for the workspace packages the example does not depend on, and their own dependencies. */
function paths(): Record<string, string[]> {
  const map: Record<string, string[]> = {};
  for (const pkg of workspacePackages()) {
    const exports = (pkg.manifest["exports"] ?? {}) as Record<string, unknown>;
    for (const [subpath, target] of Object.entries(exports)) {
      const source = typeof target === "object" && target !== null ? (target as Record<string, unknown>)["@forgekit/source"] : undefined;
      if (typeof source === "string") map[subpath === "." ? pkg.name : `${pkg.name}/${subpath.slice(2)}`] = [join(pkg.dir, source)];
    }
  }
  map["koa"] = [join(root, "packages", "adapter-koa", "node_modules", "@types", "koa", "index.d.ts")];
  map["bullmq"] = [join(root, "packages", "jobs-bullmq", "node_modules", "bullmq", "dist", "esm", "index.d.ts")];
  return map;
}

describe("README code blocks", () => {
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("typecheck, each as a module of its own", () => {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    const files = new Map<string, string>();
    for (const readme of readmes) {
      for (const block of tsBlocks(readFileSync(readme, "utf8"))) {
        if (block.code.trimStart().startsWith("// not compiled:")) continue;
        const name = `${relative(root, readme).replace(/[/.]/g, "_")}_L${block.line}.ts`;
        writeFileSync(join(dir, name), `${block.code}\nexport {};\n`);
        files.set(join(dir, name), `${relative(root, readme)}:${block.line}`);
      }
    }
    const base = ts.readConfigFile(join(root, "tsconfig.base.json"), (path) => ts.sys.readFile(path)).config as { compilerOptions: object };
    const { options } = ts.convertCompilerOptionsFromJson({ ...base.compilerOptions, noEmit: true, declaration: false, sourceMap: false, baseUrl: undefined }, root);
    const program = ts.createProgram([...files.keys()], { ...options, paths: paths(), noUnusedLocals: false });
    const problems = ts.getPreEmitDiagnostics(program).map((d) => {
      const where = d.file === undefined ? "" : `${files.get(d.file.fileName) ?? relative(root, d.file.fileName)} (+${d.file.getLineAndCharacterOfPosition(d.start ?? 0).line}): `;
      return `${where}${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`;
    });
    expect(files.size).toBeGreaterThanOrEqual(5);
    expect(problems).toEqual([]);
  }, 300_000);
});
