import { beforeEach, describe, expect, it } from "vitest";
import { createOAuthTestKit, type OAuthTestKit } from "../testing/oauth-memory-store/harness.js";
import { validateAuthorizationRequest, type AuthorizationFailure } from "./authorize-request.js";
import { appendQuery, loginRedirectLocation } from "./redirect.js";

const CHALLENGE = "2i0WFA-0AerkjQm4X4oDEhqA17QIAKNjXpagHBXmO_U";
let kit: OAuthTestKit;
let uid: string;
let publicUid: string;

beforeEach(async () => {
  kit = createOAuthTestKit();
  uid = (await kit.createApp({ redirectUris: ["https://a.example/cb", "https://b.example/cb?tenant=1", "http://127.0.0.1/cb"] })).application.uid;
  publicUid = (await kit.createApp({ confidential: false })).application.uid;
});

const validate = (query: Record<string, string> | string) =>
  validateAuthorizationRequest(kit.store.oauthApplications, "https://code.example.com", new URLSearchParams(query));
const base = () => ({ client_id: uid, redirect_uri: "https://a.example/cb", response_type: "code", state: "xyz" });

async function failure(query: Record<string, string> | string): Promise<AuthorizationFailure> {
  return (await validate(query))._unsafeUnwrapErr();
}

function redirectParams(f: AuthorizationFailure): { target: string; params: Record<string, string> } {
  if (f.kind !== "redirect") throw new Error(`expected a redirect, got ${JSON.stringify(f)}`);
  const [target, query] = f.location.split("?");
  return { target: target!, params: Object.fromEntries(new URLSearchParams(query)) };
}

describe("validateAuthorizationRequest: page errors, never a redirect (A2, A3, A4)", () => {
  it("missing client_id", async () => {
    const { redirect_uri, response_type } = base();
    expect(await failure({ redirect_uri, response_type })).toEqual({ kind: "page", status: 400, error: { code: "invalid_request", description: "Missing required parameter: client_id." } });
  });

  it("unknown client_id", async () => {
    const f = await failure({ ...base(), client_id: "nope" });
    expect(f).toMatchObject({ kind: "page", error: { code: "invalid_client" } });
    expect(f.error.description).toContain("failed due to unknown client");
  });

  it("client_id sent twice", async () => {
    expect(await failure(`client_id=${uid}&client_id=${uid}&redirect_uri=https://a.example/cb&response_type=code`)).toMatchObject({ kind: "page" });
  });

  it.each([
    "https://a.example/cb/",
    "https://a.example/cb?x=1",
    "https://a.example:8443/cb",
    "https://a.example@evil.example/cb",
    "https://a.example/cb#f",
    "https://evil.example/cb",
    "https://b.example/cb",
    "javascript:alert(1)",
  ])("redirect_uri %s", async (redirect_uri) => {
    expect(await failure({ ...base(), redirect_uri })).toEqual({
      kind: "page",
      status: 400,
      error: { code: "invalid_redirect_uri", description: "The redirect URI included is not valid." },
    });
  });

  it("no redirect_uri although several are registered, and none with one registered", async () => {
    const { client_id, response_type } = base();
    expect(await failure({ client_id, response_type })).toMatchObject({ kind: "page", error: { code: "invalid_redirect_uri" } });
    expect(await failure({ client_id: publicUid, response_type })).toMatchObject({ kind: "page", error: { code: "invalid_redirect_uri" } });
  });

  it("redirect_uri sent twice", async () => {
    expect(await failure(`client_id=${uid}&redirect_uri=https://a.example/cb&redirect_uri=https://a.example/cb&response_type=code`)).toMatchObject({ kind: "page" });
  });
});

