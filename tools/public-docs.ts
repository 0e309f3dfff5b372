/**
 * Which exports of the published entry points carry TSDoc (issue 13 "TSDoc on every public
 * export"). Every workspace package's exports map names its entries through the `@forgekit/source`
 * condition; the TypeScript compiler API walks each entry's exported symbols (through re-exports
 * and `export *`) and looks for a `/** … *\/` comment with text on one of their declarations.
 *
 * `npx tsx tools/public-docs.ts` prints `N of M exports documented`, lists the undocumented ones,
 * and reports how many members of the exported interfaces are documented.
 */
import { join } from "node:path";
import ts from "typescript";
import { root, workspacePackages } from "./workspace-packages.mjs";

const SOURCE_CONDITION = "@forgekit/source";

/** One exported name of one public entry. */
export interface PublicExport {
  /** The import specifier of the entry, e.g. `@forgekit/core` or `@forgekit/core/testing`. */
  entry: string;
  /** The exported name. */
  name: string;
  /** Whether a declaration of the symbol behind the name carries a TSDoc comment with text. */
  documented: boolean;
  /** Where the symbol is declared, relative to the workspace root (`path:line`). */
  declaredAt: string;
}

/** The public entries of every publishable workspace package: import specifier → absolute source path. */
export function publicEntries(): Map<string, string> {
  const result = new Map<string, string>();
  for (const pkg of workspacePackages()) {
    const exportsMap = (pkg.manifest["exports"] ?? {}) as Record<string, unknown>;
    for (const [subpath, target] of Object.entries(exportsMap)) {
      if (typeof target !== "object" || target === null) continue;
      const source = (target as Record<string, unknown>)[SOURCE_CONDITION];
      if (typeof source !== "string") continue;
      const specifier = subpath === "." ? pkg.name : `${pkg.name}/${subpath.replace(/^\.\//, "")}`;
      result.set(specifier, join(pkg.dir, source));
    }
  }
  return result;
}

function compilerOptions(): ts.CompilerOptions {
  const configPath = join(root, "tsconfig.json");
  const read = ts.readConfigFile(configPath, (path) => ts.sys.readFile(path));
  const parsed = ts.parseJsonConfigFileContent(read.config, ts.sys, root);
  return { ...parsed.options, noEmit: true };
}

function hasDocText(declaration: ts.Declaration): boolean {
  // A variable's comment sits on its statement; `getJSDocCommentsAndTags` looks there too.
  const text = declaration.getSourceFile().text;
  for (const doc of ts.getJSDocCommentsAndTags(declaration)) {
    if (!ts.isJSDoc(doc)) continue;
    // A file's header comment, separated from the first declaration by a blank line, is not its doc.
    if (/\n[ \t]*\r?\n/.test(text.slice(doc.end, declaration.getStart()))) continue;
    const comment = typeof doc.comment === "string" ? doc.comment : (doc.comment ?? []).map((part) => part.text).join("");
    if (comment.trim() !== "") return true;
  }
  return false;
}

/** Every export of every public entry, with whether it is documented. */
export function publicExports(entries: Map<string, string> = publicEntries()): PublicExport[] {
  const program = ts.createProgram({ rootNames: [...entries.values()], options: compilerOptions() });
  const checker = program.getTypeChecker();
  const result: PublicExport[] = [];
  for (const [entry, path] of entries) {
    const file = program.getSourceFile(path);
    if (file === undefined) throw new Error(`${entry}: ${path} is not in the program`);
    const moduleSymbol = checker.getSymbolAtLocation(file);
    if (moduleSymbol === undefined) throw new Error(`${entry}: ${path} is not a module`);
    for (const exported of checker.getExportsOfModule(moduleSymbol)) {
      const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
      const declarations = symbol.declarations ?? [];
      const first = declarations[0];
      const where = first === undefined ? "" : first.getSourceFile();
      const declaredAt =
        first === undefined || where === ""
          ? "?"
          : `${where.fileName.slice(root.length + 1)}:${where.getLineAndCharacterOfPosition(first.getStart()).line + 1}`;
      result.push({ entry, name: exported.name, documented: declarations.some(hasDocText), declaredAt });
    }
  }
  return result.sort((a, b) => a.entry.localeCompare(b.entry) || a.name.localeCompare(b.name));
}

/**
 * The members of the interfaces exported by the host-facing entries (not `/testing`, not
 * `/internal`), and which of them carry a doc comment: reported, not required (a record's `id` or
 * `createdAt` needs none).
 */
export function publicMembers(entries: Map<string, string> = publicEntries()): { name: string; documented: boolean }[] {
  const hostFacing = new Map([...entries].filter(([entry]) => !/\/(testing|internal)$/.test(entry)));
  const program = ts.createProgram({ rootNames: [...hostFacing.values()], options: compilerOptions() });
  const checker = program.getTypeChecker();
  const seen = new Set<ts.Node>();
  const result: { name: string; documented: boolean }[] = [];
  for (const path of hostFacing.values()) {
    const file = program.getSourceFile(path);
    const moduleSymbol = file === undefined ? undefined : checker.getSymbolAtLocation(file);
    if (moduleSymbol === undefined) continue;
    for (const exported of checker.getExportsOfModule(moduleSymbol)) {
      const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
      for (const declaration of symbol.declarations ?? []) {
        if (!ts.isInterfaceDeclaration(declaration) || seen.has(declaration)) continue;
        seen.add(declaration);
        for (const member of declaration.members) {
          if (member.name === undefined) continue;
          result.push({ name: `${declaration.name.text}.${member.name.getText()}`, documented: hasDocText(member) });
        }
      }
    }
  }
  return result;
}

if (process.argv[1] !== undefined && /public-docs\.ts$/.test(process.argv[1])) {
  const all = publicExports();
  const missing = all.filter((e) => !e.documented);
  for (const e of missing) console.log(`undocumented: ${e.entry} ${e.name} (${e.declaredAt})`);
  console.log(`${all.length - missing.length} of ${all.length} exports documented`);
  const members = publicMembers();
  console.log(`members of exported interfaces: ${members.filter((m) => m.documented).length} of ${members.length} documented`);
}
