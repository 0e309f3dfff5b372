/** Review comments as diff-note positions (reference `Representation::DiffNote#diff_position`). */
import { describe, expect, it } from "vitest";
import { reviewPosition } from "./review-notes.js";
import type { ExtForgeReviewComment } from "./types.js";

const comment = (extra: Partial<ExtForgeReviewComment>): ExtForgeReviewComment => ({
  id: 1,
  pullNumber: 3,
  body: "b",
  author: null,
  path: "src/a.ts",
  line: 7,
  originalLine: 5,
  side: "RIGHT",
  commitId: "c".repeat(40),
  originalCommitId: "d".repeat(40),
  diffHunk: "@@ -1 +1 @@",
  inReplyTo: null,
  createdAt: new Date(0),
  updatedAt: new Date(0),
  ...extra,
});
const refs = { baseSha: "a".repeat(40), startSha: "b".repeat(40), headSha: "e".repeat(40) };

describe("reviewPosition", () => {
  it("RIGHT: the line is new_line; LEFT: old_line; both paths are the comment's path; the merge request's diff refs", () => {
    expect(reviewPosition(comment({}), refs)).toEqual({ ...refs, positionType: "text", oldPath: "src/a.ts", newPath: "src/a.ts", oldLine: null, newLine: 7, lineRange: null });
    expect(reviewPosition(comment({ side: "LEFT" }), refs)).toMatchObject({ oldLine: 7, newLine: null });
  });
  it("an outdated comment (no line) keeps its original line; without a known head the comment's commit is the head", () => {
    expect(reviewPosition(comment({ line: null }), refs)).toMatchObject({ newLine: 5 });
    expect(reviewPosition(comment({}), { ...refs, headSha: null })).toMatchObject({ headSha: "c".repeat(40) });
  });
});
