import { rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { Duplex } from "node:stream";
import { describe, expect, it } from "vitest";
import { answerHook, guardHooksPath } from "./ref-guard.js";

/** One end of a pipe pair as the hook would see it: what the test writes goes to `answerHook`, what it answers is collected. */
function channel() {
  const written: Buffer[] = [];
  let finished!: () => void;
  const ended = new Promise<void>((resolve) => (finished = resolve));
  const duplex = new Duplex({
    read() {},
    write(chunk: Buffer, _encoding, callback) {
      written.push(chunk);
      callback();
    },
    final(callback) {
      finished();
      callback();
    },
  });
  return { duplex, answer: async () => (await ended, Buffer.concat(written).toString("utf8")) };
}

const A = "a".repeat(40);
const B = "b".repeat(40);
const ZERO = "0".repeat(40);

describe("pre-receive hook script", () => {
  it("is an executable pre-receive in a private folder, written again when something removed it", async () => {
    const directory = await guardHooksPath();
    const hook = join(directory, "pre-receive");
    expect(statSync(hook).mode & 0o111).not.toBe(0);
    expect(statSync(directory).mode & 0o077).toBe(0);
    rmSync(directory, { recursive: true, force: true });
    expect(await guardHooksPath()).toBe(directory);
    expect(statSync(hook).mode & 0o111).not.toBe(0);
  });
});

describe("answering the hook", () => {
  it("passes every update line to the decision and answers ok when it refuses nothing", async () => {
    const { duplex, answer } = channel();
    const seen: unknown[] = [];
    answerHook(duplex, async (updates) => (seen.push(...updates), []), () => undefined);
    duplex.push(`${A} ${B} refs/heads/main 0\n${ZERO} ${B} refs/tags/v1 1\n`);
    duplex.push("done\n");
    expect(await answer()).toBe("ok\n");
    expect(seen).toEqual([
      { oldId: A, newId: B, ref: "refs/heads/main", fastForward: false },
      { oldId: ZERO, newId: B, ref: "refs/tags/v1", fastForward: true },
    ]);
  });

  it("answers each refusal as a `GitLab: ` line; a failing decision refuses the push", async () => {
    const refused = channel();
    answerHook(refused.duplex, async () => ["No.", "Never."], () => undefined);
    refused.duplex.push("done\n");
    expect(await refused.answer()).toBe("GitLab: No.\nGitLab: Never.\n");
    const failing = channel();
    const errors: unknown[] = [];
    answerHook(failing.duplex, () => Promise.reject(new Error("store down")), (error) => errors.push(error));
    failing.duplex.push(`${A} ${B} refs/heads/main 1\ndone\n`);
    expect(await failing.answer()).toBe("GitLab: Failed to check the push. Please try again.\n");
    expect(errors).toHaveLength(1);
  });
});
