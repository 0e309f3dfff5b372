/** Types of floors.js (plain-JS ESLint rules and the import graph they read, loaded by eslint.config.js without a build). */
import type { ESLint, Rule } from "eslint";

export declare const FLOORS: readonly ["domain", "ports", "kits", "capabilities", "host"];
export type Floor = (typeof FLOORS)[number];
export declare const DOMAIN_FILES: readonly string[];
export declare const KIT_FOLDERS: readonly string[];
export declare const KIT_FILES: readonly string[];
export declare const HOST_FOLDERS: readonly string[];
export declare const CONFIG_FILE: string;
/** The floor of a file by its "/"-separated path inside packages/core/src. */
export declare function floorOf(path: string): Floor;
export declare function isSource(name: string): boolean;
export declare function resolveImport(from: string, specifier: string, files: ReadonlySet<string>): string | undefined;
export declare function importsOf(text: string): string[];
export declare function sourceFiles(src: string): string[];
/** file → the files it imports (absolute paths); `override` replaces files' text. */
export declare function importGraph(src: string, override?: ReadonlyMap<string, string>): Map<string, string[]>;
export declare function circles(edges: ReadonlyMap<string, readonly string[]>): string[][];
export declare const floorsRule: Rule.RuleModule;
export declare const noImportCycleRule: Rule.RuleModule;
declare const plugin: ESLint.Plugin;
export default plugin;
