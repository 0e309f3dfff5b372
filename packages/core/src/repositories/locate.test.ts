import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parseConfig } from "../config.js";
import { memoryStore } from "../memory-store/index.js";
import { locateRepository } from "./locate.js";

const dir = mkdtempSync(join(tmpdir(), "forgekit-locate-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("locateRepository", () => {
  it("finds a snippet's repository on the default shard first, then on the others; null when none has it", async () => {
    const shards = { a: { path: join(dir, "a") }, b: { path: join(dir, "b") }, bare: {} };
    const config = parseConfig({ baseUrl: "https://x.example", store: memoryStore(), repositoryStorages: shards, defaultRepositoryStorage: "b" })._unsafeUnwrap();
    const snippet = { kind: "snippet", id: 4 } as const;
    expect((await locateRepository(config, snippet))._unsafeUnwrap()).toBeNull();
    await config.repositoryStorage.create("a", snippet);
    // Made on "a" while it was the default; the default is now "b".
    expect((await locateRepository(config, snippet))._unsafeUnwrap()).toBe("a");
    await config.repositoryStorage.replicate(snippet, "a", "b");
    expect((await locateRepository(config, snippet))._unsafeUnwrap()).toBe("b");
  });

  it("a storage failure is internal", async () => {
    const failing = { create: async () => ({}), exists: () => Promise.reject(new Error("EIO")), delete: async () => false, replicate: async () => undefined, checksum: async () => null, size: async () => null };
    const config = parseConfig({ baseUrl: "https://x.example", store: memoryStore(), repositoryStorage: failing })._unsafeUnwrap();
    expect((await locateRepository(config, { kind: "group-wiki", id: 1 }))._unsafeUnwrapErr().code).toBe("internal");
  });
});
