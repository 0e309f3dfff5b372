import { join } from "node:path";
import { RuleTester } from "eslint";
import tseslint from "typescript-eslint";
import { describe, it } from "vitest";
import { mustUseResult } from "./must-use-result.js";

RuleTester.describe = describe;
RuleTester.it = it;
RuleTester.itOnly = it.only;

const fixtures = join(import.meta.dirname, "fixtures");
const filename = join(fixtures, "file.ts");
const tester = new RuleTester({
  languageOptions: {
    parser: tseslint.parser,
    // With CI=true typescript-eslint would infer a single run and read the fixture file from disk
    // instead of each case's code; the RuleTester needs the per-case program.
    parserOptions: { project: "./tsconfig.json", tsconfigRootDir: fixtures, disallowAutomaticSingleRunInference: true },
  },
});

const prelude = `import { ok, err, okAsync, errAsync, type Result } from "neverthrow";
declare const r: Result<number, string>;
declare const flag: boolean;
`;
const valid = (code: string) => ({ code: prelude + code, filename });
const invalid = (code: string, kind: "Result" | "ResultAsync") => ({
  code: prelude + code,
  filename,
  errors: [{ messageId: "unused" as const, data: { kind } }],
});

tester.run("must-use-result", mustUseResult, {
  valid: [
    valid("const a = ok(1); export { a };"),
    valid("void ok(1);"),
    valid("let b: Result<number, string>; b = err('x'); export { b };"),
    valid("r.isOk();"),
    valid("r.match((n) => n, () => 0);"),
    valid("const c = await okAsync(1); export { c };"),
    valid("class Ok { done = true } new Ok();"),
    valid("function f(): number { return 1; } f();"),
    valid("console.log(r);"),
  ],
  invalid: [
    invalid("ok(1);", "Result"),
    invalid("err('boom');", "Result"),
    invalid("r.map((n) => n + 1);", "Result"),
    invalid("flag ? ok(1) : err('e');", "Result"),
    invalid("okAsync(1);", "ResultAsync"),
    invalid("errAsync('e').mapErr((e) => e.length);", "ResultAsync"),
    invalid("await okAsync(1);", "Result"),
  ],
});
