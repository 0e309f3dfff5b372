import { describe, expect, it } from "vitest";
import { closingReferences } from "./pattern.js";

const BASE = "https://forge.example.com";
const refs = (text: string) => closingReferences(text, BASE);

describe("the reference's default issue closing pattern", () => {
  it("closes, fixes, resolves and implements, in every form, with an optional colon", () => {
    for (const word of ["Close", "Closes", "Closed", "Closing", "close", "fix", "Fixes", "fixed", "Fixing", "Resolve", "resolves", "Resolved", "resolving", "Implement", "implements", "Implemented", "implementing"]) {
      expect(refs(`${word} #7`)).toEqual([{ path: null, iid: 7 }]);
    }
    expect(refs("Fixes: #3")).toEqual([{ path: null, iid: 3 }]);
  });

  it("a list joined by commas and `and`, optionally after `issue`/`issues`; a mention without a closing word closes nothing", () => {
    expect(refs("Awesome commit message (Fix #20, Fixes #21 and Closes group/otherproject#22). This commit is also related to #17 and fixes #18, #19 and https://forge.example.com/group/otherproject/-/issues/23.")).toEqual([
      { path: null, iid: 20 },
      { path: null, iid: 21 },
      { path: "group/otherproject", iid: 22 },
      { path: null, iid: 18 },
      { path: null, iid: 19 },
      { path: "group/otherproject", iid: 23 },
    ]);
    expect(refs("closes issues #1, #2 and #3")).toEqual([1, 2, 3].map((iid) => ({ path: null, iid })));
    expect(refs("related to #17; see #4")).toEqual([]);
  });

  it("words inside other words and links to other hosts do not count; repeats count once", () => {
    expect(refs("prefix #5")).toEqual([]);
    expect(refs("Closes https://other.example.com/g/p/-/issues/9")).toEqual([]);
    expect(refs("Closes #5. Fixes #5")).toEqual([{ path: null, iid: 5 }]);
  });
});
