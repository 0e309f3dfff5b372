/** `forgekit apps create|list|delete|rotate-secret` on a temporary SQLite file, checked through /oauth too. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createForgekit, OAUTH_SCOPES } from "@forgekit/core";
import { fromUrl, kyselyStore } from "@forgekit/store-kysely";
import { cliSandbox } from "../test-support.js";

const sandbox = cliSandbox();
afterAll(() => sandbox.cleanup());

/** Revokes an unknown token with the given client credentials: 200 when they authenticate, 401 when not. */
async function clientAuthenticates(clientId: string, secret: string): Promise<number> {
  const store = kyselyStore(fromUrl(sandbox.database));
  try {
    const fk = createForgekit({ baseUrl: "http://localhost:3000", store, logger: { log: () => undefined } });
    const body = new TextEncoder().encode(new URLSearchParams({ token: "fkoa_unknown", client_id: clientId, client_secret: secret }).toString());
    const response = await fk.handle({ method: "POST", path: "/oauth/revoke", rawQuery: "", headers: { "content-type": "application/x-www-form-urlencoded" }, body });
    return response.status;
  } finally {
    await store.close();
  }
}

beforeAll(async () => {
  expect((await sandbox.run("migrate")).code).toBe(0);
  expect((await sandbox.run("users", "create", "--username", "alice", "--name", "Alice", "--email", "alice@example.com")).code).toBe(0);
});

describe("apps", () => {
  let id = 0;
  let clientId = "";
  let secret = "";

  it("create prints the client id and the secret once; the secret authenticates", async () => {
    const r = await sandbox.run("apps", "create", "--name", "CI dashboard", "--redirect-uri", "https://ci.example/cb", "--redirect-uri", "http://127.0.0.1/cb", "--scopes", "api,read_user", "--owner", "alice");
    expect(r.code).toBe(0);
    const line = /^created application (\d+) "CI dashboard" client_id ([0-9a-f]{64}) \(confidential\) scopes api read_user redirect https:\/\/ci\.example\/cb http:\/\/127\.0\.0\.1\/cb$/m.exec(r.stdout);
    expect(line).not.toBeNull();
    id = Number(line![1]);
    clientId = line![2]!;
    secret = /^client_secret: (fkos_[\w-]{43})$/m.exec(r.stdout)![1]!;
    expect(r.stdout).toContain("cannot be shown again");
    expect(await clientAuthenticates(clientId, secret)).toBe(200);
  });

  it("create --json: a public, trusted app with the password grant; no secret printed", async () => {
    const r = await sandbox.run("--json", "apps", "create", "--name", "CLI", "--public", "--trusted", "--password-grant", "--redirect-uri", "http://127.0.0.1/cb", "--scopes", "read_user,openid");
    expect(r.code).toBe(0);
    const json = r.json();
    expect(json).toMatchObject({ name: "CLI", confidential: false, trusted: true, password_grant: true, scopes: ["read_user", "openid"], owner_id: null });
    expect(json["secret"]).toBeUndefined();
  });

  it("create reports validation errors and usage errors", async () => {
    const bad = await sandbox.run("apps", "create", "--name", "Bad", "--redirect-uri", "javascript:alert(1)", "--scopes", "api");
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/redirect_uri/);
    const scope = await sandbox.run("apps", "create", "--name", "Bad", "--redirect-uri", "https://ci.example/cb", "--scopes", "api,nope,openid");
    expect(scope.code).toBe(2);
    expect(scope.stderr).toContain(`error: --scopes: unknown scope "nope"; the valid scopes are ${OAUTH_SCOPES.join(", ")}\n`);
    const missing = await sandbox.run("apps", "create", "--name", "x", "--scopes", "api");
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("--redirect-uri");
  });

  it("list shows the applications and never a secret", async () => {
    const r = await sandbox.run("apps", "list");
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`application ${id} "CI dashboard" client_id ${clientId}`);
    expect(r.stdout).not.toContain(secret);
    const json = await sandbox.run("--json", "apps", "list");
    expect(json.json<unknown[]>()).toHaveLength(2);
    expect(json.stdout).not.toContain("secret");
  });

  it("rotate-secret prints a new secret; the old one stops authenticating", async () => {
    const r = await sandbox.run("apps", "rotate-secret", String(id));
    expect(r.code).toBe(0);
    const fresh = /^client_secret: (fkos_[\w-]{43})$/m.exec(r.stdout)![1]!;
    expect(fresh).not.toBe(secret);
    expect(await clientAuthenticates(clientId, secret)).toBe(401);
    expect(await clientAuthenticates(clientId, fresh)).toBe(200);
  });

  it("delete removes the application; deleting again is an error", async () => {
    const r = await sandbox.run("apps", "delete", String(id));
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^deleted application \d+ "CI dashboard"/);
    const again = await sandbox.run("apps", "delete", String(id));
    expect(again.code).toBe(1);
    expect(again.stderr).toBe("error: Application not found\n");
    expect((await sandbox.run("apps", "delete", "abc")).code).toBe(2);
  });
});
