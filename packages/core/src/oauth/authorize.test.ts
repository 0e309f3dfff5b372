import { beforeEach, describe, expect, it } from "vitest";
import { createOAuthTestKit, type OAuthTestKit, type TestUser } from "../testing/oauth-memory-store/harness.js";
import type { OAuthApplication } from "../ports/oauth-store.js";
import { beginAuthorization, submitConsent, type AuthorizationStep } from "./authorize.js";
import { authorizationRequestParams } from "./authorize-request.js";
import { consentTokenUse, issueConsentToken as issueToken, verifyConsentToken, type ConsentBinding } from "./consent-csrf.js";
import { secretDigest } from "./digest.js";

const CHALLENGE = "2i0WFA-0AerkjQm4X4oDEhqA17QIAKNjXpagHBXmO_U";
let kit: OAuthTestKit;
let app: OAuthApplication;
let alice: TestUser;

beforeEach(async () => {
  kit = createOAuthTestKit();
  app = (await kit.createApp()).application;
  alice = kit.addUser({ username: "alice" });
});

const query = (extra: Record<string, string> = {}) =>
  new URLSearchParams({ client_id: app.uid, redirect_uri: "https://a.example/cb", response_type: "code", state: "s-1", scope: "api openid", ...extra });

async function consentForm(user: TestUser, extra: Record<string, string> = {}): Promise<URLSearchParams> {
  const step = await beginAuthorization(kit.deps, query(extra), user);
  if (step.kind !== "consent") throw new Error(`expected consent, got ${step.kind}`);
  return new URLSearchParams([...authorizationRequestParams(step.request), ["consent_token", step.csrfToken]]);
}

function location(step: AuthorizationStep): URL {
  if (step.kind !== "redirect") throw new Error(`expected a redirect, got ${JSON.stringify(step)}`);
  return new URL(step.location);
}

describe("beginAuthorization", () => {
  it("asks a signed-out visitor to log in, but only for a valid request", async () => {
    expect(await beginAuthorization(kit.deps, query(), null)).toEqual({ kind: "login" });
    expect(await beginAuthorization(kit.deps, query({ client_id: "unknown" }), null)).toMatchObject({ kind: "page", status: 400 });
    expect(location(await beginAuthorization(kit.deps, query({ response_type: "token" }), null)).searchParams.get("error")).toBe("unsupported_response_type");
  });

  it("returns the consent step with a CSRF token bound to the user and request", async () => {
    const step = await beginAuthorization(kit.deps, query(), alice);
    expect(step).toMatchObject({ kind: "consent", request: { scopes: ["api", "openid"], state: "s-1" } });
    expect(await kit.store.oauthCodes.findByDigest(secretDigest("x"))).toBeNull();
  });

  it("approves a trusted application at once", async () => {
    const trusted = (await kit.createApp({ trusted: true })).application;
    const url = location(await beginAuthorization(kit.deps, query({ client_id: trusted.uid }), alice));
    expect(url.origin + url.pathname).toBe("https://a.example/cb");
    expect(url.searchParams.get("code")).toMatch(/^fkoc_[A-Za-z0-9_-]{43}$/);
    expect(url.searchParams.get("state")).toBe("s-1");
    expect(url.searchParams.get("iss")).toBe("https://code.example.com");
  });

  it("refuses a blocked user with a 403 page", async () => {
    const bob = kit.addUser({ username: "bob", state: "blocked" });
    expect(await beginAuthorization(kit.deps, query(), bob)).toMatchObject({ kind: "page", status: 403, error: { code: "access_denied" } });
  });
});

