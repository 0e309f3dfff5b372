import { beforeEach, describe, expect, it } from "vitest";
import type { OAuthApplication } from "../ports/oauth-store.js";
import { createOAuthTestKit, type OAuthTestKit } from "../testing/oauth-memory-store/harness.js";
import { authenticateClient } from "./client-auth.js";
import type { ClientCredentials } from "./client-credentials.js";
import type { OAuthOptions } from "./config.js";

let kit: OAuthTestKit;
let app: OAuthApplication;
let secret: string;
let pub: OAuthApplication;

async function setup(options: OAuthOptions = {}) {
  kit = createOAuthTestKit(options);
  ({ application: app, clientSecret: secret } = await kit.createApp());
  pub = (await kit.createApp({ confidential: false })).application;
}
beforeEach(() => setup());

const creds = (a: OAuthApplication, s: string | null): ClientCredentials => ({ clientId: a.uid, clientSecret: s, basic: false });
const auth = async (c: ClientCredentials, address?: string) => authenticateClient(kit.deps, c, address);
const codeOf = async (c: ClientCredentials, address?: string) => {
  const r = await auth(c, address);
  return r.isOk() ? "ok" : r.error.code;
};

describe("authenticateClient: throttling without lockout by strangers (B5, issue 8)", () => {
  it("ten wrong secrets from a stranger leave the client that presents its secret unaffected", async () => {
    for (let i = 0; i < 10; i++) expect(await codeOf(creds(app, "wrong"), "203.0.113.7")).toBe("invalid_client");
    // Further wrong secrets for the id are answered 429, from any address and from none…
    expect(await codeOf(creds(app, "wrong"), "198.51.100.1")).toBe("rate_limited");
    expect(await codeOf(creds(app, "wrong"))).toBe("rate_limited");
    // …but the real client is served, with or without an address.
    expect(await codeOf(creds(app, secret), "192.0.2.10")).toBe("ok");
    expect(await codeOf(creds(app, secret))).toBe("ok");
    expect(kit.logs.filter((l) => l.event === "oauth.rate_limited").map((l) => l.fields?.kind)).toEqual(["client", "client"]);
  });

  it("a public client, identified by id alone, is not locked out by wrong secrets sent for its id", async () => {
    for (let i = 0; i < 12; i++) expect(await codeOf(creds(pub, "guess"), `203.0.113.${i}`)).not.toBe("ok");
    expect(await codeOf(creds(pub, null), "192.0.2.10")).toBe("ok");
  });

  it("the attacker's address is refused before anything is checked, even with a right secret, until the window ends", async () => {
    await setup({ rateLimit: { maxFailuresPerAddress: 5, windowSeconds: 60 } });
    const other = await kit.createApp();
    for (let i = 0; i < 5; i++) expect(await codeOf(creds(other.application, `wrong-${i}`), "203.0.113.7")).toBe("invalid_client");
    const blocked = await auth(creds(app, secret), "203.0.113.7");
    expect(blocked._unsafeUnwrapErr()).toMatchObject({ code: "rate_limited", retryAfterSeconds: 60 });
    expect(kit.logs.at(-1)).toMatchObject({ event: "oauth.rate_limited", fields: { kind: "address" } });
    expect(await codeOf(creds(app, secret), "192.0.2.10")).toBe("ok");
    kit.clock.advance(60);
    expect(await codeOf(creds(app, secret), "203.0.113.7")).toBe("ok");
  });

  it("a success does not reset the address count (an attacker's own client cannot buy more guesses)", async () => {
    await setup({ rateLimit: { maxFailuresPerAddress: 3, windowSeconds: 60 } });
    expect(await codeOf(creds(app, "x"), "203.0.113.7")).toBe("invalid_client");
    expect(await codeOf(creds(app, "y"), "203.0.113.7")).toBe("invalid_client");
    expect(await codeOf(creds(app, secret), "203.0.113.7")).toBe("ok");
    expect(await codeOf(creds(app, "z"), "203.0.113.7")).toBe("invalid_client");
    expect(await codeOf(creds(app, secret), "203.0.113.7")).toBe("rate_limited");
  });
});
