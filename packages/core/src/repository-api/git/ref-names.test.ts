import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { isValidRefName } from "./ref-names.js";

/** git's own answer (`git check-ref-format <name>` exits 0 for a valid name). */
const gitSays = (refname: string) => spawnSync("git", ["check-ref-format", refname], { env: { ...process.env, GIT_CONFIG_NOSYSTEM: "1" } }).status === 0;

const EDGES = [
  "refs/heads/main", "refs/heads/feature/deep/x", "refs/heads/a..b", "refs/heads/.hidden", "refs/heads/a/.b", "refs/heads/x.lock", "refs/heads/x.lock/y",
  "refs/heads/x.locked", "refs/heads/a.", "refs/heads/a/", "refs/heads//a", "refs/heads/a//b", "refs/heads/a@{1}", "refs/heads/a@b", "refs/heads/@",
  "refs/heads/a b", "refs/heads/a~1", "refs/heads/a^", "refs/heads/a:b", "refs/heads/a?", "refs/heads/a*", "refs/heads/a[b", "refs/heads/a\\b",
  "refs/heads/a\tb", "refs/heads/a\x7fb", "refs/heads/ünï/文件", "refs/heads/a{b}", "refs/heads/-x", "refs/heads/a-", "refs/tags/v1.0.0", "@", "main", "/refs/heads/a",
];

/** A deterministic stream of names built from the characters the rules are about. */
function* generatedNames(count: number): Generator<string> {
  const alphabet = ["a", "b", ".", "/", "@", "{", "}", ".lock", "..", " ", "~", "^", ":", "?", "*", "[", "\\", "\x01", "\x7f", "é", "-", "_"];
  let seed = 20261128;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
  for (let i = 0; i < count; i++) {
    let name = "refs/heads/";
    const length = 1 + (next() % 6);
    for (let j = 0; j < length; j++) name += alphabet[next() % alphabet.length];
    yield name;
  }
}

describe("isValidRefName (git check-ref-format rules)", () => {
  it("agrees with git on the documented edge cases", () => {
    for (const name of EDGES) expect([name, isValidRefName(name)]).toEqual([name, gitSays(name)]);
  });

  it("agrees with git on 400 generated names", () => {
    for (const name of generatedNames(400)) expect([name, isValidRefName(name)]).toEqual([name, gitSays(name)]);
  });

  it("refuses NUL, which no command line can carry to git", () => {
    expect(isValidRefName("refs/heads/a\0b")).toBe(false);
  });
});
