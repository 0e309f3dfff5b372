/**
 * SQLite start-up failures explained: a corrupt file, a missing folder, a folder instead of a file,
 * a read-only database, a file that must exist, a schema never migrated; and URL masking.
 */
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { sqlite } from "../dialects/sqlite.js";
import { fromUrl } from "../from-url.js";
import { kyselyStore } from "../store.js";
import { explainDatabaseError, maskDatabaseSecrets, problemOf, redactDatabaseUrl } from "./index.js";

const dir = mkdtempSync(join(tmpdir(), "forgekit-problems-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The error `store.migrate()` rejects with (the store is closed afterwards). */
async function migrateError(location: string, options: Parameters<typeof fromUrl>[1] = {}): Promise<Error> {
  const store = kyselyStore(fromUrl(location, options));
  try {
    await store.migrate();
  } catch (error) {
    return error as Error;
  } finally {
    await store.close().catch(() => undefined);
  }
  throw new Error(`migrate of ${location} succeeded`);
}

describe("SQLite problems", () => {
  it("a file of random bytes is 'not a database or corrupt', with a hint to move it aside and migrate", async () => {
    const path = join(dir, "random.db");
    writeFileSync(path, randomBytes(16_384));
    const error = await migrateError(path);
    // The store's own message carries the cause and the hint (for hosts that print only .message).
    expect(error.message).toMatch(/is not an SQLite database or is corrupt \(SQLITE_NOTADB/);
    expect(error.message).toContain("`forgekit migrate`");
    expect(problemOf(error)?.kind).toBe("not_a_database");
    const problem = explainDatabaseError(error, { location: path });
    expect(problem).toMatchObject({ kind: "not_a_database" });
    expect(problem?.cause).toContain(path);
  });

  it("a missing folder is created for a new database; where the file must exist, the folder is named with how to create it", async () => {
    const created = join(dir, "new-folder", "forgekit.db");
    const store = kyselyStore(fromUrl(created));
    await store.migrate();
    await store.close();
    expect(existsSync(created)).toBe(true);
    const path = join(dir, "no-such-folder", "forgekit.db");
    const mustExist = kyselyStore(sqlite(path, { fileMustExist: true }));
    const error = await mustExist.migrate().then<Error, Error>(
      () => new Error("migrated"),
      (e: unknown) => e as Error,
    );
    await mustExist.close().catch(() => undefined);
    expect(problemOf(error)?.kind).toBe("cannot_open");
    const problem = explainDatabaseError(error, { location: path });
    expect(problem?.cause).toContain(`the folder ${join(dir, "no-such-folder")} does not exist`);
    expect(problem?.hint).toContain(`mkdir -p ${join(dir, "no-such-folder")}`);
    expect(existsSync(join(dir, "no-such-folder"))).toBe(false);
  });

  it("a folder given as the database says so", async () => {
    const path = join(dir, "a-folder");
    mkdirSync(path);
    const problem = explainDatabaseError(await migrateError(path), { location: path });
    expect(problem).toMatchObject({ kind: "cannot_open" });
    expect(problem?.cause).toContain("it is a folder, not a file");
  });

  it("a folder that cannot be created because a file is in the way", () => {
    const file = join(dir, "plain-file");
    writeFileSync(file, "x");
    const path = join(file, "sub", "forgekit.db");
    let thrown: unknown;
    try {
      mkdirSync(join(file, "sub"), { recursive: true });
    } catch (error) {
      thrown = error;
    }
    const problem = explainDatabaseError(thrown, { location: path });
    expect(problem?.kind).toBe("cannot_open");
    expect(problem?.cause).toContain(`${file} is a file, not a folder`);
  });

  it("a read-only database is 'read-only', with a hint about write access", async () => {
    const path = join(dir, "read-only.db");
    new Database(path).close();
    const handle = new Database(path, { readonly: true });
    const store = kyselyStore(sqlite(handle));
    const error = await store.migrate().then(
      () => undefined,
      (e: unknown) => e,
    );
    await store.close();
    handle.close();
    expect(problemOf(error)?.kind).toBe("read_only");
    const problem = explainDatabaseError(error, { location: path });
    expect(problem?.cause).toMatch(new RegExp(`^${path} is read-only \\(SQLITE_READONLY`));
    expect(problem?.hint).toContain("write access");
  });

  it("fileMustExist opens an existing file only: a missing one is explained and not created", async () => {
    const path = join(dir, "absent.db");
    const error = await migrateError(path, { sqlite: { fileMustExist: true } });
    expect(existsSync(path)).toBe(false);
    const problem = explainDatabaseError(error, { location: path });
    expect(problem).toMatchObject({ kind: "file_missing", cause: `the SQLite database ${path} does not exist` });
    expect(problem?.hint).toContain("`forgekit migrate`");
  });

  it("a database that was never migrated says to run `forgekit migrate`", async () => {
    const path = join(dir, "empty.db");
    const store = kyselyStore(sqlite(path));
    const error = await store.users.findById(1).then(
      () => undefined,
      (e: unknown) => e,
    );
    await store.close();
    const problem = explainDatabaseError(error, { location: path });
    expect(problem?.kind).toBe("not_migrated");
    expect(problem?.cause).toContain("no such table: forgekit_users");
    expect(problem?.hint).toContain("run `forgekit migrate`");
  });

  it("an error none of the rules knows is left unexplained", () => {
    expect(explainDatabaseError(new Error("something else"), { location: join(dir, "x.db") })).toBeUndefined();
    expect(explainDatabaseError("not an error")).toBeUndefined();
  });
});

describe("redactDatabaseUrl", () => {
  it("masks the password and token-like query parameters, keeps the rest", () => {
    const url = "postgres://app:pa%24%24-word@db.example.com:5433/forge?sslmode=require&sslpassword=key-pass&api_token=t0k3n&application_name=forgekit";
    const shown = redactDatabaseUrl(url);
    expect(shown).toBe("postgres://app:***@db.example.com:5433/forge?sslmode=require&sslpassword=***&api_token=***&application_name=forgekit");
  });

  it("masks a password in text that does not parse as a URL", () => {
    expect(redactDatabaseUrl("mysql://root:hunter2@bad host:99999/db?password=hunter3")).toBe("mysql://root:***@bad host:99999/db?password=***");
  });

  it("maskDatabaseSecrets removes the location's password and any URL password from a message", () => {
    const location = "mysql://app:s3cr%40t@db:3306/forge?token=abc123";
    expect(maskDatabaseSecrets("failed: s3cr@t / abc123 / postgres://u:other-pass@h/db", location)).toBe("failed: *** / *** / postgres://u:***@h/db");
    expect(maskDatabaseSecrets("plain message", undefined)).toBe("plain message");
  });

  it("scrubs the URL's password from driver messages that quote it", () => {
    const problem = explainDatabaseError(Object.assign(new Error('password authentication failed for user "app" (password hunter2)'), { code: "28P01" }), {
      location: "postgres://app:hunter2@127.0.0.1:5432/forge",
    });
    expect(problem?.kind).toBe("access_denied");
    expect(JSON.stringify(problem)).not.toContain("hunter2");
    expect(problem?.cause).toContain("postgres://app:***@127.0.0.1:5432/forge");
  });
});
