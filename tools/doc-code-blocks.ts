/**
 * The code blocks of the documentation (README.md and docs/**\/*.md; issue 24 item 6: "every code
 * block in the docs is typechecked or run by a test"). This module finds them and checks the two
 * kinds that are code:
 * - `ts` blocks are typechecked together by the TypeScript compiler, each as its own module, against
 *   the workspace's sources (imports resolve as they would in the examples, which depend on every
 *   package and framework the docs show). Names a fragment uses without defining them (`fk`,
 *   `baseUrl`, `myApp`, …) come from docs/.vitepress/code-blocks.d.ts, where each is typed.
 * - `sh` blocks are checked command by command against what exists: a pnpm script, a `forgekit`
 *   command of the CLI, a `/api/v4` route of docs/openapi.json for curl, a clone URL's shape.
 * Every other block must say it is not code (`text`, or `json` that parses).
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "typescript";

/** The workspace root. */
export const ROOT = join(import.meta.dirname, "..");

/** One fenced block: where it is, its language tag and its text. */
export interface CodeBlock {
  file: string;
  line: number;
  lang: string;
  code: string;
}

/** The markdown files of the documentation: README.md and docs/ (not VitePress's own folders). */
export function docFiles(): string[] {
  const out = [join(ROOT, "README.md")];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name === "node_modules" || entry.name === "dist" || entry.name === "cache") continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith(".md")) out.push(path);
    }
  };
  walk(join(ROOT, "docs"));
  return out;
}

/** The fenced blocks of one markdown file. */
export function codeBlocks(file: string): CodeBlock[] {
  const lines = readFileSync(file, "utf8").split("\n");
  const blocks: CodeBlock[] = [];
  let open: { line: number; lang: string; body: string[] } | undefined;
  lines.forEach((text, i) => {
    const fence = /^```(\S*)\s*$/.exec(text);
    if (open === undefined) {
      if (fence) open = { line: i + 1, lang: fence[1] ?? "", body: [] };
    } else if (text === "```") {
      blocks.push({ file: relative(ROOT, file), line: open.line, lang: open.lang, code: open.body.join("\n") });
      open = undefined;
    } else open.body.push(text);
  });
  return blocks;
}

/** Where each import of a block is looked up, in this order: the examples depend on every package the docs show. */
const RESOLVE_FROM = ["examples/express-sqlite/src/x.ts", "examples/koa-postgres/src/x.ts", "packages/jobs-bullmq/src/x.ts", "tools/x.ts"].map((p) => join(ROOT, p));

/** The file a block is compiled as (a virtual ES module next to the docs). */
const blockPath = (b: CodeBlock) => join(ROOT, "docs", ".code-blocks", `${b.file.replace(/[^\w]+/g, "-")}-${b.line}.mts`);

/** Typechecks the `ts` blocks; returns one message per error, naming the block's file and line. */
export function typecheckBlocks(blocks: readonly CodeBlock[]): string[] {
  const config = ts.readConfigFile(join(ROOT, "tsconfig.base.json"), (p) => ts.sys.readFile(p)).config as { compilerOptions: unknown };
  const { options } = ts.convertCompilerOptionsFromJson(config.compilerOptions, ROOT);
  Object.assign(options, { noEmit: true, declaration: false, sourceMap: false, types: ["node"], noUnusedLocals: false });
  const virtual = new Map<string, { block: CodeBlock; text: string }>();
  for (const b of blocks) virtual.set(blockPath(b), { block: b, text: `${b.code}\nexport {};\n` });
  const prelude = join(ROOT, "docs", ".vitepress", "code-blocks.d.ts");
  const host = ts.createCompilerHost(options);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (name, lang, onError) => {
    const v = virtual.get(name);
    return v ? ts.createSourceFile(name, v.text, lang) : getSourceFile(name, lang, onError);
  };
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (name) => virtual.has(name) || fileExists(name);
  host.resolveModuleNameLiterals = (literals, containing, redirect, opts, file) =>
    literals.map((literal) => {
      const mode = ts.getModeForUsageLocation(file, literal, opts);
      if (!virtual.has(containing) && containing !== prelude) return ts.resolveModuleName(literal.text, containing, opts, host, undefined, redirect, mode);
      for (const anchor of RESOLVE_FROM) {
        const r = ts.resolveModuleName(literal.text, anchor, opts, host, undefined, undefined, ts.ModuleKind.ESNext);
        if (r.resolvedModule) return r;
      }
      return { resolvedModule: undefined };
    });
  const program = ts.createProgram([prelude, ...virtual.keys()], options, host);
  // The blocks' own errors and the prelude's: the workspace's sources are typechecked by `pnpm typecheck`.
  const checked = [prelude, ...virtual.keys()].map((f) => program.getSourceFile(f)).filter((f) => f !== undefined);
  const diagnostics = [...program.getOptionsDiagnostics(), ...program.getGlobalDiagnostics(), ...checked.flatMap((f) => [...program.getSyntacticDiagnostics(f), ...program.getSemanticDiagnostics(f)])];
  return diagnostics.map((d) => {
    const text = ts.flattenDiagnosticMessageText(d.messageText, "\n");
    if (d.file === undefined || d.start === undefined) return text;
    const v = virtual.get(d.file.fileName);
    const { line } = d.file.getLineAndCharacterOfPosition(d.start);
    return v ? `${v.block.file}:${v.block.line + 1 + line}: ${text}` : `${relative(ROOT, d.file.fileName)}:${line + 1}: ${text}`;
  });
}

