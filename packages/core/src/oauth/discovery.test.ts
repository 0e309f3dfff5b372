import { describe, expect, it } from "vitest";
import { buildDiscoveryDocument, renderPublicJson } from "./discovery.js";

describe("buildDiscoveryDocument", () => {
  const doc = buildDiscoveryDocument("https://code.example.com/forge");

  it("names the issuer exactly and the endpoints below it", () => {
    expect(doc.issuer).toBe("https://code.example.com/forge");
    expect(doc.authorization_endpoint).toBe("https://code.example.com/forge/oauth/authorize");
    expect(doc.token_endpoint).toBe("https://code.example.com/forge/oauth/token");
    expect(doc.revocation_endpoint).toBe("https://code.example.com/forge/oauth/revoke");
    expect(doc.userinfo_endpoint).toBe("https://code.example.com/forge/oauth/userinfo");
    expect(doc.jwks_uri).toBe("https://code.example.com/forge/oauth/discovery/keys");
  });

  it("advertises S256 only, the code flow only, RS256 and the supported grants", () => {
    expect(doc.code_challenge_methods_supported).toEqual(["S256"]);
    expect(doc.response_types_supported).toEqual(["code"]);
    expect(doc.id_token_signing_alg_values_supported).toEqual(["RS256"]);
    expect(doc.grant_types_supported).toEqual(["authorization_code", "refresh_token", "password"]);
    expect(doc.grant_types_supported).not.toContain("implicit");
    expect(doc.scopes_supported).toEqual(expect.arrayContaining(["openid", "profile", "email", "api", "read_user"]));
    expect(doc.authorization_response_iss_parameter_supported).toBe(true);
  });

  it("renders as exactly application/json", () => {
    const r = renderPublicJson(doc);
    expect(r.status).toBe(200);
    expect(r.headers["Content-Type"]).toBe("application/json");
    expect(JSON.parse(String(r.body))).toEqual(doc);
  });
});
