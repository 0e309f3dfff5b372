/**
 * The provider's stored keys at rest (`oauth.keyEncryption`) and signing-key rotation, over HTTP on
 * every store: with a key-encryption key the stored id_token and consent keys are envelopes with no
 * key material in them; plain-text keys are sealed on the next start; a wrong, unknown or missing
 * key-encryption key fails start-up (`fk.migrate()`) with a clear message; a rotated signing key
 * stays in the JWKS while it is listed in `previousSigningKeyPems`.
 */
import { createPrivateKey, createPublicKey, generateKeyPairSync, verify, type JsonWebKey } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import type { ForgekitOptions } from "../../config.js";
import { createForgekit, type Forgekit } from "../../forgekit.js";
import type { OAuthKeyKind } from "../../ports/oauth-store.js";
import { TEST_BASE_URL } from "../fixtures.js";
import type { HttpHarness, HttpSuite } from "../http-harness.js";
import { testSigningKeyPem } from "../oauth-memory-store/harness.js";
import { authorizeQuery, consentFields, expectNoSecretsLogged, obtainHttpTokens, oauthWorld, type OAuthWorld } from "./oauth-fixture.js";

type Jwks = { keys: (JsonWebKey & { kid: string })[] };
type KeyEncryption = NonNullable<NonNullable<ForgekitOptions["oauth"]>["keyEncryption"]>;

const KEK_1 = { keyId: "kek-2026-01", key: Buffer.alloc(32, 0x11).toString("base64") };
const KEK_2 = { keyId: "kek-2026-07", key: Buffer.alloc(32, 0x22).toString("hex") };
const WRONG_1 = { keyId: KEK_1.keyId, key: Buffer.alloc(32, 0x33).toString("base64") };

const decodePart = (part: string) => JSON.parse(Buffer.from(part, "base64url").toString()) as Record<string, unknown>;

/** Verifies an id_token against the JWKS the server publishes now; returns its kid. */
async function verifiedKid(w: OAuthWorld, idToken: unknown): Promise<string> {
  const [header, payload, signature] = String(idToken).split(".") as [string, string, string];
  const kid = String(decodePart(header)["kid"]);
  const jwks = (await w.call("GET", "/oauth/discovery/keys")).json as Jwks;
  const jwk = jwks.keys.find((k) => k.kid === kid);
  expect(jwk, `kid ${kid} in the JWKS`).toBeDefined();
  expect(verify("sha256", Buffer.from(`${header}.${payload}`), createPublicKey({ key: jwk!, format: "jwk" }), Buffer.from(signature, "base64url"))).toBe(true);
  return kid;
}

/** A second process on the same store: the same host wiring with other OAuth options, served by `h`. */
async function restart(w: OAuthWorld, h: HttpHarness, oauth: ForgekitOptions["oauth"]): Promise<{ fk: Forgekit; started: Awaited<ReturnType<Forgekit["migrate"]>> }> {
  const { config } = w.t.fk;
  const fk = createForgekit({
    baseUrl: TEST_BASE_URL,
    store: w.t.store,
    clock: config.clock,
    random: config.random,
    passwordHasher: config.passwordHasher,
    logger: config.logger,
    ...(config.session === undefined ? {} : { session: config.session }),
    ...(oauth === undefined ? {} : { oauth }),
  });
  const started = await fk.migrate();
  if (started.isOk()) await h.serve(fk);
  return { fk, started };
}

const storedValue = async (w: OAuthWorld, kind: OAuthKeyKind) => (await w.t.store.oauth.oauthKeys.get(kind))?.value ?? null;

/**
 * Brings `w`'s store to both keys sealed under KEK_1, whatever it holds now (no keys yet, keys in
 * plain text, or sealed under KEK_1 or KEK_2 by another test of the block), and serves it: the
 * start-up of the tests about sealed keys. The keys are made on first use: an id_token is issued.
 */
async function sealedUnderKek1(w: OAuthWorld, h: HttpHarness): Promise<void> {
  const { started } = await restart(w, h, { keyEncryption: { ...KEK_1, previousKeys: [KEK_2] } });
  expect(started.isOk()).toBe(true);
  await obtainHttpTokens(w, w.web, { scope: "openid" });
  for (const kind of ["id_token_rsa", "consent_hmac"] as const) expect(await storedValue(w, kind)).toMatch(new RegExp(`^fkenc1\\.${KEK_1.keyId}\\.`));
}

