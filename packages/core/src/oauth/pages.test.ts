import { describe, expect, it } from "vitest";
import type { OAuthApplication } from "../ports/oauth-store.js";
import type { AuthorizationRequest } from "./authorize-request.js";
import { renderConsentPage } from "./consent-page.js";
import { renderAuthorizationErrorPage } from "./error-page.js";
import { oauthErrors } from "./errors.js";
import { escapeHtml, formActionSource, PAGE_CSS, pageHeaders } from "./html.js";
import { createHash } from "node:crypto";

const app: OAuthApplication = {
  id: 1, uid: "cid", secretDigest: "d", name: `Evil <script>alert("x")</script> & Co`, redirectUris: ["https://a.example/cb"],
  scopes: ["api", "read_user"], confidential: true, trusted: false, ropcEnabled: false, ownerId: null,
  createdAt: new Date(0), updatedAt: new Date(0),
};
const request: AuthorizationRequest = {
  application: app, redirectUri: "https://a.example/cb?x=1", scopes: ["read_user", "api"], state: `s"><img src=x>`, codeChallenge: "c".repeat(43), nonce: "n1",
};
const page = renderConsentPage({ request, user: { username: "alice", name: "Alice <A>" }, csrfToken: "123.tok", action: "/oauth/authorize" });
const html = String(page.body);

describe("escapeHtml", () => {
  it("escapes the five special characters", () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe("&#60;a href=&#34;x&#34;&#62;&#39;&#38;&#39;&#60;/a&#62;");
  });
});

describe("consent page (checklist A9)", () => {
  it("carries the framing, CSP, referrer and caching headers", () => {
    expect(page.status).toBe(200);
    expect(page.headers["X-Frame-Options"]).toBe("DENY");
    expect(page.headers["Referrer-Policy"]).toBe("no-referrer");
    expect(page.headers["Cache-Control"]).toBe("no-store");
    expect(page.headers["Content-Type"]).toBe("text/html; charset=utf-8");
    const csp = page.headers["Content-Security-Policy"]!;
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("form-action 'self' https://a.example");
    expect(csp).not.toContain("script-src");
    expect(csp).not.toContain("unsafe-inline");
  });

  it("allows exactly its own stylesheet by hash", () => {
    const hash = createHash("sha256").update(PAGE_CSS).digest("base64");
    expect(page.headers["Content-Security-Policy"]).toContain(`style-src 'sha256-${hash}'`);
    expect(html).toContain(`<style>${PAGE_CSS}</style>`);
  });

  it("has no script and no third-party resource", () => {
    expect(html).not.toMatch(/<(script|img|link|iframe|object|embed|svg)\b/i);
    expect(PAGE_CSS).not.toMatch(/url\(|@import/);
    expect(html).not.toMatch(/https?:\/\/(?!a\.example\/)/i);
  });

  it("escapes the application name, user and state", () => {
    expect(html).not.toContain("<script>alert");
    expect(html).toContain("Evil &#60;script&#62;alert(&#34;x&#34;)&#60;/script&#62; &#38; Co");
    expect(html).toContain("Alice &#60;A&#62; (@alice)");
    expect(html).toContain('name="state" value="s&#34;&#62;&#60;img src=x&#62;"');
  });

  it("lists each scope with its plain-word description", () => {
    expect(html).toContain("<li><strong>read_user</strong>: Read your profile: username, name, public email and avatar.</li>");
    expect(html).toMatch(/<li><strong>api<\/strong>: Read and change everything/);
  });

  it("posts the request, the CSRF token and a decision from Approve and Deny buttons", () => {
    expect(html).toContain('<form method="post" action="/oauth/authorize">');
    for (const field of [
      'name="client_id" value="cid"',
      'name="redirect_uri" value="https://a.example/cb?x=1"',
      'name="response_type" value="code"',
      'name="scope" value="read_user api"',
      `name="code_challenge" value="${"c".repeat(43)}"`,
      'name="code_challenge_method" value="S256"',
      'name="nonce" value="n1"',
      'name="consent_token" value="123.tok"',
    ]) expect(html).toContain(field);
    expect(html).toContain('<button type="submit" name="decision" value="approve" class="primary">Approve</button>');
    expect(html).toContain('<button type="submit" name="decision" value="deny">Deny</button>');
  });

  it("is an accessible document: language, title, headings, labelled list", () => {
    expect(html).toMatch(/^<!DOCTYPE html>\n<html lang="en">/);
    expect(html).toContain('<meta name="viewport"');
    expect(html).toContain("<title>Authorize Evil &#60;script&#62;");
    expect(html).toContain('<h1 id="consent-title">');
    expect(html).toContain('<ul aria-labelledby="scopes-title">');
    expect(html).toContain("you will be sent to <code>a.example</code>");
  });

  it("allows a native app's scheme as form target", () => {
    const native = renderConsentPage({ request: { ...request, redirectUri: "com.example.app:/cb" }, user: { username: "a" }, csrfToken: "t", action: "/x" });
    expect(native.headers["Content-Security-Policy"]).toContain("form-action 'self' com.example.app:");
    expect(formActionSource("http://127.0.0.1:5000/cb")).toBe("http://127.0.0.1:5000");
    expect(formActionSource("not a uri")).toBeNull();
  });
});

describe("authorization error page (checklist A2)", () => {
  it("is a 400 HTML page with the escaped description, no Location and no form target", () => {
    const r = renderAuthorizationErrorPage({ code: "invalid_request", description: "<b>bad</b>" });
    expect(r.status).toBe(400);
    expect(r.headers).not.toHaveProperty("Location");
    expect(r.headers["Content-Security-Policy"]).toContain("form-action 'none'");
    expect(r.headers["X-Frame-Options"]).toBe("DENY");
    expect(String(r.body)).toContain("<p>&#60;b&#62;bad&#60;/b&#62;</p>");
    expect(String(r.body)).toContain("An error has occurred");
  });

  it("shows the reference texts for unknown clients and bad redirect URIs", () => {
    expect(String(renderAuthorizationErrorPage(oauthErrors.invalidClient(false)).body)).toContain("failed due to unknown client");
    expect(String(renderAuthorizationErrorPage(oauthErrors.invalidRedirectUri()).body)).toContain("The redirect URI included is not valid.");
    expect(renderAuthorizationErrorPage(oauthErrors.invalidRequest(), 403).status).toBe(403);
  });

  it("uses the same headers as every page", () => {
    expect(pageHeaders()).toMatchObject({ "X-Content-Type-Options": "nosniff", Pragma: "no-cache" });
  });
});
