/**
 * The key-encryption key of the CLI and the demo host: FORGEKIT_KEY_ENCRYPTION_KEY,
 * FORGEKIT_KEY_ENCRYPTION_KEY_FILE, else the database's own key file (the demo writes it).
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fromUrl, kyselyStore } from "@forgekit/store-kysely";
import { afterAll, describe, expect, it } from "vitest";
import { startDemoHost, type DemoApp } from "./demo-host.js";
import { keyEncryptionKeyFile, parseKeyEncryption } from "./key-encryption.js";
import { cliSandbox } from "./test-support.js";

const sandbox = cliSandbox();
afterAll(() => sandbox.cleanup());

const KEY_A = Buffer.alloc(32, 1).toString("base64");
const KEY_B = Buffer.alloc(32, 2).toString("hex");

async function storedSigningKey(database: string): Promise<string | undefined> {
  const store = kyselyStore(fromUrl(database));
  try {
    return (await store.oauth.oauthKeys.get("id_token_rsa"))?.value;
  } finally {
    await store.close();
  }
}

/** Starts the demo host on the sandbox database and makes it store its id_token key (a JWKS request); then stops it. */
async function demoWithSigningKey(env: Record<string, string>): Promise<void> {
  let jwks: Promise<unknown> = Promise.resolve();
  const app: DemoApp = (fk) => {
    jwks = fk.handle({ method: "GET", path: "/oauth/discovery/keys", rawQuery: "", headers: {} });
    return (_req, res) => void res.end();
  };
  const running = await startDemoHost({ port: 0, host: "127.0.0.1", database: sandbox.database, env }, app);
  try {
    await jwks;
  } finally {
    await running.close();
  }
}

describe("key-encryption key entries", () => {
  it("are <keyId>:<key>, by comma or line: the first encrypts, the ones after it are previous keys", () => {
    expect(parseKeyEncryption(`new:${KEY_A},old:${KEY_B}`, "X")).toEqual({ keyId: "new", key: KEY_A, previousKeys: [{ keyId: "old", key: KEY_B }] });
    expect(parseKeyEncryption(`# a comment, with a comma\nnew:${KEY_A}\n\nold:${KEY_B}\n`, "X")).toEqual({ keyId: "new", key: KEY_A, previousKeys: [{ keyId: "old", key: KEY_B }] });
    expect(parseKeyEncryption(`only:${KEY_A}`, "X")).toEqual({ keyId: "only", key: KEY_A });
  });

  it("a malformed one is a usage error naming the variable, never echoing the key", async () => {
    const short = await sandbox.runRaw(["--database", sandbox.database, "users", "list"], { FORGEKIT_KEY_ENCRYPTION_KEY: "ops:c2hvcnQtc2VjcmV0" });
    expect(short.code).toBe(2);
    expect(short.stderr).toContain('FORGEKIT_KEY_ENCRYPTION_KEY: entry 1 (key id "ops"): the key must be 32 bytes as base64 or 64 hex digits');
    expect(short.stderr).not.toContain("c2hvcnQtc2VjcmV0");
    const noId = await sandbox.runRaw(["--database", sandbox.database, "users", "list"], { FORGEKIT_KEY_ENCRYPTION_KEY: KEY_A });
    expect(noId).toMatchObject({ code: 2 });
    expect(noId.stderr).toContain("FORGEKIT_KEY_ENCRYPTION_KEY: entry 1 must be <keyId>:<key>");
    const both = await sandbox.runRaw(["--database", sandbox.database, "users", "list"], { FORGEKIT_KEY_ENCRYPTION_KEY: `a:${KEY_A}`, FORGEKIT_KEY_ENCRYPTION_KEY_FILE: "k" });
    expect(both.code).toBe(2);
    expect(both.stderr).toContain("set FORGEKIT_KEY_ENCRYPTION_KEY or FORGEKIT_KEY_ENCRYPTION_KEY_FILE, not both");
  });
});

describe("the CLI on a database the demo encrypted", () => {
  it("reads the database's key file; a key that is not the one fails migrate clearly; a rotation re-encrypts under the new key id", async () => {
    await demoWithSigningKey({});
    const keyFile = `${sandbox.database}.key-encryption-key`;
    const demoLine = readFileSync(keyFile, "utf8").split("\n").find((line) => /^demo-/.test(line)) ?? "";
    const demoId = demoLine.split(":")[0] ?? "";
    expect(await storedSigningKey(sandbox.database)).toMatch(new RegExp(`^fkenc1\\.${demoId}\\.`));

    expect(await sandbox.run("migrate")).toMatchObject({ code: 0 });

    const wrong = await sandbox.runRaw(["--database", sandbox.database, "migrate"], { FORGEKIT_KEY_ENCRYPTION_KEY: `ops-1:${KEY_A}` });
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain(`encrypted with key-encryption key "${demoId}", which is neither oauth.keyEncryption.keyId nor in oauth.keyEncryption.previousKeys`);

    const rotated = join(sandbox.dir, "rotated-keys");
    writeFileSync(rotated, `ops-2:${KEY_B}\n${demoLine}\n`, { mode: 0o600 });
    expect(await sandbox.runRaw(["--database", sandbox.database, "migrate"], { FORGEKIT_KEY_ENCRYPTION_KEY_FILE: "rotated-keys" })).toMatchObject({ code: 0 });
    expect(await storedSigningKey(sandbox.database)).toMatch(/^fkenc1\.ops-2\./);
    // The new key alone opens it now; the demo, given the same file, starts on it too.
    expect(await sandbox.runRaw(["--database", sandbox.database, "migrate"], { FORGEKIT_KEY_ENCRYPTION_KEY: `ops-2:${KEY_B}` })).toMatchObject({ code: 0 });
    await demoWithSigningKey({ FORGEKIT_KEY_ENCRYPTION_KEY_FILE: rotated });
  });
});

describe("the demo's key file", () => {
  it("is not left behind when the database cannot be reached (nothing was encrypted with it)", async () => {
    const target = { kind: "mysql", url: "mysql://root@127.0.0.1:1/forgekit_unreachable" } as const;
    await expect(startDemoHost({ port: 0, host: "127.0.0.1", database: target.url, cwd: sandbox.dir, env: {} }, () => (_req, res) => void res.end())).rejects.toThrow(/hint: /);
    expect(existsSync(keyEncryptionKeyFile(target, sandbox.dir) ?? "")).toBe(false);
    expect(existsSync(join(sandbox.dir, "data"))).toBe(false);
  });
});
