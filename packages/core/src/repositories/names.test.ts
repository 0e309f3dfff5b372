import { describe, expect, it } from "vitest";
import { hashedRepositoryPath } from "./hashed-path.js";
import { isBranchName, isRepositoryFilePath } from "./names.js";

describe("hashedRepositoryPath", () => {
  it("is the reference's layout per kind, from the id alone", () => {
    // sha256("1") = 6b86b273…
    const hash = "6b86b273ff34fce19d6b804eff5a3f5747ada4eaa22f1d49c01e52ddb7875b4b";
    expect(hashedRepositoryPath({ kind: "project", id: 1 })).toBe(`@hashed/6b/86/${hash}.git`);
    expect(hashedRepositoryPath({ kind: "group-wiki", id: 1 })).toBe(`@groups/6b/86/${hash}.wiki.git`);
    expect(hashedRepositoryPath({ kind: "snippet", id: 1 })).toBe(`@snippets/6b/86/${hash}.git`);
  });

  it("refuses anything but a positive integer id: no value can reach outside the shard", () => {
    for (const id of [0, -1, 1.5, Number.NaN, Number.MAX_SAFE_INTEGER + 1, "../../etc" as unknown as number, "1" as unknown as number]) {
      expect(() => hashedRepositoryPath({ kind: "project", id })).toThrow(TypeError);
    }
    expect(() => hashedRepositoryPath({ kind: "../x" as "project", id: 1 })).toThrow(TypeError);
  });
});

describe("names", () => {
  it("branch names follow git's rules", () => {
    for (const ok of ["main", "feature/x", "release-1.0", "ü"]) expect(isBranchName(ok)).toBe(true);
    for (const bad of ["", "@", "-x", "a..b", "a b", "a~1", "a^", "a:b", "a?", "a*", "a[", "a\\b", "/a", "a/", "a//b", "a.", ".a", "a/.b", "a.lock", "a@{1}", "a\nb"]) {
      expect(isBranchName(bad)).toBe(false);
    }
  });

  it("file paths are relative and never name . .. or .git", () => {
    for (const ok of ["a.txt", "dir/a b.md", "ü/x", "..a", "a.."]) expect(isRepositoryFilePath(ok)).toBe(true);
    for (const bad of ["", "/a", "a/", "a//b", ".", "..", "../a", "a/../b", ".git", "x/.GIT/config", "a\0b", "a\nb"]) expect(isRepositoryFilePath(bad)).toBe(false);
  });
});
