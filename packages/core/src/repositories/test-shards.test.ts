import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";

describe("createTestForgekit's shards", () => {
  it("are temporary folders per instance; folders of ended test processes are removed", async () => {
    const ended = spawnSync(process.execPath, ["-e", ""]).pid;
    const stale = join(tmpdir(), `forgekit-test-repositories-${ended}-stale`);
    mkdirSync(join(stale, "instance-x", "default"), { recursive: true });
    vi.resetModules();
    const { testRepositoryStorages } = await import("../testing/fixtures.js");
    const first = testRepositoryStorages(["default", "other"]);
    const second = testRepositoryStorages({ default: {}, fixed: { path: "/srv/kept" } });
    expect(existsSync(stale)).toBe(false);
    expect(first["default"]?.path.startsWith(join(tmpdir(), `forgekit-test-repositories-${process.pid}-`))).toBe(true);
    expect(first["other"]?.path).toBe(join(first["default"]?.path ?? "", "..", "other"));
    expect(second["default"]?.path).not.toBe(first["default"]?.path);
    expect(second["fixed"]?.path).toBe("/srv/kept");
  });
});
