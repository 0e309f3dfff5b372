/**
 * The quick start keeps the id_token signing key encrypted at rest: the first start writes a
 * key-encryption key next to its database (mode 0600), the stored key row is an envelope, and a
 * restart reads the same signing key back.
 */
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fromUrl, kyselyStore } from "@forgekit/store-kysely";
import { afterAll, describe, expect, it } from "vitest";
import { startExpressExample } from "./app.js";

const dir = mkdtempSync(join(tmpdir(), "forgekit-express-kek-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The stored value of a provider key, as a dump of the table shows it. */
async function storedKey(database: string, kind: "id_token_rsa" | "consent_hmac"): Promise<string | undefined> {
  const store = kyselyStore(fromUrl(database));
  try {
    return (await store.oauth.oauthKeys.get(kind))?.value;
  } finally {
    await store.close();
  }
}

/** The key ids the JWKS publishes (fetching it makes the signing key, on a fresh database). */
async function jwksKids(baseUrl: string): Promise<string[]> {
  const response = await fetch(`${baseUrl}/oauth/discovery/keys`);
  expect(response.status).toBe(200);
  return ((await response.json()) as { keys: { kid: string }[] }).keys.map((k) => k.kid);
}

describe("the quick start's id_token signing key at rest", () => {
  it("is encrypted under a key-encryption key the first start writes next to the database (0600), and read back on a restart", async () => {
    const database = join(dir, "forgekit.db");
    const first = await startExpressExample({ port: 0, host: "127.0.0.1", database: "forgekit.db", cwd: dir, env: {} });
    let kids: string[];
    try {
      kids = await jwksKids(first.baseUrl);
      expect(kids).toHaveLength(1);
    } finally {
      await first.close();
    }
    const keyFile = `${database}.key-encryption-key`;
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);
    const keyLine = readFileSync(keyFile, "utf8").split("\n").find((line) => line !== "" && !line.startsWith("#")) ?? "";
    expect(keyLine).toMatch(/^demo-\d{4}-\d{2}-\d{2}:[A-Za-z0-9+/]{43}=$/);

    const stored = (await storedKey(database, "id_token_rsa")) ?? "";
    expect(stored).toMatch(new RegExp(`^fkenc1\\.${keyLine.split(":")[0]}\\.`));
    expect(stored).not.toContain("PRIVATE KEY");
    expect((await storedKey(database, "consent_hmac")) ?? "fkenc1.").toMatch(/^fkenc1\./);

    const second = await startExpressExample({ port: 0, host: "127.0.0.1", database: "forgekit.db", cwd: dir, env: {} });
    try {
      expect(await jwksKids(second.baseUrl)).toEqual(kids);
    } finally {
      await second.close();
    }
    expect(await storedKey(database, "id_token_rsa")).toBe(stored);
  });

  it("uses FORGEKIT_KEY_ENCRYPTION_KEY when it is set, and writes no key file", async () => {
    const key = Buffer.alloc(32, 7).toString("base64");
    const running = await startExpressExample({ port: 0, host: "127.0.0.1", database: "from-env.db", cwd: dir, env: { FORGEKIT_KEY_ENCRYPTION_KEY: `ops-1:${key}` } });
    try {
      await jwksKids(running.baseUrl);
    } finally {
      await running.close();
    }
    expect(await storedKey(join(dir, "from-env.db"), "id_token_rsa")).toMatch(/^fkenc1\.ops-1\./);
    expect(() => statSync(join(dir, "from-env.db.key-encryption-key"))).toThrow();
  });
});
