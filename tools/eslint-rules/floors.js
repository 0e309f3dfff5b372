/**
 * The floors of `@forgekit/core` and two local ESLint rules that keep them (docs/architecture.md):
 *
 * - `forgekit/floors`: a relative import in packages/core/src never goes from a lower floor to a
 *   higher one (domain < ports < kits < capabilities < host). The one crossing allowed is a type-only
 *   import of `config.ts` (the parsed configuration's type; its defaults need the capabilities).
 * - `forgekit/no-import-cycle`: no file of any packages/<name>/src takes part in an import circle
 *   (relative imports, `import type` and re-exports included — the reading of
 *   `import-circles.mjs --types`).
 *
 * The import graph is read from the files on disk once per ESLint process (the linted file's own
 * text replaces its copy on disk), so an editor's ESLint server sees other files' changes after a
 * restart; `pnpm lint` always reads them fresh. tools/import-graph.mjs draws the same graph.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";

/** The floors, lowest first. */
export const FLOORS = ["domain", "ports", "kits", "capabilities", "host"];

/**
 * Files of the domain floor outside `domain/`: value, entity and error types that import nothing of
 * forgekit but the domain floor. Entity files stay in their capability's folder (the capability owns
 * its records) but sit on the domain floor, so that ports can read them.
 */
export const DOMAIN_FILES = [
  "errors.ts",
  "ids.ts",
  "storable.ts",
  "accounts/types.ts",
  "accounts/project-features.ts",
  "accounts/merge-checks.ts",
  "activity/types.ts",
  "auth/identity.ts",
  "events/types.ts",
  "git-http/types.ts",
  "iterations/types.ts",
  "notifications/types.ts",
  "protected-refs/types.ts",
  "releases/types.ts",
  "webhooks/types.ts",
];

/** Folders of generic kits every capability may use: runtime defaults, HTTP and the route kit, permissions and tiers. */
export const KIT_FOLDERS = ["runtime", "http", "access"];
/** Generic kits that still live in a capability's folder. */
export const KIT_FILES = ["accounts/service-kit.ts", "oauth/key-envelope.ts"];
/** What puts the instance together, and what ships around it: the in-memory store, test kits, the Node layer, OpenAPI. */
export const HOST_FOLDERS = ["memory-store", "testing", "node", "openapi"];

/** The crossing allowed upward: a type-only import of the parsed configuration. */
export const CONFIG_FILE = "config.ts";

/**
 * The floor of a file, by its path inside packages/core/src ("/"-separated): one of {@link FLOORS}.
 * Top-level files are the host floor (config, composition root, entry points) unless listed in
 * {@link DOMAIN_FILES}; a capability's `test-kit.ts` belongs with the test kits (host floor).
 */
export function floorOf(path) {
  const parts = path.split("/");
  if (parts[0] === "domain" || DOMAIN_FILES.includes(path)) return "domain";
  if (parts[0] === "ports") return "ports";
  if (KIT_FOLDERS.includes(parts[0]) || KIT_FILES.includes(path)) return "kits";
  if (parts.length === 1 || HOST_FOLDERS.includes(parts[0]) || parts.at(-1) === "test-kit.ts") return "host";
  return "capabilities";
}

const SPECIFIER = /(?:import|export)\s+(?:type\s+)?(?:[^'"]*?\sfrom\s+)?["'](\.{1,2}\/[^"']+)["']/g;

/** True for the files the rules look at: TypeScript sources, not tests or declarations. */
export const isSource = (name) => /\.(ts|mts|cts)$/.test(name) && !/\.(test|spec)\.ts$/.test(name) && !name.endsWith(".d.ts");

/** The file a relative specifier of `from` names, if it is one of `files`. */
export function resolveImport(from, specifier, files) {
  const base = resolve(dirname(from), specifier).replace(/\.(js|mjs|cjs)$/, "");
  return [base + ".ts", base + ".mts", base + ".cts", join(base, "index.ts")].find((c) => files.has(c));
}

/** The relative specifiers of a file's imports and re-exports (`import type` included). */
export function importsOf(text) {
  return [...text.matchAll(SPECIFIER)].map((m) => m[1]);
}

/** Every source file under `src` (absolute paths). */
export function sourceFiles(src) {
  const out = [];
  const walk = (d) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) {
        if (!["node_modules", "dist"].includes(e.name)) walk(p);
      } else if (isSource(e.name)) out.push(p);
    }
  };
  walk(src);
  return out.sort();
}

/** The import graph of one src folder: file → the files it imports (absolute paths). */
export function importGraph(src, override = new Map()) {
  const files = sourceFiles(src);
  const set = new Set(files);
  const edges = new Map();
  for (const f of files) {
    const text = override.get(f) ?? readFileSync(f, "utf8");
    edges.set(f, [...new Set(importsOf(text).map((specifier) => resolveImport(f, specifier, set)).filter((t) => t !== undefined))]);
  }
  return edges;
}