/** The message of a failed start-up (`internal` carrying a ForgekitConfigError). */
function startupMessage(started: Awaited<ReturnType<Forgekit["migrate"]>>): string {
  if (started.isOk()) throw new Error("start-up succeeded");
  expect(started.error.code).toBe("internal");
  const cause = (started.error as { cause?: unknown }).cause;
  expect(cause).toBeInstanceOf(Error);
  expect((cause as Error).name).toBe("ForgekitConfigError");
  return (cause as Error).message;
}

export const oauthKeyEncryptionSuite: HttpSuite = (h) => {
  describe("OAuth: stored keys encrypted at rest (oauth.keyEncryption)", () => {
    // The tests about sealed keys share this instance, each sealing its keys under KEK_1 first
    // (sealedUnderKek1); the two about plain-text keys build their own: a store's keys, once sealed,
    // never go back to plain text.
    let w: OAuthWorld;

    beforeAll(async () => {
      // Starts without a key-encryption key: today's behaviour, keys stored in plain text.
      w = await oauthWorld(h);
    });

    it("without oauth.keyEncryption the keys are stored in plain text (documented default)", async () => {
      // Its own instance, started without a key-encryption key.
      const w = await oauthWorld(h);
      await obtainHttpTokens(w, w.web, { scope: "openid" });
      expect(await storedValue(w, "id_token_rsa")).toContain("-----BEGIN PRIVATE KEY-----");
      expect(await storedValue(w, "consent_hmac")).toMatch(/^[\w-]{43}$/);
      expectNoSecretsLogged(w);
    });

    it("the next start with a key seals the plain-text keys; the same keys keep working", async () => {
      // Its own instance, its keys in plain text.
      const w = await oauthWorld(h);
      const before = await obtainHttpTokens(w, w.web, { scope: "openid" });
      const kid = await verifiedKid(w, before["id_token"]);
      const plainPem = (await storedValue(w, "id_token_rsa"))!;
      const plainHmac = (await storedValue(w, "consent_hmac"))!;
      // A consent form rendered before the restart still posts after it (same HMAC key).
      const page = await w.call("GET", "/oauth/authorize", { query: authorizeQuery(w.web), headers: { cookie: w.cookie("alice") } });

      const { started } = await restart(w, h, { keyEncryption: KEK_1 });
      expect(started.isOk()).toBe(true);

      for (const kind of ["id_token_rsa", "consent_hmac"] as const) expect(await storedValue(w, kind)).toMatch(new RegExp(`^fkenc1\\.${KEK_1.keyId}\\.`));
      const dump = `${(await storedValue(w, "id_token_rsa"))!}\n${(await storedValue(w, "consent_hmac"))!}`;
      expect(dump).not.toContain("PRIVATE KEY");
      expect(dump).not.toContain(plainHmac);
      const der = createPrivateKey(plainPem).export({ type: "pkcs8", format: "der" }).toString("base64");
      expect(dump).not.toContain(der.slice(64, 128));

      const posted = await w.post("/oauth/authorize", { ...consentFields(page.text), decision: "approve" }, { cookie: w.cookie("alice") });
      expect(posted.status).toBe(302);
      const after = await obtainHttpTokens(w, w.web, { scope: "openid" });
      expect(await verifiedKid(w, after["id_token"])).toBe(kid);
      expectNoSecretsLogged(w);
    });

    it("a start with the right key leaves the envelopes alone", async () => {
      await sealedUnderKek1(w, h);
      const sealed = await storedValue(w, "id_token_rsa");
      const { started } = await restart(w, h, { keyEncryption: KEK_1 });
      expect(started.isOk()).toBe(true);
      expect(await storedValue(w, "id_token_rsa")).toBe(sealed);
    });

    it("a wrong key, an unknown key id or no key fails start-up with a clear message, and nothing is rewritten", async () => {
      await sealedUnderKek1(w, h);
      const sealed = await storedValue(w, "id_token_rsa");
      expect(startupMessage((await restart(w, h, { keyEncryption: WRONG_1 })).started)).toContain(`cannot be decrypted with the configured key-encryption key "${KEK_1.keyId}"`);
      expect(startupMessage((await restart(w, h, { keyEncryption: KEK_2 })).started)).toContain(`encrypted with key-encryption key "${KEK_1.keyId}", which is neither oauth.keyEncryption.keyId nor in oauth.keyEncryption.previousKeys`);
      expect(startupMessage((await restart(w, h, {})).started)).toContain("oauth.keyEncryption is not configured");
      expect(await storedValue(w, "id_token_rsa")).toBe(sealed);
    });

    it("rotating the key-encryption key: the new key with the old one in previousKeys re-seals under the new id", async () => {
      await sealedUnderKek1(w, h);
      const before = await obtainHttpTokens(w, w.web, { scope: "openid" });
      const kid = await verifiedKid(w, before["id_token"]);
      const rotation: KeyEncryption = { ...KEK_2, previousKeys: [KEK_1] };
      const { started } = await restart(w, h, { keyEncryption: rotation });
      expect(started.isOk()).toBe(true);
      for (const kind of ["id_token_rsa", "consent_hmac"] as const) expect(await storedValue(w, kind)).toMatch(new RegExp(`^fkenc1\\.${KEK_2.keyId}\\.`));
      const after = await obtainHttpTokens(w, w.web, { scope: "openid" });
      expect(await verifiedKid(w, after["id_token"])).toBe(kid);
      // Once re-sealed, the retired key is no longer needed.
      expect((await restart(w, h, { keyEncryption: KEK_2 })).started.isOk()).toBe(true);
    });

    it("logs: no issued code, token, secret or password appears", async () => {
      // What it checks it makes itself: keys sealed, a code and tokens issued (sealedUnderKek1), a
      // start-up refused for a wrong key; besides whatever the other tests did here before. The
      // key-encryption keys are secrets too.
      for (const kek of [KEK_1, KEK_2, WRONG_1]) w.secrets.add(kek.key);
      await sealedUnderKek1(w, h);
      expect((await restart(w, h, { keyEncryption: WRONG_1 })).started.isOk()).toBe(false);
      expectNoSecretsLogged(w);
    });
  });

  describe("OAuth: rotating the id_token signing key (previousSigningKeyPems)", () => {
    let w: OAuthWorld;
    const oldPem = testSigningKeyPem();
    const newPem = generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey.export({ type: "pkcs8", format: "pem" }).toString();

    beforeAll(async () => {
      w = await oauthWorld(h, { oauth: { signingKeyPem: oldPem } });
    });

    it("the JWKS keeps the retired key, so id_tokens it signed still verify; new ones use the new key", async () => {
      const old = await obtainHttpTokens(w, w.web, { scope: "openid" });
      const oldKid = await verifiedKid(w, old["id_token"]);
      await restart(w, h, { signingKeyPem: newPem, previousSigningKeyPems: [oldPem] });
      const jwks = (await w.call("GET", "/oauth/discovery/keys")).json as Jwks;
      expect(jwks.keys).toHaveLength(2);
      expect(await verifiedKid(w, old["id_token"])).toBe(oldKid);
      const fresh = await obtainHttpTokens(w, w.web, { scope: "openid" });
      const newKid = await verifiedKid(w, fresh["id_token"]);
      expect(newKid).not.toBe(oldKid);
      expect(jwks.keys[0]!.kid).toBe(newKid);
      // Dropped from the list once its id_tokens have expired: the JWKS holds the new key only.
      await restart(w, h, { signingKeyPem: newPem });
      expect(((await w.call("GET", "/oauth/discovery/keys")).json as Jwks).keys.map((k) => k.kid)).toEqual([newKid]);
    });

    it("a retired key that is not an RSA private key is a configuration error at boot", () => {
      expect(() => createForgekit({ baseUrl: TEST_BASE_URL, store: w.t.store, oauth: { previousSigningKeyPems: ["not a key"] } })).toThrow(/oauth\.previousSigningKeyPems/);
    });
  });
};