describe("validateAuthorizationRequest: redirect errors (A5, A6, A7)", () => {
  it("unsupported response_type, with state echoed and iss added", async () => {
    const { target, params } = redirectParams(await failure({ ...base(), response_type: "token" }));
    expect(target).toBe("https://a.example/cb");
    expect(params).toEqual({
      error: "unsupported_response_type",
      error_description: "The authorization server does not support this response type.",
      state: "xyz",
      iss: "https://code.example.com",
    });
  });

  it("missing response_type", async () => {
    const { response_type: _r, ...rest } = base();
    expect(redirectParams(await failure(rest)).params).toMatchObject({ error: "invalid_request", error_description: "Missing required parameter: response_type." });
  });

  it("echoes state byte for byte and adds none when none was sent", async () => {
    const state = "a b+c/é&=%20\u{1F600}";
    expect(redirectParams(await failure({ ...base(), response_type: "x", state })).params.state).toBe(state);
    const { state: _s, ...noState } = base();
    expect(redirectParams(await failure({ ...noState, response_type: "x" })).params).not.toHaveProperty("state");
    expect(redirectParams(await failure({ ...base(), state: "", response_type: "x" })).params).not.toHaveProperty("state");
  });

  it("keeps the registered URI's own query", async () => {
    const f = await failure({ ...base(), redirect_uri: "https://b.example/cb?tenant=1", response_type: "x" });
    expect(f.kind === "redirect" && f.location.startsWith("https://b.example/cb?tenant=1&error=unsupported_response_type&")).toBe(true);
  });

  it("invalid scope", async () => {
    expect(redirectParams(await failure({ ...base(), scope: "api write_repository" })).params).toMatchObject({ error: "invalid_scope", state: "xyz" });
  });

  it.each(["scope", "response_type", "state", "code_challenge", "nonce"])("%s sent twice", async (name) => {
    const q = new URLSearchParams(base());
    q.append(name, "a");
    q.append(name, "b");
    expect(redirectParams(await failure(q.toString())).params).toMatchObject({ error: "invalid_request" });
  });

  it("plain PKCE or a missing method is refused", async () => {
    for (const method of ["plain", undefined]) {
      const q = { ...base(), code_challenge: CHALLENGE, ...(method === undefined ? {} : { code_challenge_method: method }) };
      expect(redirectParams(await failure(q)).params).toMatchObject({ error: "invalid_request", error_description: "The code_challenge_method must be one of S256." });
    }
  });

  it("a challenge of the wrong shape is refused", async () => {
    expect(redirectParams(await failure({ ...base(), code_challenge: "short", code_challenge_method: "S256" })).params).toMatchObject({ error: "invalid_request" });
  });

  it("a public client without code_challenge is refused", async () => {
    expect(redirectParams(await failure({ ...base(), client_id: publicUid })).params).toMatchObject({
      error: "invalid_request",
      error_description: "Code challenge is required.",
    });
  });

  it("an overlong nonce is refused", async () => {
    expect(redirectParams(await failure({ ...base(), nonce: "n".repeat(513) })).params).toMatchObject({ error: "invalid_request" });
  });
});

describe("validateAuthorizationRequest: success", () => {
  it("defaults the scope to api and keeps state, challenge and nonce", async () => {
    const request = (await validate({ ...base(), code_challenge: CHALLENGE, code_challenge_method: "S256", nonce: "n-1" }))._unsafeUnwrap();
    expect(request).toMatchObject({ redirectUri: "https://a.example/cb", scopes: ["api"], state: "xyz", codeChallenge: CHALLENGE, nonce: "n-1" });
    expect(request.application.uid).toBe(uid);
  });

  it("accepts a loopback redirect on another port and keeps it as sent", async () => {
    const request = (await validate({ ...base(), redirect_uri: "http://127.0.0.1:49152/cb", scope: "read_user openid" }))._unsafeUnwrap();
    expect(request).toMatchObject({ redirectUri: "http://127.0.0.1:49152/cb", scopes: ["read_user", "openid"] });
  });

  it("accepts a public client with S256 and no state", async () => {
    const { state: _s, ...noState } = base();
    const request = (await validate({ ...noState, client_id: publicUid, code_challenge: CHALLENGE, code_challenge_method: "S256" }))._unsafeUnwrap();
    expect(request).toMatchObject({ state: null, codeChallenge: CHALLENGE });
  });
});

describe("appendQuery", () => {
  it("adds ?, & as needed and form-encodes values", () => {
    expect(appendQuery("https://x/cb", [["a", "1 2"]])).toBe("https://x/cb?a=1+2");
    expect(appendQuery("https://x/cb?t=1", [["a", "&"]])).toBe("https://x/cb?t=1&a=%26");
    expect(appendQuery("https://x/cb?", [["a", "b"]])).toBe("https://x/cb?a=b");
    expect(appendQuery("https://x/cb", [])).toBe("https://x/cb");
  });
});

describe("loginRedirectLocation", () => {
  it("sends the visitor to the host's login page with the authorization URL to return to", () => {
    const config = { issuer: "https://code.example.com", loginUrl: "/users/sign_in", returnToParam: "return_to" };
    const location = loginRedirectLocation(config, "client_id=a&state=x%20y");
    expect(location).toBe("/users/sign_in?return_to=https%3A%2F%2Fcode.example.com%2Foauth%2Fauthorize%3Fclient_id%3Da%26state%3Dx%2520y");
    expect(new URL(location, "https://host.example").searchParams.get("return_to")).toBe("https://code.example.com/oauth/authorize?client_id=a&state=x%20y");
    expect(loginRedirectLocation({ ...config, loginUrl: "https://host.example/login?next=1", returnToParam: "back" }, "")).toBe(
      "https://host.example/login?next=1&back=https%3A%2F%2Fcode.example.com%2Foauth%2Fauthorize",
    );
  });
});