describe("submitConsent", () => {
  it("approve: redirects with code and state; the code is stored as a digest with its bindings", async () => {
    const form = await consentForm(alice, { code_challenge: CHALLENGE, code_challenge_method: "S256", nonce: "n-1" });
    form.set("decision", "approve");
    const url = location(await submitConsent(kit.deps, form, alice));
    const code = url.searchParams.get("code")!;
    expect(url.searchParams.get("state")).toBe("s-1");
    const row = await kit.store.oauthCodes.findByDigest(secretDigest(code));
    expect(row).toMatchObject({
      applicationId: app.id,
      userId: alice.id,
      redirectUri: "https://a.example/cb",
      scopes: ["api", "openid"],
      codeChallenge: CHALLENGE,
      nonce: "n-1",
      expiresAt: new Date(kit.clock.now().getTime() + 600_000),
      consumedAt: null,
    });
    expect(JSON.stringify(row)).not.toContain(code);
    expect(kit.logs.map((l) => l.event)).toContain("oauth.authorization_granted");
    expect(JSON.stringify(kit.logs)).not.toContain(code);
  });

  it("deny: redirects with access_denied and the state", async () => {
    const form = await consentForm(alice);
    form.set("decision", "deny");
    const url = location(await submitConsent(kit.deps, form, alice));
    expect(Object.fromEntries(url.searchParams)).toEqual({
      error: "access_denied",
      error_description: "The resource owner or authorization server denied the request.",
      state: "s-1",
      iss: "https://code.example.com",
    });
  });

  it("refuses a post without a CSRF token (403 page, no code)", async () => {
    const form = await consentForm(alice);
    form.delete("consent_token");
    form.set("decision", "approve");
    expect(await submitConsent(kit.deps, form, alice)).toMatchObject({ kind: "page", status: 403 });
  });

  it("refuses a token issued to another user or for another request", async () => {
    const bob = kit.addUser({ username: "bob" });
    const form = await consentForm(alice);
    form.set("decision", "approve");
    expect(await submitConsent(kit.deps, form, bob)).toMatchObject({ kind: "page", status: 403 });
    const widened = new URLSearchParams(form);
    widened.set("scope", "api openid read_user");
    expect(await submitConsent(kit.deps, widened, alice)).toMatchObject({ kind: "page", status: 403 });
    const otherState = new URLSearchParams(form);
    otherState.set("state", "s-2");
    expect(await submitConsent(kit.deps, otherState, alice)).toMatchObject({ kind: "page", status: 403 });
  });

  it("refuses a stale form after the consent lifetime", async () => {
    const form = await consentForm(alice);
    form.set("decision", "approve");
    kit.clock.advance(3601);
    expect(await submitConsent(kit.deps, form, alice)).toMatchObject({ kind: "page", status: 403 });
  });

  it("accepts the form just inside the consent lifetime", async () => {
    const form = await consentForm(alice);
    form.set("decision", "approve");
    kit.clock.advance(3599);
    expect((await submitConsent(kit.deps, form, alice)).kind).toBe("redirect");
  });

  it("a consent token works once: a replay (approve or deny) gets the stale-form page and issues no code", async () => {
    const form = await consentForm(alice);
    form.set("decision", "approve");
    const first = location(await submitConsent(kit.deps, form, alice));
    expect(first.searchParams.get("code")).not.toBeNull();
    const codesBefore = kit.logs.filter((l) => l.event === "oauth.authorization_granted").length;
    for (const decision of ["approve", "deny"]) {
      form.set("decision", decision);
      expect(await submitConsent(kit.deps, form, alice)).toMatchObject({ kind: "page", status: 403, error: { code: "invalid_request" } });
    }
    expect(kit.logs.filter((l) => l.event === "oauth.authorization_granted")).toHaveLength(codesBefore);
    expect(kit.logs.filter((l) => l.event === "oauth.consent_replayed")).toHaveLength(2);
  });

  it("a denied form cannot be approved afterwards", async () => {
    const form = await consentForm(alice);
    form.set("decision", "deny");
    expect(location(await submitConsent(kit.deps, form, alice)).searchParams.get("error")).toBe("access_denied");
    form.set("decision", "approve");
    expect(await submitConsent(kit.deps, form, alice)).toMatchObject({ kind: "page", status: 403 });
  });

  it("two concurrent posts of one form: exactly one code", async () => {
    const form = await consentForm(alice);
    form.set("decision", "approve");
    const steps = await Promise.all(Array.from({ length: 8 }, () => submitConsent(kit.deps, new URLSearchParams(form), alice)));
    expect(steps.filter((s) => s.kind === "redirect")).toHaveLength(1);
    expect(steps.filter((s) => s.kind === "page" && s.status === 403)).toHaveLength(7);
  });

  it("two forms rendered for the same request in the same second each work once", async () => {
    const a = await consentForm(alice);
    const b = await consentForm(alice);
    expect(a.get("consent_token")).not.toBe(b.get("consent_token"));
    for (const form of [a, b]) {
      form.set("decision", "approve");
      expect((await submitConsent(kit.deps, form, alice)).kind).toBe("redirect");
    }
  });

  it("a missing or unknown decision does not use the token up", async () => {
    const form = await consentForm(alice);
    form.set("decision", "maybe");
    expect(await submitConsent(kit.deps, form, alice)).toMatchObject({ kind: "page", status: 400 });
    form.set("decision", "approve");
    expect((await submitConsent(kit.deps, form, alice)).kind).toBe("redirect");
  });

  it("refuses a missing or unknown decision with a 400 page", async () => {
    const form = await consentForm(alice);
    expect(await submitConsent(kit.deps, form, alice)).toMatchObject({ kind: "page", status: 400 });
    form.set("decision", "maybe");
    expect(await submitConsent(kit.deps, form, alice)).toMatchObject({ kind: "page", status: 400 });
  });

  it("validates the posted request again", async () => {
    const form = await consentForm(alice);
    form.set("decision", "approve");
    form.set("redirect_uri", "https://evil.example/cb");
    expect(await submitConsent(kit.deps, form, alice)).toMatchObject({ kind: "page", error: { code: "invalid_redirect_uri" } });
  });
});

