import { describe, expect, it } from "vitest";
import { compositeStatus, transition } from "./state-machine.js";

describe("commit status transitions (reference apply_job_state!)", () => {
  it("a new status reaches every posted state", () => {
    for (const state of ["pending", "running", "success", "failed", "canceled", "skipped"] as const) expect(transition("created", state)).toEqual({ state });
  });

  it("pending → running → success", () => {
    expect(transition("pending", "running")).toEqual({ state: "running" });
    expect(transition("running", "success")).toEqual({ state: "success" });
  });

  it("refuses running twice with the reference's message", () => {
    expect(transition("running", "running")).toEqual({ refused: 'Cannot transition status via :run from :running (Reason(s): Status cannot transition via "run")' });
  });

  it("refuses pending on a pending or running status, and skipped on a running one", () => {
    expect(transition("pending", "pending")).toEqual({ refused: 'Cannot transition status via :enqueue from :pending (Reason(s): Status cannot transition via "enqueue")' });
    expect(transition("running", "pending")).toEqual({ refused: 'Cannot transition status via :enqueue from :running (Reason(s): Status cannot transition via "enqueue")' });
    expect(transition("running", "skipped")).toEqual({ refused: 'Cannot transition status via :skip from :running (Reason(s): Status cannot transition via "skip")' });
  });
});

describe("pipeline composite status (reference Composite)", () => {
  it("success only when every status succeeded or was skipped", () => {
    expect(compositeStatus(["success", "skipped"])).toBe("success");
    expect(compositeStatus(["success", "running"])).toBe("running");
    expect(compositeStatus(["success", "pending"])).toBe("running");
    expect(compositeStatus(["pending", "created"])).toBe("pending");
    expect(compositeStatus(["success", "failed"])).toBe("failed");
    expect(compositeStatus(["success", "canceled"])).toBe("canceled");
    expect(compositeStatus(["failed", "running"])).toBe("running");
    expect(compositeStatus(["skipped"])).toBe("skipped");
  });
});
