/** Diff positions: which lines of a patch a position names, and the reference's refusal message. */
import { describe, expect, it } from "vitest";
import type { DiffPosition } from "../activity/types.js";
import type { FileDiff } from "../repository-api/git/diffs.js";
import { diffLines, lineCode, lineCodeIn, positionErrors } from "./position.js";

const PATCH = "@@ -1,3 +1,4 @@\n one\n-two\n+TWO\n three\n+four\n";
const FILE: FileDiff = { oldPath: "README.md", newPath: "README.md", aMode: "100644", bMode: "100644", newFile: false, renamedFile: false, deletedFile: false, diff: PATCH, tooLarge: false };
const at = (oldLine: number | null, newLine: number | null): DiffPosition => ({ baseSha: "a", startSha: "b", headSha: "c", positionType: "text", oldPath: "README.md", newPath: "README.md", oldLine, newLine, lineRange: null });

describe("diffLines", () => {
  it("numbers context lines on both sides, removed lines on the old side, added lines on the new side", () => {
    expect(diffLines(PATCH).map((l) => [l.oldLine, l.newLine])).toEqual([
      [1, 1],
      [2, null],
      [null, 2],
      [3, 3],
      [null, 4],
    ]);
  });
  it("skips the no-newline marker and starts each hunk at its header's numbers", () => {
    expect(diffLines("@@ -10,1 +20,1 @@\n-a\n\\ No newline at end of file\n+b\n").map((l) => [l.oldLine, l.newLine])).toEqual([
      [10, null],
      [null, 20],
    ]);
  });
});

describe("lineCodeIn", () => {
  it("an added line by new_line alone, a removed line by old_line alone, a context line by both (reference line codes)", () => {
    expect(lineCodeIn([FILE], at(null, 2))).toBe(lineCode("README.md", 2, 3));
    expect(lineCodeIn([FILE], at(2, null))).toBe(lineCode("README.md", 2, 2));
    expect(lineCodeIn([FILE], at(3, 3))).toBe(lineCode("README.md", 3, 3));
  });
  it("no line code for a context line named by one side, a line outside the hunks, or a file not in the diff", () => {
    expect(lineCodeIn([FILE], at(null, 3))).toBeNull();
    expect(lineCodeIn([FILE], at(null, 40))).toBeNull();
    expect(lineCodeIn([FILE], { ...at(null, 2), newPath: "OTHER.md", oldPath: "OTHER.md" })).toBeNull();
    expect(lineCodeIn([], at(null, 2))).toBeNull();
  });
});

describe("positionErrors", () => {
  it("is the reference's `Note {…}` text: line_code when no line, position when incomplete", () => {
    expect(positionErrors(at(null, 2), "x")).toBeNull();
    expect(positionErrors(at(null, 9), null)).toBe(`Note {:line_code=>["can't be blank", "must be a valid line code"]}`);
    expect(positionErrors(at(null, null), null)).toBe(`Note {:line_code=>["can't be blank", "must be a valid line code"], :position=>["is incomplete"]}`);
  });
});
