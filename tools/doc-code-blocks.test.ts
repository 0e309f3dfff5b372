/**
 * Every code block of the documentation is checked (issue 24 item 6): `ts` blocks typecheck against
 * the workspace's sources, `sh` commands name what exists (scripts, CLI commands, API routes),
 * `json` parses, and nothing else claims to be code. See tools/doc-code-blocks.ts.
 */
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { checkShellCommand, codeBlocks, docFiles, ROOT, shellCommands, shellFacts, typecheckBlocks, where } from "./doc-code-blocks.js";

const blocks = docFiles().flatMap(codeBlocks);
const LANGS = new Set(["ts", "sh", "json", "text"]);

describe("documentation code blocks", () => {
  it("finds the blocks of README.md and of the guides", () => {
    expect(blocks.filter((b) => b.file === "README.md").length).toBeGreaterThan(0);
    expect(blocks.filter((b) => b.file.startsWith("docs/guide/") && b.lang === "ts").length).toBeGreaterThan(10);
  });

  it("every block says what it holds: ts, sh, json or text (text is not code)", () => {
    expect(blocks.filter((b) => !LANGS.has(b.lang)).map((b) => `${where(b)} \`\`\`${b.lang}`)).toEqual([]);
  });

  it("every ts block typechecks against the workspace's sources (and a wrong one is caught)", () => {
    // One program for all blocks (the workspace's sources are loaded once), with a block that must fail.
    const bad = { file: "docs/guide/bad.md", line: 1, lang: "ts", code: 'const n: number = "one";\nfk.noSuchService();' };
    const errors = typecheckBlocks([...blocks.filter((b) => b.lang === "ts"), bad]);
    const [caught, rest] = [errors.filter((e) => e.startsWith("docs/guide/bad.md:")), errors.filter((e) => !e.startsWith("docs/guide/bad.md:"))];
    expect(rest).toEqual([]);
    expect(caught).toEqual([expect.stringMatching(/^docs\/guide\/bad\.md:2: Type 'string' is not assignable/), expect.stringMatching(/^docs\/guide\/bad\.md:3: Property 'noSuchService' does not exist/)]);
  }, 300_000);

  it("every sh command is a script, a CLI command, an API route or a clone URL that exists", () => {
    const help = execFileSync(process.execPath, ["--import", "tsx", "--conditions=@forgekit/source", join(ROOT, "packages", "cli", "src", "bin.ts"), "--help"], { cwd: ROOT, encoding: "utf8" });
    const facts = shellFacts(help);
    const wrong = blocks.filter((b) => b.lang === "sh").flatMap((b) => shellCommands(b.code).flatMap((cmd) => {
      const problem = checkShellCommand(cmd, facts);
      return problem === undefined ? [] : [`${where(b)}: ${cmd}: ${problem}`];
    }));
    expect(wrong).toEqual([]);
    // The checks can fail: a route, a command and a script that do not exist.
    expect(checkShellCommand('curl -H "PRIVATE-TOKEN: $T" "$BASE/api/v4/no/such/route"', facts)).toMatch(/no operation GET/);
    expect(checkShellCommand("forgekit frobnicate --all", facts)).toMatch(/no command/);
    expect(checkShellCommand("npx -y pnpm@10.34.8 no-such-script", facts)).toMatch(/no root script/);
  }, 120_000);

  it("every json block parses", () => {
    for (const b of blocks.filter((x) => x.lang === "json")) expect(() => JSON.parse(b.code) as unknown, where(b)).not.toThrow();
  });
});
