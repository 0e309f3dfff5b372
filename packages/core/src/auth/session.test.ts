/** The host's session (ports/host.ts SessionResolver): the cookie it lives in, or the whole request. */
import { describe, expect, it } from "vitest";
import type { SessionRequest, SessionResolver } from "../ports/host.js";
import { createTestForgekit } from "../testing/fixtures.js";
import type { HttpRequest } from "../http/types.js";

const get = (headers: Record<string, string>, method = "GET"): HttpRequest => ({ method, path: "/api/v4/user", rawQuery: "", headers });

async function instanceWith(session: SessionResolver) {
  const t = await createTestForgekit({ session });
  const alice = await t.createUser({ username: "host-user" });
  return { t, alice };
}

describe("session resolver", () => {
  it("reads `_service_session` by default and hands resolve the cookie value and the request", async () => {
    const seen: { value: string; request: SessionRequest }[] = [];
    let aliceId = 0;
    const { t, alice } = await instanceWith({
      resolve: (value, request) => {
        seen.push({ value, request });
        return Promise.resolve(value === "s-alice" ? aliceId : null);
      },
    });
    aliceId = alice.id;
    const response = await t.fk.handle(get({ cookie: "theme=dark; _service_session=s-alice", "x-forwarded-for": "10.0.0.1" }));
    expect(response.status).toBe(200);
    expect(seen).toHaveLength(1);
    expect(seen[0]?.value).toBe("s-alice");
    expect(seen[0]?.request).toMatchObject({ method: "GET", path: "/api/v4/user", cookies: { theme: "dark", _service_session: "s-alice" } });
    expect(seen[0]?.request.headers["x-forwarded-for"]).toBe("10.0.0.1");
    // Without the cookie the resolver is not asked.
    expect((await t.fk.handle(get({ cookie: "theme=dark" }))).status).toBe(401);
    expect(seen).toHaveLength(1);
  });

  it("reads the cookie the host names (`connect.sid`) and ignores `_service_session` then", async () => {
    let aliceId = 0;
    const { t, alice } = await instanceWith({ cookieName: "connect.sid", resolve: (value) => Promise.resolve(value === "s:abc.sig" ? aliceId : null) });
    aliceId = alice.id;
    expect((await t.fk.handle(get({ cookie: "connect.sid=s%3Aabc.sig" }))).status).toBe(200);
    expect((await t.fk.handle(get({ cookie: "_service_session=s:abc.sig" }))).status).toBe(401);
  });

  it("with `cookieName: null`, asks resolve for every request without other credentials (a header session)", async () => {
    let aliceId = 0;
    const calls: string[] = [];
    const { t, alice } = await instanceWith({
      cookieName: null,
      resolve: (value, request) => {
        calls.push(value);
        return Promise.resolve(request.headers["x-host-session"] === "jwt-for-alice" ? aliceId : null);
      },
    });
    aliceId = alice.id;
    const me = await t.fk.handle(get({ "x-host-session": "jwt-for-alice" }));
    expect(me.status).toBe(200);
    expect((await t.fk.handle(get({}))).status).toBe(401);
    expect(calls).toEqual(["", ""]);
    // A token still wins over the session (step order), and the resolver is not asked then.
    const token = await t.createToken(alice.id);
    expect((await t.fk.handle(get({ "private-token": token.plaintext }))).status).toBe(200);
    expect(calls).toHaveLength(2);
  });

  it("authenticates an unsafe request only with a CSRF token verifyCsrfToken accepts (it gets the request too)", async () => {
    let aliceId = 0;
    const csrf: { value: string; token: string; method: string }[] = [];
    const { t, alice } = await instanceWith({
      cookieName: "koa.sess",
      resolve: (value) => Promise.resolve(value === "k1" ? aliceId : null),
      verifyCsrfToken: (value, token, request) => {
        csrf.push({ value, token, method: request.method });
        return Promise.resolve(token === "good");
      },
    });
    aliceId = alice.id;
    // Creating an impersonation token needs an administrator: a session that authenticates gets 403, one that does not 401.
    const post = (headers: Record<string, string>): HttpRequest => ({
      method: "POST",
      path: `/api/v4/users/${aliceId}/impersonation_tokens`,
      rawQuery: "",
      headers: { "content-type": "application/json", ...headers },
      body: new TextEncoder().encode('{"name":"x","scopes":["api"]}'),
    });
    expect((await t.fk.handle(post({ cookie: "koa.sess=k1" }))).status).toBe(401);
    expect((await t.fk.handle(post({ cookie: "koa.sess=k1", "x-csrf-token": "bad" }))).status).toBe(401);
    expect((await t.fk.handle(post({ cookie: "koa.sess=k1", "x-csrf-token": "good" }))).status).toBe(403);
    expect(csrf.slice(0, 1)).toEqual([{ value: "k1", token: "bad", method: "POST" }]);
  });
});

describe("configuration `session`", () => {
  it("refuses a cookie name that is not a cookie name", async () => {
    await expect(createTestForgekit({ session: { cookieName: "my session", resolve: () => Promise.resolve(null) } })).rejects.toThrow(
      "session cookieName must be a cookie name (letters, digits and !#$%&'*+-.^_`|~) or null",
    );
  });
});
