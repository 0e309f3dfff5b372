/** sqlite(path) in a fresh directory: the embedding snippet (README, docs/guide/embedding.md) must work where `./data` does not exist. */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { kyselyStore } from "../store.js";
import { sqlite } from "./sqlite.js";

const dir = mkdtempSync(join(tmpdir(), "forgekit-sqlite-folders-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("sqlite(path)", () => {
  it("creates the database file's missing folders", async () => {
    const path = join(dir, "data", "nested", "forgekit.db");
    const store = kyselyStore(sqlite(path));
    await store.migrate();
    await store.close();
    expect(existsSync(path)).toBe(true);
  });

  it("creates nothing with fileMustExist (read-only tools), and says the file is missing", async () => {
    const path = join(dir, "absent", "forgekit.db");
    const store = kyselyStore(sqlite(path, { fileMustExist: true }));
    await expect(store.migrate()).rejects.toThrow();
    await store.close();
    expect(existsSync(join(dir, "absent"))).toBe(false);
  });
});