/** The circles (strongly connected components of more than one file) of a graph. */
export function circles(edges) {
  let index = 0;
  const idx = new Map(), low = new Map(), onStack = new Set(), stack = [], out = [];
  const strong = (v) => {
    idx.set(v, index); low.set(v, index); index++; stack.push(v); onStack.add(v);
    for (const w of edges.get(v) ?? []) {
      if (!idx.has(w)) { strong(w); low.set(v, Math.min(low.get(v), low.get(w))); }
      else if (onStack.has(w)) low.set(v, Math.min(low.get(v), idx.get(w)));
    }
    if (low.get(v) === idx.get(v)) {
      const c = [];
      let w;
      do { w = stack.pop(); onStack.delete(w); c.push(w); } while (w !== v);
      if (c.length > 1) out.push(c.sort());
    }
  };
  for (const v of edges.keys()) if (!idx.has(v)) strong(v);
  return out;
}

/** The packages/<name>/src folder a file is in, or undefined. */
function srcOf(file) {
  const m = /^(.*[\\/]packages[\\/][^\\/]+[\\/]src)[\\/]/.exec(file);
  return m?.[1];
}

const graphs = new Map();
function graphFor(src) {
  if (!graphs.has(src)) graphs.set(src, importGraph(src));
  return graphs.get(src);
}

/** Reports on the import statements of `node` (an import or export declaration with a source). */
function relativeSource(node) {
  const value = node.source?.value;
  return typeof value === "string" && value.startsWith(".") ? value : undefined;
}

/** @type {import("eslint").Rule.RuleModule} */
export const floorsRule = {
  meta: {
    type: "problem",
    docs: { description: "Imports in @forgekit/core never go from a lower floor to a higher one (docs/architecture.md)" },
    messages: {
      upward: "{{from}} is on the {{fromFloor}} floor and may not import {{to}} on the {{toFloor}} floor (docs/architecture.md#floors-of-core).",
      configValue: "Below the host floor, config.ts may be imported for its types only (`import type`).",
    },
    schema: [],
  },
  create(context) {
    const file = context.filename;
    const src = srcOf(file);
    if (src === undefined || !/[\\/]packages[\\/]core[\\/]src$/.test(src) || !isSource(file)) return {};
    const rel = (p) => relative(src, p).split(sep).join("/");
    const files = new Set(graphFor(src).keys());
    files.add(file);
    const from = rel(file);
    const fromFloor = floorOf(from);
    const check = (node) => {
      const specifier = relativeSource(node);
      if (specifier === undefined) return;
      const target = resolveImport(file, specifier, files);
      if (target === undefined) return;
      const to = rel(target);
      const toFloor = floorOf(to);
      if (FLOORS.indexOf(toFloor) <= FLOORS.indexOf(fromFloor)) return;
      if (to === CONFIG_FILE && fromFloor !== "domain" && fromFloor !== "ports") {
        const typeOnly = node.importKind === "type" || node.exportKind === "type" || (node.specifiers?.length > 0 && node.specifiers.every((s) => s.importKind === "type" || s.exportKind === "type"));
        if (!typeOnly) context.report({ node, messageId: "configValue" });
        return;
      }
      context.report({ node, messageId: "upward", data: { from, fromFloor, to, toFloor } });
    };
    return { ImportDeclaration: check, ExportNamedDeclaration: check, ExportAllDeclaration: check };
  },
};

/** @type {import("eslint").Rule.RuleModule} */
export const noImportCycleRule = {
  meta: {
    type: "problem",
    docs: { description: "No import circles among the sources of a package (import type and re-exports included)" },
    messages: { cycle: "This import closes an import circle of {{size}} files: {{files}}." },
    schema: [],
  },
  create(context) {
    const file = context.filename;
    const src = srcOf(file);
    if (src === undefined || !isSource(file) || !existsSync(src) || !statSync(src).isDirectory()) return {};
    return {
      Program() {
        const base = graphFor(src);
        const edges = new Map(base);
        const set = new Set(edges.keys());
        set.add(file);
        edges.set(file, [...new Set(importsOf(context.sourceCode.text).map((specifier) => resolveImport(file, specifier, set)).filter((t) => t !== undefined))]);
        const mine = circles(edges).find((c) => c.includes(file));
        if (mine === undefined) return;
        const inCircle = new Set(mine);
        const names = mine.map((f) => relative(src, f).split(sep).join("/")).join(", ");
        for (const node of context.sourceCode.ast.body) {
          const specifier = relativeSource(node);
          if (specifier === undefined) continue;
          const target = resolveImport(file, specifier, set);
          if (target !== undefined && inCircle.has(target)) context.report({ node, messageId: "cycle", data: { size: String(mine.length), files: names } });
        }
      },
    };
  },
};

export default { rules: { floors: floorsRule, "no-import-cycle": noImportCycleRule } };
