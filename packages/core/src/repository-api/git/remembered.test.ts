import { describe, expect, it } from "vitest";
import { remembered } from "./remembered.js";
import type { GitRepo } from "./repo.js";

const A = "a".repeat(40);
const B = "b".repeat(40);
let repos = 0;
/** A repository that only has a directory: remembered() never runs git itself. */
const repo = (): GitRepo => ({ directory: `/nowhere/${++repos}`, run: () => Promise.reject(new Error("unused")), must: () => Promise.reject(new Error("unused")) });

function counter<T>(answer: () => Promise<T>) {
  const calls = { n: 0 };
  return { calls, compute: () => { calls.n++; return answer(); } };
}

describe("remembered (answers about object ids)", () => {
  it("asks once for the same question about the same ids of the same repository", async () => {
    const r = repo();
    const { calls, compute } = counter(() => Promise.resolve("base"));
    expect(await remembered(r, "merge-base", [A, B], compute)).toBe("base");
    expect(await remembered(r, "merge-base", [A, B], compute)).toBe("base");
    expect(calls.n).toBe(1);
    await remembered(r, "merge-base", [B, A], compute);
    await remembered(r, "other", [A, B], compute);
    await remembered(repo(), "merge-base", [A, B], compute);
    expect(calls.n).toBe(4);
  });

  it("never keeps a question about a ref name (refs move)", async () => {
    const r = repo();
    const { calls, compute } = counter(() => Promise.resolve(1));
    await remembered(r, "q", ["main", B], compute);
    await remembered(r, "q", ["main", B], compute);
    expect(calls.n).toBe(2);
  });

  it("forgets a failure and an answer `keep` refuses", async () => {
    const r = repo();
    const failing = counter(() => Promise.reject(new Error("git timed out")));
    await expect(remembered(r, "q", [A], failing.compute)).rejects.toThrow("git timed out");
    await expect(remembered(r, "q", [A], failing.compute)).rejects.toThrow("git timed out");
    expect(failing.calls.n).toBe(2);
    const refused = counter(() => Promise.resolve({ answered: false }));
    await remembered(r, "p", [A], refused.compute, (a) => a.answered);
    await remembered(r, "p", [A], refused.compute, (a) => a.answered);
    expect(refused.calls.n).toBe(2);
  });

  it("keeps a bounded number of answers, dropping the least recently used", async () => {
    const r = repo();
    const first = counter(() => Promise.resolve("first"));
    await remembered(r, "q", [A], first.compute);
    for (let i = 0; i < 5000; i++) await remembered(r, "fill", [i.toString(16).padStart(40, "0")], () => Promise.resolve(i));
    await remembered(r, "q", [A], first.compute);
    expect(first.calls.n).toBe(2);
  });
});
