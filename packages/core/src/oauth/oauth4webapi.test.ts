/**
 * A real OAuth client library against a real server (issue 3 "Tests"; DESIGN §8): oauth4webapi
 * discovers the provider on 127.0.0.1:0 and drives the code flow with PKCE for a public client,
 * the code flow with a secret (HTTP Basic and body credentials), refresh, revocation and userinfo
 * with id_token validation; token info is read as the spec shows it. The captured log must hold no
 * token, code, secret or password afterwards.
 */
import { createPublicKey, verify, type JsonWebKey } from "node:crypto";
import { createServer, type RequestListener, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import * as oauth from "oauth4webapi";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createForgekit, type Forgekit } from "../forgekit.js";
import { createNodeHandler } from "../node/index.js";
import { scryptPasswordHasher } from "../runtime/scrypt-password-hasher.js";
import { memoryStore } from "../memory-store/index.js";
import { consentFields, leakedSecrets, type LogEntry } from "../testing/http-suite/oauth-fixture.js";

const insecure = { [oauth.allowInsecureRequests]: true } as const;
const LOOPBACK = "http://127.0.0.1/callback";

let server: Server;
let issuer: URL;
let fk: Forgekit;
let as: oauth.AuthorizationServer;
let aliceId = 0;
const logs: LogEntry[] = [];
const secrets = new Set<string>(["alice-library-password"]);
let publicClient: oauth.Client;
let confidential: { client: oauth.Client; secret: string };

beforeAll(async () => {
  let handler: RequestListener = (_req, res) => res.writeHead(503).end();
  server = createServer((req, res) => handler(req, res));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  issuer = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  fk = createForgekit({
    baseUrl: issuer.href,
    store: memoryStore(),
    passwordHasher: scryptPasswordHasher({ cost: 1024 }),
    session: { resolve: (cookie) => Promise.resolve(cookie === "alice-session" ? aliceId : null) },
    logger: { log: (level, event, fields) => void logs.push({ level, event, ...(fields === undefined ? {} : { fields }) }) },
  });
  handler = createNodeHandler(fk);
  aliceId = (await fk.users.create({ username: "alice", name: "Alice Liddell", email: "alice@example.com", password: "alice-library-password" }))._unsafeUnwrap().id;
  const pub = (await fk.oauth.applications.create({ name: "SPA", redirectUris: [LOOPBACK], scopes: ["openid", "profile", "email", "read_user"], confidential: false }))._unsafeUnwrap();
  const web = (await fk.oauth.applications.create({ name: "Web", redirectUris: ["https://web.example/cb"], scopes: ["openid", "api"] }))._unsafeUnwrap();
  secrets.add(web.clientSecret);
  publicClient = { client_id: pub.application.uid, token_endpoint_auth_method: "none" };
  confidential = { client: { client_id: web.application.uid }, secret: web.clientSecret };
  as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { algorithm: "oidc", ...insecure }));
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

/** Alice approves `authorizationUrl` in the consent page; returns the callback URL the browser would land on. */
async function approve(authorizationUrl: URL): Promise<URL> {
  const headers = { cookie: "_service_session=alice-session" };
  const page = await fetch(authorizationUrl, { headers, redirect: "manual" });
  expect(page.status).toBe(200);
  const body = new URLSearchParams({ ...consentFields(await page.text()), decision: "approve" });
  const decided = await fetch(new URL("/oauth/authorize", issuer), { method: "POST", headers: { ...headers, "content-type": "application/x-www-form-urlencoded" }, body, redirect: "manual" });
  expect(decided.status).toBe(302);
  const callback = new URL(decided.headers.get("location")!);
  secrets.add(callback.searchParams.get("code") ?? "");
  return callback;
}

function remember(tokens: oauth.TokenEndpointResponse): oauth.TokenEndpointResponse {
  for (const value of [tokens.access_token, tokens.refresh_token, tokens.id_token]) if (value !== undefined) secrets.add(value);
  return tokens;
}

/** Checks the id_token's RS256 signature against the provider's JWKS (oauth4webapi validates its claims). */
async function expectSignedByJwks(idToken: string): Promise<void> {
  const [header, payload, signature] = idToken.split(".") as [string, string, string];
  const { kid } = JSON.parse(Buffer.from(header, "base64url").toString()) as { kid: string };
  const jwks = (await (await fetch(as.jwks_uri!)).json()) as { keys: (JsonWebKey & { kid: string })[] };
  const key = jwks.keys.find((k) => k.kid === kid);
  expect(key).toBeDefined();
  expect(verify("sha256", Buffer.from(`${header}.${payload}`), createPublicKey({ key: key!, format: "jwk" }), Buffer.from(signature, "base64url"))).toBe(true);
}

