import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseConfig } from "../config.js";
import { memoryStore } from "../memory-store/index.js";

const store = memoryStore();
const parse = (extra: Record<string, unknown>) => parseConfig({ baseUrl: "https://x.example", store, ...extra });
const issues = (extra: Record<string, unknown>) => parse(extra)._unsafeUnwrapErr().issues;

describe("repositoryStorages configuration", () => {
  it("takes the map form; the first shard is the default unless one is named", () => {
    const config = parse({ repositoryStorages: { default: { path: "/srv/a" }, secondary: { path: "/srv/b" } } })._unsafeUnwrap();
    expect(config.repositoryStorages).toEqual({ default: { path: "/srv/a" }, secondary: { path: "/srv/b" } });
    expect(config.defaultRepositoryStorage).toBe("default");
    expect(Object.isFrozen(config.repositoryStorages.default)).toBe(true);
    expect(parse({ repositoryStorages: { a: { path: "/srv/a" }, b: { path: "/srv/b" } }, defaultRepositoryStorage: "b" })._unsafeUnwrap().defaultRepositoryStorage).toBe("b");
  });

  it("still takes the array of names (shards without directories)", () => {
    const config = parse({ repositoryStorages: ["a", "b"] })._unsafeUnwrap();
    expect(config.repositoryStorages).toEqual({ a: {}, b: {} });
    expect(config.defaultRepositoryStorage).toBe("a");
  });

  it("rejects an unknown default shard with the configured names", () => {
    expect(issues({ repositoryStorages: { a: { path: "/srv/a" } }, defaultRepositoryStorage: "z" })).toEqual([
      { path: "defaultRepositoryStorage", message: 'must be one of the repositoryStorages (a), got "z"' },
    ]);
  });

  it("rejects duplicate names (case-insensitively) and two shards on one directory", () => {
    expect(issues({ repositoryStorages: ["a", "b", "a"] })).toEqual([{ path: "repositoryStorages.2", message: 'duplicate repository storage name "a" (already "a")' }]);
    expect(issues({ repositoryStorages: { main: { path: "/srv/x" }, Main: { path: "/srv/y" } } })).toEqual([
      { path: "repositoryStorages.Main", message: 'duplicate repository storage name "Main" (already "main")' },
    ]);
    expect(issues({ repositoryStorages: { a: { path: "/srv/x" }, b: { path: "/srv/../srv/x/" } } })).toEqual([
      { path: "repositoryStorages.b.path", message: 'is the directory of repository storage "a" too' },
    ]);
  });

  it("rejects bad names, empty maps, empty paths and unknown shard keys", () => {
    expect(issues({ repositoryStorages: {} })[0]).toMatchObject({ path: "repositoryStorages", message: "must name at least one storage" });
    expect(issues({ repositoryStorages: [] })[0]).toMatchObject({ path: "repositoryStorages" });
    expect(issues({ repositoryStorages: { "a/b": { path: "/x" } } })[0]).toMatchObject({ path: "repositoryStorages.a/b", message: "must be 1-64 characters of A-Z a-z 0-9 _ . -" });
    expect(issues({ repositoryStorages: ["12"] })[0]?.message).toBe("must not be only digits");
    expect(issues({ repositoryStorages: { a: { path: "" } } })[0]).toMatchObject({ path: "repositoryStorages.a.path", message: "must not be empty" });
    expect(issues({ repositoryStorages: { a: { dir: "/x" } } })[0]?.path).toBe("repositoryStorages.a");
    expect(issues({ repositoryStorages: "default" })[0]?.message).toBe("must be a map of storage name to { path } (or an array of names)");
  });

  it("builds the git CLI storage on the configured directories, or keeps the host's", async () => {
    const dir = mkdtempSync(join(tmpdir(), "forgekit-config-"));
    try {
      const config = parse({ repositoryStorages: { a: { path: join(dir, "a") }, bare: {} } })._unsafeUnwrap();
      await config.repositoryStorage.create("a", { kind: "project", id: 1 });
      expect(await config.repositoryStorage.exists("a", { kind: "project", id: 1 })).toBe(true);
      await expect(config.repositoryStorage.create("bare", { kind: "project", id: 1 })).rejects.toMatchObject({ reason: "no_path" });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    const own = { create: async () => undefined, exists: async () => false, delete: async () => false, replicate: async () => undefined, checksum: async () => null, size: async () => null };
    expect(parse({ repositoryStorage: own })._unsafeUnwrap().repositoryStorage).toBe(own);
    expect(issues({ repositoryStorage: {} })[0]?.path).toBe("repositoryStorage");
  });
});
