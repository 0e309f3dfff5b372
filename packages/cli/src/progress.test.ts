import { describe, expect, it } from "vitest";
import type { CliIo } from "./io.js";
import { fractionOf, progressBar, statusLine } from "./progress.js";

function recordingIo(isTTY: boolean) {
  const out: string[] = [];
  const err: string[] = [];
  const io = { stdout: (s: string) => void out.push(s), stderr: (s: string) => void err.push(s), isTTY } as unknown as CliIo;
  return { io, out, err };
}

describe("progressBar", () => {
  it("fills in proportion and shows the percentage", () => {
    expect(progressBar(0, 8)).toBe("[........]   0%");
    expect(progressBar(0.5, 8)).toBe("[####....]  50%");
    expect(progressBar(1, 8)).toBe("[########] 100%");
    expect(progressBar(7, 4)).toBe("[####] 100%");
  });

  it("fractionOf treats an empty total as complete and an unknown one as not started", () => {
    expect(fractionOf(2, 4)).toBe(0.5);
    expect(fractionOf(0, 0)).toBe(1);
    expect(fractionOf(3, null)).toBe(0);
  });
});

describe("statusLine", () => {
  it("redraws one line in place on a terminal and ends it with a newline", () => {
    const { io, out } = recordingIo(true);
    const line = statusLine(io);
    line.update("moved 1/2", 0.5);
    line.update("moved 1/2", 0.5);
    line.update("moved 2/2", 1);
    line.end();
    expect(out).toEqual([`\r${progressBar(0.5)} moved 1/2\u001b[K`, `\r${progressBar(1)} moved 2/2\u001b[K`, "\n"]);
  });

  it("prints plain lines at most once per interval elsewhere, and the last one at the end", () => {
    const { io, out } = recordingIo(false);
    let t = 0;
    const line = statusLine(io, { intervalMs: 1000, now: () => t });
    line.update("a");
    t = 10;
    line.update("b");
    t = 20;
    line.update("c");
    t = 1500;
    line.update("d");
    t = 1600;
    line.update("e");
    line.end();
    expect(out).toEqual(["a\n", "d\n", "e\n"]);
  });

  it("writes JSON lines to stderr with --json", () => {
    const { io, out, err } = recordingIo(true);
    const line = statusLine(io, { json: true });
    line.update("moved 1/2", 0.5, { done: 1, total: 2 });
    line.end();
    expect(out).toEqual([]);
    expect(err.map((l) => JSON.parse(l) as unknown)).toEqual([{ event: "progress", done: 1, total: 2, status: "moved 1/2" }]);
  });
});
