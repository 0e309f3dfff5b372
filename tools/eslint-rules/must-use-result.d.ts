/** Types of must-use-result.js (a plain-JS ESLint rule, loaded by eslint.config.js without a build). */
import type { ESLint, Rule } from "eslint";

/** The `forgekit/must-use-result` rule. */
export declare const mustUseResult: Rule.RuleModule;
/** The local plugin: `plugins: { forgekit: plugin }`. */
export declare const plugin: ESLint.Plugin;
export default plugin;