describe("oauth4webapi against forgekit", () => {
  let spaTokens: oauth.TokenEndpointResponse;
  let webTokens: oauth.TokenEndpointResponse;

  it("discovery: issuer, endpoints, S256 only", () => {
    expect(as.issuer).toBe(issuer.href.replace(/\/$/, ""));
    expect(as.code_challenge_methods_supported).toEqual(["S256"]);
    expect(as.token_endpoint).toBe(`${as.issuer}/oauth/token`);
  });

  it("code + PKCE for a public client, with a validated id_token", async () => {
    const verifier = oauth.generateRandomCodeVerifier();
    const state = oauth.generateRandomState();
    const nonce = oauth.generateRandomNonce();
    const url = new URL(as.authorization_endpoint!);
    url.search = new URLSearchParams({
      client_id: publicClient.client_id,
      redirect_uri: "http://127.0.0.1:49152/callback",
      response_type: "code",
      scope: "openid profile email",
      state,
      nonce,
      code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
      code_challenge_method: "S256",
    }).toString();
    const params = oauth.validateAuthResponse(as, publicClient, await approve(url), state);
    const response = await oauth.authorizationCodeGrantRequest(as, publicClient, oauth.None(), params, "http://127.0.0.1:49152/callback", verifier, insecure);
    spaTokens = remember(await oauth.processAuthorizationCodeResponse(as, publicClient, response, { expectedNonce: nonce, requireIdToken: true }));
    expect(spaTokens.token_type.toLowerCase()).toBe("bearer");
    expect(spaTokens.scope).toBe("openid profile email");
    const claims = oauth.getValidatedIdTokenClaims(spaTokens)!;
    expect(claims).toMatchObject({ iss: as.issuer, aud: publicClient.client_id, sub: String(aliceId), nonce });
    await expectSignedByJwks(spaTokens.id_token!);
  });

  it("userinfo for the id_token's subject", async () => {
    const claims = oauth.getValidatedIdTokenClaims(spaTokens)!;
    const response = await oauth.userInfoRequest(as, publicClient, spaTokens.access_token, insecure);
    const info = await oauth.processUserInfoResponse(as, publicClient, claims.sub, response);
    expect(info).toMatchObject({ sub: String(aliceId), preferred_username: "alice", name: "Alice Liddell", email: "alice@example.com", email_verified: true });
  });

  it("code with a client secret: HTTP Basic (form-url-encoded by the library) and body credentials", async () => {
    for (const auth of [oauth.ClientSecretBasic(confidential.secret), oauth.ClientSecretPost(confidential.secret)]) {
      const state = oauth.generateRandomState();
      const url = new URL(as.authorization_endpoint!);
      url.search = new URLSearchParams({ client_id: confidential.client.client_id, redirect_uri: "https://web.example/cb", response_type: "code", scope: "api", state }).toString();
      const params = oauth.validateAuthResponse(as, confidential.client, await approve(url), state);
      const response = await oauth.authorizationCodeGrantRequest(as, confidential.client, auth, params, "https://web.example/cb", oauth.nopkce, insecure);
      webTokens = remember(await oauth.processAuthorizationCodeResponse(as, confidential.client, response));
      expect(webTokens).toMatchObject({ token_type: "bearer", expires_in: 7200, scope: "api" });
      expect(webTokens.refresh_token).toBeDefined();
    }
  });

  it("refresh: a new pair; the old refresh token is then refused", async () => {
    const old = webTokens;
    const response = await oauth.refreshTokenGrantRequest(as, confidential.client, oauth.ClientSecretBasic(confidential.secret), old.refresh_token!, insecure);
    webTokens = remember(await oauth.processRefreshTokenResponse(as, confidential.client, response));
    expect(webTokens.access_token).not.toBe(old.access_token);
    const reuse = await oauth.refreshTokenGrantRequest(as, confidential.client, oauth.ClientSecretBasic(confidential.secret), old.refresh_token!, insecure);
    await expect(oauth.processRefreshTokenResponse(as, confidential.client, reuse)).rejects.toMatchObject({ error: "invalid_grant" });
  });

  it("token info as the spec shows it", async () => {
    const fresh = await oauth.refreshTokenGrantRequest(as, publicClient, oauth.None(), spaTokens.refresh_token!, insecure);
    spaTokens = remember(await oauth.processRefreshTokenResponse(as, publicClient, fresh));
    const info = await fetch(new URL("/oauth/token/info", issuer), { headers: { authorization: `Bearer ${spaTokens.access_token}` } });
    expect(info.status).toBe(200);
    expect(await info.json()).toMatchObject({ resource_owner_id: aliceId, scope: ["openid", "profile", "email"], application: { uid: publicClient.client_id } });
  });

  it("revocation, then the token no longer works", async () => {
    await oauth.processRevocationResponse(await oauth.revocationRequest(as, publicClient, oauth.None(), spaTokens.access_token, insecure));
    const response = await oauth.userInfoRequest(as, publicClient, spaTokens.access_token, insecure);
    await expect(oauth.processUserInfoResponse(as, publicClient, oauth.skipSubjectCheck, response)).rejects.toBeInstanceOf(oauth.WWWAuthenticateChallengeError);
  });

  it("the captured log holds no issued token, code, secret or password", () => {
    expect(secrets.size).toBeGreaterThan(8);
    expect(logs.length).toBeGreaterThan(10);
    expect(leakedSecrets(logs, secrets)).toEqual([]);
  });
});