/** The shell commands of a block: continuation lines joined, comments and blank lines dropped, env assignments cut. */
export function shellCommands(code: string): string[] {
  return code
    .replace(/\\\n\s*/g, " ")
    .split("\n")
    .map((l) => l.replace(/\s+#\s.*$/, "").trim())
    .filter((l) => l !== "" && !l.startsWith("#"))
    .flatMap((l) => l.split(/\s+&&\s+/))
    .map((l) => l.replace(/^(\w+=\S+\s+)+/, ""));
}

/** What a shell command needs to be true, given the facts it is checked against; undefined when it holds. */
export interface ShellFacts {
  scripts: Set<string>;
  workspacePackages: Map<string, Set<string>>;
  cliHelp: string;
  operations: { method: string; path: RegExp }[];
  dependencies: Set<string>;
}

const PNPM = "npx -y pnpm@10.34.8 ";

/** Checks one shell command against the facts; returns what is wrong, or undefined. */
export function checkShellCommand(cmd: string, facts: ShellFacts): string | undefined {
  if (cmd.startsWith(PNPM)) {
    const args = cmd.slice(PNPM.length).split(/\s+/);
    if (args[0] === "install" || args[0] === "exec") return undefined;
    if (args[0] === "--filter") {
      const scripts = facts.workspacePackages.get(args[1] ?? "");
      return scripts?.has(args[2] ?? "") ? undefined : `no workspace package ${args[1]} with a script ${args[2]}`;
    }
    if (args[0] === "forgekit") return checkShellCommand(args.slice(1).join(" ").replace(/^/, "forgekit "), facts);
    return facts.scripts.has(args[0] ?? "") ? undefined : `no root script ${args[0]}`;
  }
  if (cmd.startsWith("forgekit ")) {
    const words = cmd.slice("forgekit ".length).split(/\s+/).filter((w) => !w.startsWith("-") && !w.startsWith("<"));
    const name = words.slice(0, 2).join(" ");
    const known = facts.cliHelp.split("\n").some((l) => l.trim().startsWith(name) || l.trim().startsWith(words[0] ?? "\0"));
    return known ? undefined : `the CLI has no command "${name}"`;
  }
  if (cmd.startsWith("curl ")) {
    const url = /"?(?:\$\w+|https?:\/\/[^/\s"]+)(\/api\/v4\/[^"\s?]*)/.exec(cmd)?.[1];
    if (url === undefined) return "a curl without an /api/v4 URL";
    const method = /-X\s+(\w+)/.exec(cmd)?.[1] ?? (/\s(-d|--data)\s/.test(cmd) ? "POST" : "GET");
    const path = url.slice("/api/v4".length);
    return facts.operations.some((o) => o.method === method && o.path.test(path)) ? undefined : `no operation ${method} /api/v4${path} in docs/openapi.json`;
  }
  if (cmd.startsWith("git clone ")) {
    return /^git clone https?:\/\/([^@]+@)?[\w.:-]+\/[\w.-]+(\/[\w.-]+)*\/[\w.-]+\.git$/.test(cmd) ? undefined : "not a clone URL of a project";
  }
  if (cmd.startsWith("npm install ")) {
    const missing = cmd.slice("npm install ".length).split(/\s+/).filter((p) => !facts.dependencies.has(p));
    return missing.length === 0 ? undefined : `not a package of the workspace or a dependency of it: ${missing.join(", ")}`;
  }
  if (cmd.startsWith("node tools/")) return undefined;
  return "a shell command the docs test does not know how to check";
}

/** The facts shell commands are checked against, read from the workspace. */
export function shellFacts(cliHelp: string): ShellFacts {
  const readJson = (p: string) => JSON.parse(readFileSync(join(ROOT, p), "utf8")) as Record<string, Record<string, unknown> | undefined>;
  const root = readJson("package.json");
  const workspacePackages = new Map<string, Set<string>>();
  const dependencies = new Set<string>();
  for (const dir of ["packages", "examples"]) {
    for (const name of readdirSync(join(ROOT, dir))) {
      const pkg = readJson(join(dir, name, "package.json"));
      const pkgName = pkg["name"] as unknown as string;
      workspacePackages.set(pkgName, new Set(Object.keys(pkg["scripts"] ?? {})));
      dependencies.add(pkgName);
      for (const key of ["dependencies", "peerDependencies", "devDependencies"]) for (const d of Object.keys(pkg[key] ?? {})) dependencies.add(d);
    }
  }
  const openapi = readJson("docs/openapi.json");
  const operations = Object.entries(openapi["paths"] ?? {}).flatMap(([path, item]) =>
    Object.keys(item as object).map((method) => ({
      method: method.toUpperCase(),
      path: new RegExp(`^${path.replace(/^\/api\/v4/, "").replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\{[^}]+\}/g, "[^/]+")}$`),
    })),
  );
  return { scripts: new Set(Object.keys(root["scripts"] ?? {})), workspacePackages, cliHelp, operations, dependencies };
}

/** A block's file, for messages: the path relative to the workspace. */
export const where = (b: CodeBlock) => `${b.file}:${b.line}`;