describe("consent tokens", () => {
  const random = { read: (bytes: Uint8Array) => void globalThis.crypto.getRandomValues(bytes) };
  const issueConsentToken = (k: Uint8Array, binding: ConsentBinding, at: Date) => issueToken(k, binding, at, random);
  const key = new Uint8Array(32).fill(7);
  const b: ConsentBinding = { userId: 1, clientId: "c", redirectUri: "https://a/cb", scopes: ["api"], state: null, codeChallenge: null, nonce: null };
  const now = new Date("2030-01-01T00:00:00Z");

  it("verifies for the same binding and key only", () => {
    const token = issueConsentToken(key, b, now);
    expect(verifyConsentToken(key, b, token, now, 60)).toBe(true);
    expect(verifyConsentToken(new Uint8Array(32).fill(8), b, token, now, 60)).toBe(false);
    expect(verifyConsentToken(key, { ...b, nonce: "n" }, token, now, 60)).toBe(false);
    expect(verifyConsentToken(key, { ...b, state: "" }, token, now, 60)).toBe(false);
  });

  it("refuses tokens from the future, expired ones and malformed ones", () => {
    const future = issueConsentToken(key, b, new Date(now.getTime() + 120_000));
    expect(verifyConsentToken(key, b, future, now, 600)).toBe(false);
    const old = issueConsentToken(key, b, new Date(now.getTime() - 61_000));
    expect(verifyConsentToken(key, b, old, now, 60)).toBe(false);
    for (const t of [undefined, "", "abc", "1.2", `${issueConsentToken(key, b, now)}x`]) expect(verifyConsentToken(key, b, t, now, 60)).toBe(false);
  });

  it("each token is distinct, and its random part is bound by the HMAC", () => {
    const one = issueConsentToken(key, b, now);
    const two = issueConsentToken(key, b, now);
    expect(one).not.toBe(two);
    const [issuedAt, , tag] = one.split(".");
    const swapped = `${issuedAt!}.${two.split(".")[1]!}.${tag!}`;
    expect(verifyConsentToken(key, b, swapped, now, 60)).toBe(false);
  });

  it("consentTokenUse: the digest, and the instant the token stops verifying (issued + lifetime + skew)", () => {
    const token = issueConsentToken(key, b, now);
    expect(consentTokenUse(token, 600)).toEqual({ digest: secretDigest(token), expiresAt: new Date(now.getTime() + 660_000) });
  });
});
