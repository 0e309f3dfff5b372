import { describe, expect, it } from "vitest";
import type { HttpRequest, Route } from "../http/types.js";
import { createTestForgekit } from "../testing/fixtures.js";
import { createAuthenticator } from "./authenticate.js";
import { bearerToken, cookieFrom, privateTokenFrom } from "./credentials.js";
import { acceptedScopes, registeredScopes, scopesSufficient } from "./scopes.js";

const request = (method: string, headers: Record<string, string> = {}): HttpRequest => ({ method, path: "/api/v4/x", rawQuery: "", headers });
const jobRoute: Pick<Route, "auth"> = { auth: { mode: "required", jobToken: true } };
const plainRoute: Pick<Route, "auth"> = { auth: { mode: "required" } };
const optionalRoute: Pick<Route, "auth"> = { auth: { mode: "optional" } };

async function world() {
  const jobs = new Map<string, { userId: number; projectId: number }>();
  const t = await createTestForgekit({ jobTokens: { resolve: (token) => Promise.resolve(jobs.get(token) ?? null) } });
  jobs.set("job-1", { userId: t.users.bob.id, projectId: t.projects.privateProject.id });
  return { t, authenticate: createAuthenticator(t.fk.config) };
}

describe("authenticate", () => {
  it("job token: JOB-TOKEN header or job_token parameter, only on routes that allow it", async () => {
    const { t, authenticate } = await world();
    const viaHeader = (await authenticate(request("GET", { "job-token": "job-1" }), {}, jobRoute))._unsafeUnwrap();
    expect(viaHeader).toMatchObject({ user: { id: t.users.bob.id }, credential: { kind: "job", scopes: null }, jobProjectId: t.projects.privateProject.id });
    const viaParam = (await authenticate(request("POST"), { job_token: "job-1" }, jobRoute))._unsafeUnwrap();
    expect(viaParam.user?.id).toBe(t.users.bob.id);
    expect((await authenticate(request("GET", { "job-token": "job-1" }), {}, plainRoute))._unsafeUnwrapErr()).toEqual({ code: "unauthorized" });
  });

  it("job token: an unknown one → 401; personal tokens still win over it", async () => {
    const { t, authenticate } = await world();
    expect((await authenticate(request("GET", { "job-token": "nope" }), {}, jobRoute))._unsafeUnwrapErr()).toEqual({ code: "unauthorized" });
    const both = (await authenticate(request("GET", { "job-token": "job-1", "private-token": t.tokens.alice }), {}, jobRoute))._unsafeUnwrap();
    expect(both.credential?.kind).toBe("personal");
  });

  it("job token cannot be used for sudo", async () => {
    const { t, authenticate } = await world();
    (await t.fk.users.setAdmin(t.users.bob.id, true))._unsafeUnwrap();
    expect((await authenticate(request("GET", { "job-token": "job-1", sudo: "alice" }), {}, jobRoute))._unsafeUnwrapErr()).toEqual({
      code: "forbidden",
      reason: "Must be authenticated using an OAuth or personal access token to use sudo",
    });
  });

  it("anonymous on an optional route is the anonymous identity", async () => {
    const { authenticate } = await world();
    expect((await authenticate(request("GET"), {}, optionalRoute))._unsafeUnwrap()).toEqual({ user: null, credential: null });
  });

  it("an OAuth token whose user vanished → 401", async () => {
    const t = await createTestForgekit({
      oauthTokens: { find: () => Promise.resolve({ id: 1, userId: 9999, scopes: ["api"], expiresAt: null, revokedAt: null, applicationId: null }) },
    });
    const authenticate = createAuthenticator(t.fk.config);
    expect((await authenticate(request("GET", { authorization: "Bearer x" }), {}, plainRoute))._unsafeUnwrapErr()).toEqual({ code: "unauthorized" });
  });

  it("sudo identity records the administrator", async () => {
    const { t, authenticate } = await world();
    const identity = (await authenticate(request("GET", { "private-token": t.tokens.root }), { sudo: "alice" }, plainRoute))._unsafeUnwrap();
    expect(identity.user?.username).toBe("alice");
    expect(identity.sudoFrom?.username).toBe("root");
    expect(identity.credential?.kind).toBe("personal");
  });

  it("a store failure becomes internal, never a thrown error", async () => {
    const t = await createTestForgekit();
    const down = () => Promise.reject(new Error("db down"));
    const broken = { ...t.fk.config, store: { ...t.store, accessTokens: { ...t.store.accessTokens, findByDigest: down, findByDigestWithUser: down } } };
    const authenticate = createAuthenticator(broken);
    expect((await authenticate(request("GET", { "private-token": "x" }), {}, plainRoute))._unsafeUnwrapErr().code).toBe("internal");
  });
});

describe("credential readers", () => {
  it("Bearer scheme is case-insensitive; blank values are absent", () => {
    expect(bearerToken(request("GET", { authorization: "bearer abc" }))).toBe("abc");
    expect(bearerToken(request("GET", { authorization: "Basic abc" }))).toBeUndefined();
    expect(privateTokenFrom(request("GET", { "private-token": "  " }), { private_token: "" })).toBeUndefined();
  });

  it("cookies are split and decoded", () => {
    expect(cookieFrom(request("GET", { cookie: "a=1; _service_session=x%20y; b=2" }), "_service_session")).toBe("x y");
    expect(cookieFrom(request("GET", { cookie: "a=1" }), "_service_session")).toBeUndefined();
  });
});

describe("scopes", () => {
  const userRoute: Pick<Route, "auth"> = { auth: { mode: "required", extraScopes: [{ scope: "read_user", readOnly: true }] } };

  it("api always, read_api and read-only extras on GET/HEAD only", () => {
    expect(acceptedScopes(userRoute, "GET")).toEqual(["read_user", "api", "read_api"]);
    expect(acceptedScopes(userRoute, "POST")).toEqual(["api"]);
    expect(scopesSufficient(["read_user"], userRoute, "HEAD")).toBe(true);
    expect(scopesSufficient(["read_user"], userRoute, "PUT")).toBe(false);
  });

  it("the insufficient_scope value lists the route's scopes, then api read_api", () => {
    expect(registeredScopes(userRoute)).toEqual(["read_user", "api", "read_api"]);
    expect(registeredScopes(plainRoute)).toEqual(["api", "read_api"]);
  });
});
