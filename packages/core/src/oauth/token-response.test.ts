import { describe, expect, it } from "vitest";
import type { OAuthToken } from "../ports/oauth-store.js";
import { buildTokenInfo } from "./token-info.js";
import { buildTokenResponse, renderTokenResponse, type IssuedTokens } from "./token-response.js";

const createdAt = new Date("2030-01-01T00:00:00.000Z");
const issued: IssuedTokens = { accessToken: "fkoa_a", refreshToken: "fkor_r", expiresIn: 7200, scopes: ["api", "read_user"], createdAt };

describe("buildTokenResponse (spec token response)", () => {
  it("code and refresh grants carry refresh_token, scope string and created_at, in that order", () => {
    for (const grant of ["authorization_code", "refresh_token"] as const) {
      const body = buildTokenResponse(grant, issued);
      expect(JSON.stringify(body)).toBe(
        '{"access_token":"fkoa_a","token_type":"bearer","expires_in":7200,"refresh_token":"fkor_r","scope":"api read_user","created_at":1893456000}',
      );
    }
  });

  it("adds id_token when one was issued", () => {
    expect(buildTokenResponse("authorization_code", { ...issued, idToken: "h.p.s" }).id_token).toBe("h.p.s");
  });

  it("the password grant returns only access_token, token_type and expires_in", () => {
    expect(buildTokenResponse("password", { ...issued, idToken: "h.p.s" })).toEqual({ access_token: "fkoa_a", token_type: "bearer", expires_in: 7200 });
  });

  it("omits (never nulls) what is absent", () => {
    const body = buildTokenResponse("authorization_code", { ...issued, refreshToken: null, expiresIn: null, scopes: [] });
    expect(body).toEqual({ access_token: "fkoa_a", token_type: "bearer", created_at: 1893456000 });
  });

  it("renders 200 with the no-store headers", () => {
    const r = renderTokenResponse(buildTokenResponse("password", issued));
    expect(r.status).toBe(200);
    expect(r.headers).toEqual({ "Content-Type": "application/json", "Cache-Control": "no-store", Pragma: "no-cache" });
    expect(JSON.parse(String(r.body))).toEqual({ access_token: "fkoa_a", token_type: "bearer", expires_in: 7200 });
  });
});

describe("buildTokenInfo (spec token info)", () => {
  const token: OAuthToken = {
    id: 1, familyId: "f", applicationId: 3, userId: 42, accessDigest: "a", refreshDigest: "r", scopes: ["api"], expiresIn: 7200,
    expiresAt: new Date(createdAt.getTime() + 7_200_000), refreshExpiresAt: null, familyCreatedAt: createdAt, previousId: null,
    createdAt, revokedAt: null, rotatedAt: null,
  };

  it("has exactly the seven keys, with the deprecated aliases", () => {
    const now = new Date(createdAt.getTime() + 200_400);
    expect(buildTokenInfo(token, "uid-1", now)).toEqual({
      resource_owner_id: 42,
      scope: ["api"],
      expires_in: 7000,
      application: { uid: "uid-1" },
      created_at: 1893456000,
      scopes: ["api"],
      expires_in_seconds: 7000,
    });
  });

  it("gives null expiry for a token that never expires, and null uid without application", () => {
    const info = buildTokenInfo({ ...token, expiresAt: null, expiresIn: null }, null, createdAt);
    expect(info).toMatchObject({ expires_in: null, expires_in_seconds: null, application: { uid: null } });
  });

  it("never gives a negative remaining time", () => {
    expect(buildTokenInfo(token, "u", new Date(createdAt.getTime() + 9_000_000)).expires_in).toBe(0);
  });
});
