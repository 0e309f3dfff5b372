/**
 * The provider's keys at rest on a real SQLite file (issue 8): with `oauth.keyEncryption`, a raw
 * dump of every forgekit_oauth_* table holds neither the id_token private key nor the consent HMAC
 * key, and the used consent tokens are stored as digests only. (The HTTP suites check the same
 * envelopes through the store port on SQLite, PostgreSQL and MySQL.)
 */
import { createForgekit, type Forgekit } from "@forgekit/core";
import { createPrivateKey } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import BetterSqlite3 from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { kyselyStore, sqlite } from "./index.js";

const KEK = { keyId: "dump-test", key: Buffer.alloc(32, 0x5a).toString("base64") };

/** The hidden form fields of a rendered consent page. */
function hiddenFields(html: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const m of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) fields[m[1]!] = m[2]!.replace(/&#(\d+);/g, (_, n: string) => String.fromCharCode(Number(n)));
  return fields;
}

function dumpOAuthTables(file: string): string {
  const db = new BetterSqlite3(file, { readonly: true });
  try {
    const tables = (db.prepare("select name from sqlite_master where type = 'table' and name like 'forgekit_oauth_%'").all() as { name: string }[]).map((t) => t.name);
    return JSON.stringify(tables.map((t) => db.prepare(`select * from ${t}`).all()));
  } finally {
    db.close();
  }
}

async function authorizeWithConsent(fk: Forgekit, clientId: string): Promise<string> {
  const query = new URLSearchParams({ client_id: clientId, redirect_uri: "https://app.example/cb", response_type: "code", scope: "openid", state: "s" }).toString();
  const page = await fk.handle({ method: "GET", path: "/oauth/authorize", rawQuery: query, headers: { cookie: "_service_session=x" } });
  expect(page.status).toBe(200);
  const fields = hiddenFields(String(page.body));
  const body = new TextEncoder().encode(new URLSearchParams({ ...fields, decision: "approve" }).toString());
  const approved = await fk.handle({ method: "POST", path: "/oauth/authorize", rawQuery: "", headers: { cookie: "_service_session=x", "content-type": "application/x-www-form-urlencoded" }, body });
  expect(approved.status).toBe(302);
  return fields["consent_token"]!;
}

describe("OAuth keys at rest on SQLite (oauth.keyEncryption)", () => {
  it("a plain-text store is sealed on the next start; afterwards a dump holds no key material and no consent token", async () => {
    const dir = mkdtempSync(join(tmpdir(), "forgekit-keys-at-rest-"));
    const file = join(dir, "keys.db");
    const stores = [kyselyStore(sqlite(file)), kyselyStore(sqlite(file))];
    try {
      const common = { baseUrl: "https://forge.example.com", session: { resolve: () => Promise.resolve(1) }, logger: { log: () => undefined } };
      const before = createForgekit({ ...common, store: stores[0]! });
      (await before.migrate())._unsafeUnwrap();
      (await before.users.create({ username: "dumped", name: "D", email: "d@example.com", password: "dump-password-1" }))._unsafeUnwrap();
      const app = (await before.oauth.applications.create({ name: "D", redirectUris: ["https://app.example/cb"], scopes: ["openid"] }))._unsafeUnwrap();
      const firstToken = await authorizeWithConsent(before, app.application.uid);
      const jwks = await before.handle({ method: "GET", path: "/oauth/discovery/keys", rawQuery: "", headers: {} });
      expect(jwks.status).toBe(200);
      const plainDump = dumpOAuthTables(file);
      expect(plainDump).toContain("BEGIN PRIVATE KEY");

      const pemRow = new BetterSqlite3(file, { readonly: true });
      const keys = pemRow.prepare("select kind, value from forgekit_oauth_keys").all() as { kind: string; value: string }[];
      pemRow.close();
      const pem = keys.find((k) => k.kind === "id_token_rsa")!.value;
      const hmacKey = keys.find((k) => k.kind === "consent_hmac")!.value;
      const der = createPrivateKey(pem).export({ type: "pkcs8", format: "der" });

      const after = createForgekit({ ...common, store: stores[1]!, oauth: { keyEncryption: KEK } });
      (await after.migrate())._unsafeUnwrap();
      const secondToken = await authorizeWithConsent(after, app.application.uid);
      const dump = dumpOAuthTables(file);
      expect(dump).toContain(`fkenc1.${KEK.keyId}.`);
      expect(dump).not.toContain("PRIVATE KEY");
      expect(dump).not.toContain(hmacKey);
      // No line of the PEM body (each found in the plain-text dump) and no DER bytes in hex appear.
      const bodyLines = pem.split("\n").filter((line) => /^[A-Za-z0-9+/=]{64}$/.test(line));
      expect(bodyLines.length).toBeGreaterThan(10);
      for (const line of bodyLines) {
        expect(plainDump).toContain(line);
        expect(dump).not.toContain(line);
      }
      expect(dump).not.toContain(der.subarray(0, 48).toString("hex"));
      for (const token of [firstToken, secondToken]) expect(dump).not.toContain(token.split(".")[2]!);
      // The same key signs on: the JWKS is unchanged by sealing.
      expect((await after.handle({ method: "GET", path: "/oauth/discovery/keys", rawQuery: "", headers: {} })).body).toBe(jwks.body);
    } finally {
      for (const store of stores) await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
