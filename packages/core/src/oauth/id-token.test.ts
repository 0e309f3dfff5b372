import { createHash, createPublicKey, generateKeyPairSync, verify } from "node:crypto";
import { describe, expect, it } from "vitest";
import { createMemoryOAuthStore } from "../testing/oauth-memory-store/index.js";
import { createIdTokenSigner, idTokenClaims, signJwt } from "./id-token.js";
import { jwksFor, rsaThumbprint, signingKeyFromPem, type Jwks } from "./signing-key.js";

const clock = { now: () => new Date("2030-01-01T00:00:00.000Z") };
const pem = (bits: number) => generateKeyPairSync("rsa", { modulusLength: bits }).privateKey.export({ type: "pkcs8", format: "pem" }).toString();
const PEM = pem(2048);

function decode(jwt: string): { header: Record<string, unknown>; payload: Record<string, unknown>; signed: string; signature: Buffer } {
  const [h, p, s] = jwt.split(".");
  return {
    header: JSON.parse(Buffer.from(h!, "base64url").toString()) as Record<string, unknown>,
    payload: JSON.parse(Buffer.from(p!, "base64url").toString()) as Record<string, unknown>,
    signed: `${h}.${p}`,
    signature: Buffer.from(s!, "base64url"),
  };
}

function verifiesWith(jwks: Jwks, jwt: string): boolean {
  const { header, signed, signature } = decode(jwt);
  const jwk = jwks.keys.find((k) => k.kid === header.kid);
  if (jwk === undefined) return false;
  return verify("sha256", Buffer.from(signed), createPublicKey({ key: { kty: jwk.kty, n: jwk.n, e: jwk.e }, format: "jwk" }), signature);
}

describe("signing keys", () => {
  it("parses an RSA key and derives the RFC 7638 thumbprint as kid", () => {
    const key = signingKeyFromPem(PEM)._unsafeUnwrap();
    const canonical = `{"e":"${key.publicJwk.e}","kty":"RSA","n":"${key.publicJwk.n}"}`;
    expect(key.kid).toBe(createHash("sha256").update(canonical).digest("base64url"));
    expect(rsaThumbprint(key.publicJwk.n, key.publicJwk.e)).toBe(key.kid);
    expect(jwksFor(key)).toEqual({ keys: [{ kty: "RSA", n: key.publicJwk.n, e: "AQAB", kid: key.kid, use: "sig", alg: "RS256" }] });
  });

  it("refuses garbage, small RSA keys and non-RSA keys", () => {
    expect(signingKeyFromPem("not a key")._unsafeUnwrapErr()).toBe("invalid_signing_key");
    expect(signingKeyFromPem(pem(1024)).isErr()).toBe(true);
    const ec = generateKeyPairSync("ec", { namedCurve: "P-256" }).privateKey.export({ type: "pkcs8", format: "pem" }).toString();
    expect(signingKeyFromPem(ec).isErr()).toBe(true);
  });
});

describe("id_tokens", () => {
  it("builds the claims (string sub, aud = client id, exp = iat + lifetime, nonce when given)", () => {
    const claims = idTokenClaims({ issuer: "https://code.example.com", userId: 42, clientId: "cid", now: clock.now(), lifetimeSeconds: 3600, nonce: "n-1" });
    expect(claims).toEqual({ iss: "https://code.example.com", sub: "42", aud: "cid", iat: 1893456000, exp: 1893459600, nonce: "n-1" });
    expect(idTokenClaims({ issuer: "i", userId: 1, clientId: "c", now: clock.now(), lifetimeSeconds: 60, nonce: null })).not.toHaveProperty("nonce");
  });

  it("signs an RS256 JWT that the published JWKS verifies", async () => {
    const signer = createIdTokenSigner({ keys: createMemoryOAuthStore().oauthKeys, clock, signingKeyPem: PEM })._unsafeUnwrap();
    const claims = idTokenClaims({ issuer: "https://x", userId: 7, clientId: "c", now: clock.now(), lifetimeSeconds: 60, nonce: null });
    const jwt = await signer.sign(claims);
    const { header, payload } = decode(jwt);
    expect(header).toEqual({ alg: "RS256", typ: "JWT", kid: signingKeyFromPem(PEM)._unsafeUnwrap().kid });
    expect(payload).toEqual(claims);
    const jwks = await signer.jwks();
    expect(verifiesWith(jwks, jwt)).toBe(true);
    const [h, , sig] = jwt.split(".");
    const tampered = `${h}.${Buffer.from(JSON.stringify({ ...claims, sub: "8" })).toString("base64url")}.${sig}`;
    expect(verifiesWith(jwks, tampered)).toBe(false);
  });

  it("refuses an invalid configured key at creation", () => {
    expect(createIdTokenSigner({ keys: createMemoryOAuthStore().oauthKeys, clock, signingKeyPem: "x" })._unsafeUnwrapErr()).toBe("invalid_signing_key");
  });

  it("without a configured key, generates one once and stores it for every signer", async () => {
    const store = createMemoryOAuthStore();
    const a = createIdTokenSigner({ keys: store.oauthKeys, clock })._unsafeUnwrap();
    const b = createIdTokenSigner({ keys: store.oauthKeys, clock })._unsafeUnwrap();
    const [ja, jb] = await Promise.all([a.jwks(), b.jwks()]);
    expect(ja).toEqual(jb);
    const stored = await store.oauthKeys.get("id_token_rsa");
    expect(stored?.value).toContain("BEGIN PRIVATE KEY");
    expect(signingKeyFromPem(stored!.value)._unsafeUnwrap().kid).toBe(ja.keys[0]!.kid);
    const jwt = await a.sign(idTokenClaims({ issuer: "i", userId: 1, clientId: "c", now: clock.now(), lifetimeSeconds: 60, nonce: null }));
    expect(verifiesWith(jb, jwt)).toBe(true);
  });

  it("signJwt output has three base64url parts", async () => {
    const jwt = await signJwt(signingKeyFromPem(PEM)._unsafeUnwrap(), { a: 1 });
    expect(jwt).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
  });
});
