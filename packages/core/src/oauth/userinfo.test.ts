import { describe, expect, it } from "vitest";
import { buildUserinfoClaims, type UserinfoProfile } from "./userinfo.js";

const profile: UserinfoProfile = {
  id: 42,
  username: "alice",
  name: "Alice Example",
  profileUrl: "https://code.example.com/alice",
  avatarUrl: "https://code.example.com/avatar/42.png",
  groups: ["grp", "grp/sub"],
  primaryEmail: { address: "alice@corp.example", verified: true },
  publicEmail: null,
};

describe("buildUserinfoClaims", () => {
  it("gives sub as a string and the profile claims with openid", () => {
    expect(buildUserinfoClaims(profile, ["openid"])).toEqual({
      sub: "42",
      name: "Alice Example",
      nickname: "alice",
      preferred_username: "alice",
      profile: "https://code.example.com/alice",
      picture: "https://code.example.com/avatar/42.png",
      groups: ["grp", "grp/sub"],
    });
  });

  it("adds the primary email and its verification with the email scope", () => {
    expect(buildUserinfoClaims(profile, ["openid", "email"])).toMatchObject({ email: "alice@corp.example", email_verified: true });
  });

  it("shows only a public email without the email scope, and none when there is none", () => {
    const withPublic = { ...profile, publicEmail: { address: "a@public.example", verified: false } };
    expect(buildUserinfoClaims(withPublic, ["openid"])).toMatchObject({ email: "a@public.example", email_verified: false });
    expect(buildUserinfoClaims(profile, ["openid"])).not.toHaveProperty("email_verified");
  });

  it("drops empty values", () => {
    const bare = buildUserinfoClaims({ ...profile, name: "", avatarUrl: null, website: "" }, ["openid"]);
    expect(bare).not.toHaveProperty("name");
    expect(bare).not.toHaveProperty("picture");
    expect(bare).not.toHaveProperty("website");
    expect(buildUserinfoClaims({ ...profile, website: "https://alice.example" }, ["openid"]).website).toBe("https://alice.example");
  });
});
