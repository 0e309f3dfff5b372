import { beforeEach, describe, expect, it } from "vitest";
import type { OAuthApplication } from "../ports/oauth-store.js";
import { obtainCode, obtainTokens, TEST_VERIFIER } from "../testing/oauth-memory-store/flows.js";
import { createOAuthTestKit, type OAuthTestKit, type TestUser } from "../testing/oauth-memory-store/harness.js";
import { renderOAuthError } from "./render.js";
import { handleTokenRequest } from "./token-endpoint.js";
import { renderTokenResponse } from "./token-response.js";

let kit: OAuthTestKit;
let app: OAuthApplication;
let secret: string;
let alice: TestUser;

beforeEach(async () => {
  kit = createOAuthTestKit();
  ({ application: app, clientSecret: secret } = await kit.createApp({ ropcEnabled: true }));
  alice = kit.addUser({ username: "alice" });
});

/** oauth4webapi-style Basic: both parts form-url-encoded before base64. */
const basic = (id: string, s: string) => `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(s)}`).toString("base64")}`;
const post = (form: Record<string, string> | string, authorization?: string) =>
  handleTokenRequest(kit.deps, { form: new URLSearchParams(form), ...(authorization === undefined ? {} : { authorization }), remoteAddress: "10.1.1.1" });

describe("handleTokenRequest", () => {
  it("dispatches authorization_code with Basic client authentication", async () => {
    const code = await obtainCode(kit.deps, app, alice.id);
    const body = (await post({ grant_type: "authorization_code", code, redirect_uri: "https://a.example/cb" }, basic(app.uid, secret)))._unsafeUnwrap();
    expect(body).toMatchObject({ token_type: "bearer", scope: "api" });
    const rendered = renderTokenResponse(body);
    expect(rendered.headers).toEqual({ "Content-Type": "application/json", "Cache-Control": "no-store", Pragma: "no-cache" });
  });

  it("dispatches authorization_code with PKCE and body credentials", async () => {
    const pub = (await kit.createApp({ confidential: false })).application;
    const code = await obtainCode(kit.deps, pub, alice.id);
    const result = await post({ grant_type: "authorization_code", client_id: pub.uid, code, redirect_uri: "https://a.example/cb", code_verifier: TEST_VERIFIER });
    expect(result.isOk()).toBe(true);
  });

  it("dispatches refresh_token, ignoring redirect_uri and code_verifier (client-compatibility 8)", async () => {
    const tokens = await obtainTokens(kit.deps, app, secret, alice.id);
    const form = { grant_type: "refresh_token", refresh_token: tokens.refresh_token!, client_id: app.uid, client_secret: secret, redirect_uri: "https://a.example/cb", code_verifier: TEST_VERIFIER };
    expect((await post(form)).isOk()).toBe(true);
  });

  it("dispatches password", async () => {
    const body = (await post({ grant_type: "password", username: "alice", password: "correct horse" }, basic(app.uid, secret)))._unsafeUnwrap();
    expect(Object.keys(body)).toEqual(["access_token", "token_type", "expires_in"]);
  });

  it("requires grant_type", async () => {
    expect((await post({}))._unsafeUnwrapErr()).toEqual({ code: "invalid_request", description: "Missing required parameter: grant_type." });
  });

  it.each(["implicit", "client_credentials", "token", "urn:ietf:params:oauth:grant-type:jwt-bearer"])("refuses grant_type=%s as unsupported", async (grant_type) => {
    expect((await post({ grant_type }))._unsafeUnwrapErr()).toEqual({
      code: "unsupported_grant_type",
      description: "The authorization grant type is not supported by the authorization server.",
    });
  });

  it("says the device grant is not supported", async () => {
    expect((await post({ grant_type: "urn:ietf:params:oauth:grant-type:device_code" }))._unsafeUnwrapErr()).toEqual({
      code: "unsupported_grant_type",
      description: "The device authorization grant is not supported.",
    });
  });

  it("refuses repeated parameters and two client authentication methods", async () => {
    expect((await post("grant_type=password&grant_type=password"))._unsafeUnwrapErr()).toMatchObject({ code: "invalid_request" });
    expect((await post("grant_type=password&username=a&username=b"))._unsafeUnwrapErr()).toMatchObject({ code: "invalid_request" });
    const both = await post({ grant_type: "password", username: "alice", password: "correct horse", client_secret: secret }, basic(app.uid, secret));
    expect(both._unsafeUnwrapErr()).toMatchObject({ code: "invalid_request" });
  });

  it("renders a failed Basic authentication as 401 with a Basic challenge", async () => {
    const failure = (await post({ grant_type: "password", username: "alice", password: "x" }, basic(app.uid, "wrong")))._unsafeUnwrapErr();
    const r = renderOAuthError(failure);
    expect(r.status).toBe(401);
    expect(r.headers["WWW-Authenticate"]).toMatch(/^Basic /);
    expect(r.headers["Cache-Control"]).toBe("no-store");
  });
});

describe("handleTokenRequest: oversized fields (issue 8)", () => {
  it.each([
    ["username", { grant_type: "password", username: "u".repeat(256), password: "p" }],
    ["password", { grant_type: "password", username: "alice", password: "p".repeat(1025) }],
    ["scope", { grant_type: "password", username: "alice", password: "p", scope: "api ".repeat(300) }],
    ["redirect_uri", { grant_type: "authorization_code", code: "c", redirect_uri: `https://a.example/${"x".repeat(2000)}` }],
    ["client_id", { grant_type: "password", username: "alice", password: "p", client_id: "i".repeat(900_000) }],
    ["refresh_token", { grant_type: "refresh_token", refresh_token: "r".repeat(256) }],
  ])("a %s over its limit is 400 invalid_request, counted nowhere and never logged", async (name, form) => {
    const before = kit.logs.length;
    const r = renderOAuthError((await post(form))._unsafeUnwrapErr());
    expect(r.status).toBe(400);
    expect(JSON.parse(String(r.body))).toEqual({ error: "invalid_request", error_description: expect.stringMatching(new RegExp(`^Parameter too long: ${name} \\(at most \\d+ characters\\)\\.$`)) as unknown });
    expect(kit.logs.slice(before)).toEqual([]);
    expect((await post({ grant_type: "password", username: "alice", password: "wrong" }))._unsafeUnwrapErr().code).toBe("invalid_grant");
  });
});
