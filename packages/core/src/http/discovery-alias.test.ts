import { describe, expect, it } from "vitest";
import { createTestForgekit } from "../testing/fixtures.js";
import { aliasedTarget, discoveryAliases } from "./discovery-alias.js";
import { toFetchHandler } from "./fetch.js";

describe("discoveryAliases", () => {
  it("inserts the well-known path before an issuer's path (RFC 8414 §3.1)", () => {
    expect(discoveryAliases("https://example.com/forge/sub")).toEqual({
      "/.well-known/oauth-authorization-server/forge/sub": "/.well-known/oauth-authorization-server",
      "/.well-known/openid-configuration/forge/sub": "/.well-known/openid-configuration",
    });
  });

  it("has none for an issuer at the root", () => {
    expect(discoveryAliases("https://example.com")).toEqual({});
  });
});

describe("aliasedTarget", () => {
  const aliases = discoveryAliases("https://example.com/forge");
  it("maps GET and HEAD of an alias (absolute or origin form, query kept)", () => {
    expect(aliasedTarget("GET", "/.well-known/oauth-authorization-server/forge?x=1", aliases)).toEqual({ path: "/.well-known/oauth-authorization-server", rawQuery: "x=1" });
    expect(aliasedTarget("HEAD", "https://example.com/.well-known/openid-configuration/forge", aliases)).toEqual({ path: "/.well-known/openid-configuration", rawQuery: "" });
  });

  it("leaves other methods and paths alone", () => {
    expect(aliasedTarget("POST", "/.well-known/oauth-authorization-server/forge", aliases)).toBeNull();
    expect(aliasedTarget("GET", "/.well-known/oauth-authorization-server/forgery", aliases)).toBeNull();
    expect(aliasedTarget("GET", "/.well-known/oauth-authorization-server", aliases)).toBeNull();
  });
});

describe("fetch handler", () => {
  it("answers the path-inserted discovery URL whatever its prefix", async () => {
    const t = await createTestForgekit({ baseUrl: "https://example.com/forge" });
    const handler = toFetchHandler(t.fk, { prefix: "/forge" });
    const r = await handler(new Request("https://example.com/.well-known/oauth-authorization-server/forge"));
    expect(r.status).toBe(200);
    expect(((await r.json()) as { issuer: string }).issuer).toBe("https://example.com/forge");
  });
});
