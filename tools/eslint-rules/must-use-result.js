/**
 * Local ESLint rule `forgekit/must-use-result`: reports an expression statement whose value is a
 * neverthrow `Result` (`Ok` / `Err`) or `ResultAsync` and is thrown away. Every service returns such a
 * value (DESIGN §1); dropping it silently discards the error it may carry. `no-floating-promises`
 * already catches an unawaited `ResultAsync` (it is thenable); this rule also catches an awaited one
 * whose `Result` is then ignored, and synchronous `Result`s. Write `void expr` to discard on purpose.
 * Needs type information (parserOptions.project or projectService).
 */

/** Names of neverthrow's classes whose instances must be used. */
const RESULT_CLASSES = new Set(["Ok", "Err", "ResultAsync"]);

/** True when `symbol` is one of neverthrow's Result classes (declared in a file of the neverthrow package). */
function isNeverthrowResultSymbol(symbol) {
  if (symbol === undefined || !RESULT_CLASSES.has(symbol.getName())) return false;
  const declarations = symbol.getDeclarations() ?? [];
  return declarations.some((d) => /[\\/]neverthrow[\\/]/.test(d.getSourceFile().fileName));
}

/** True when the type, or any member of a union type, is a neverthrow Result. */
function isResultType(type) {
  if (type.isUnion()) return type.types.some(isResultType);
  return isNeverthrowResultSymbol(type.getSymbol() ?? type.aliasSymbol);
}

/** Expressions whose value is used (or explicitly discarded) even as a statement. */
const USING_EXPRESSIONS = new Set(["AssignmentExpression", "UnaryExpression", "YieldExpression"]);

/** @type {import("eslint").Rule.RuleModule} */
export const mustUseResult = {
  meta: {
    type: "problem",
    docs: { description: "Disallow unused neverthrow Result / ResultAsync values" },
    messages: {
      unused:
        "This {{kind}} is never used: handle it (match, map, isErr, await + check) or discard it explicitly with `void`.",
    },
    schema: [],
  },
  create(context) {
    const services = context.sourceCode.parserServices;
    if (services?.program == null || services.esTreeNodeToTSNodeMap === undefined) {
      throw new Error("forgekit/must-use-result needs type information (parserOptions.project or projectService)");
    }
    const checker = services.program.getTypeChecker();
    return {
      ExpressionStatement(node) {
        const expression = node.expression;
        if (USING_EXPRESSIONS.has(expression.type)) return;
        if (node.directive !== undefined) return;
        const tsNode = services.esTreeNodeToTSNodeMap.get(expression);
        const type = checker.getTypeAtLocation(tsNode);
        if (!isResultType(type)) return;
        const kind = checker.typeToString(type).startsWith("ResultAsync") ? "ResultAsync" : "Result";
        context.report({ node, messageId: "unused", data: { kind } });
      },
    };
  },
};

/** The plugin object for eslint.config.js: `plugins: { forgekit: plugin }`. */
export const plugin = {
  meta: { name: "forgekit-local" },
  rules: { "must-use-result": mustUseResult },
};

export default plugin;
