import { beforeEach, describe, expect, it } from "vitest";
import { createTestForgekit, must, type TestForgekit } from "../testing/fixtures.js";
import { memoryStore } from "../memory-store/index.js";
import { CLIENT_KEY_PREFIX, generatePublicKey, sentryDsn } from "./entities.js";

const exception = (type: string, value = "v") => ({ exception: { values: [{ type, value }] } });

let t: TestForgekit;
let projectId: number;
beforeEach(async () => {
  t = await createTestForgekit();
  projectId = t.projects.publicProject.id;
});

describe("sentryDsn", () => {
  it("scheme, key as user, host, non-default port, base path, collector path and project id", () => {
    expect(sentryDsn("https://code.example.com", "fket_1", 5)).toBe("https://fket_1@code.example.com/api/v4/error_tracking/collector/5");
    expect(sentryDsn("http://127.0.0.1:8080/forge", "fket_1", 5)).toBe("http://fket_1@127.0.0.1:8080/forge/api/v4/error_tracking/collector/5");
    expect(sentryDsn("https://code.example.com:443/", "fket_1", 5)).toBe("https://fket_1@code.example.com/api/v4/error_tracking/collector/5");
    expect(sentryDsn("https://user:pw@code.example.com/a/b", "fket_1", 5)).toBe("https://fket_1@code.example.com/a/b/api/v4/error_tracking/collector/5");
  });
  it("public keys: the service prefix and 32 hex digits from the Random port (word characters only)", () => {
    const key = generatePublicKey({ read: (bytes) => bytes.fill(0xab) });
    expect(key).toBe(`${CLIENT_KEY_PREFIX}${"ab".repeat(16)}`);
    expect(key).toMatch(/^\w+$/);
  });
});

describe("fk.errorTracking settings", () => {
  it("get and patch are 404 Error Tracking Setting until put creates them", async () => {
    expect((await t.fk.errorTracking.getSettings(projectId))._unsafeUnwrapErr()).toEqual({ code: "not_found", thing: "Error Tracking Setting" });
    expect((await t.fk.errorTracking.patchSettings(projectId, { active: true }))._unsafeUnwrapErr()).toEqual({ code: "not_found", thing: "Error Tracking Setting" });
    await must(t.fk.errorTracking.putSettings(projectId, { active: true, integrated: true }));
    expect(await must(t.fk.errorTracking.patchSettings(projectId, { active: false }))).toMatchObject({ active: false, integrated: true });
    expect(await must(t.fk.errorTracking.getSettings(projectId))).toMatchObject({ active: false, integrated: true, createdAt: t.clock.now() });
  });
  it("put for an unknown project is 404 Project, not a storage failure", async () => {
    expect((await t.fk.errorTracking.putSettings(999_999, { active: true, integrated: true }))._unsafeUnwrapErr()).toEqual({ code: "not_found", thing: "Project" });
  });
});

describe("fk.errorTracking client keys", () => {
  it("create, list by id, deactivate, delete; unknown keys are record_not_found", async () => {
    const a = await must(t.fk.errorTracking.createClientKey(projectId));
    const b = await must(t.fk.errorTracking.createClientKey(projectId));
    expect(a.publicKey).toMatch(/^fket_[0-9a-f]{32}$/);
    expect(a.publicKey).not.toBe(b.publicKey);
    expect(t.fk.errorTracking.dsn(a)).toBe(`https://${a.publicKey}@forge.example.com/api/v4/error_tracking/collector/${projectId}`);
    expect((await must(t.fk.errorTracking.listClientKeys(projectId, { perPage: 1 })))).toMatchObject({ items: [a], total: 2, hasNext: true });
    expect(await must(t.fk.errorTracking.setClientKeyActive(projectId, a.id, false))).toMatchObject({ active: false });
    expect(await must(t.fk.errorTracking.findClientKey(projectId, b.id))).toEqual(b);
    expect(await must(t.fk.errorTracking.deleteClientKey(projectId, b.id))).toEqual(b);
    expect((await t.fk.errorTracking.findClientKey(projectId, b.id))._unsafeUnwrapErr()).toEqual({ code: "record_not_found" });
    expect((await t.fk.errorTracking.deleteClientKey(projectId, b.id))._unsafeUnwrapErr()).toEqual({ code: "record_not_found" });
    expect((await t.fk.errorTracking.setClientKeyActive(t.projects.hidden.id, a.id, true))._unsafeUnwrapErr()).toEqual({ code: "record_not_found" });
  });
  it("page options outside page ≥ 1 and perPage 1…100 are invalid_param", async () => {
    expect((await t.fk.errorTracking.listClientKeys(projectId, { perPage: 0 }))._unsafeUnwrapErr()).toEqual({ code: "invalid_param", param: "per_page" });
    expect((await t.fk.errorTracking.listErrors(projectId, { page: 0 }))._unsafeUnwrapErr()).toEqual({ code: "invalid_param", param: "page" });
    expect((await t.fk.errorTracking.listErrors(projectId, { perPage: 101 }))._unsafeUnwrapErr()).toEqual({ code: "invalid_param", param: "per_page" });
  });
  it("a key for an unknown project is 404 Project", async () => {
    expect((await t.fk.errorTracking.createClientKey(999_999))._unsafeUnwrapErr()).toEqual({ code: "not_found", thing: "Project" });
  });
});

describe("fk.errorTracking collector checks and errors", () => {
  it("authorizeCollector: every refusal is the same bare not_found", async () => {
    const key = await must(t.fk.errorTracking.createClientKey(projectId));
    const check = async (id = projectId, publicKey = key.publicKey) => (await t.fk.errorTracking.authorizeCollector(id, publicKey)).isOk();
    expect((await t.fk.errorTracking.authorizeCollector(projectId, key.publicKey))._unsafeUnwrapErr()).toEqual({ code: "not_found" });
    await must(t.fk.errorTracking.putSettings(projectId, { active: true, integrated: true }));
    expect(await check()).toBe(true);
    expect(await check(999_999)).toBe(false);
    expect(await check(projectId, key.publicKey.toUpperCase())).toBe(false);
    await must(t.fk.errorTracking.setClientKeyActive(projectId, key.id, false));
    expect(await check()).toBe(false);
    await must(t.fk.errorTracking.setClientKeyActive(projectId, key.id, true));
    await must(t.fk.errorTracking.putSettings(projectId, { active: true, integrated: false }));
    expect(await check()).toBe(false);
  });
  it("ingest records every event in one go, or none when one is not an event", async () => {
    expect((await t.fk.errorTracking.ingest(projectId, [exception("A"), { nope: true }]))._unsafeUnwrapErr()).toEqual({ code: "bad_request", reason: "Unsupported sentry payload" });
    expect((await must(t.fk.errorTracking.listErrors(projectId))).total).toBe(0);
    const groups = await must(t.fk.errorTracking.ingest(projectId, [exception("A"), exception("B"), exception("A")]));
    expect(groups.map((g) => [g.name, g.eventCount])).toEqual([["A", 1], ["B", 1], ["A", 2]]);
  });
  it("listErrors sorts by last seen (default), first seen or frequency", async () => {
    await must(t.fk.errorTracking.ingest(projectId, [exception("Old"), exception("Old")]));
    t.clock.advance(60_000);
    await must(t.fk.errorTracking.ingest(projectId, [exception("New")]));
    const names = async (sort?: "last_seen" | "first_seen" | "frequency") =>
      (await must(t.fk.errorTracking.listErrors(projectId, sort === undefined ? {} : { sort }))).items.map((e) => e.name);
    expect(await names()).toEqual(["New", "Old"]);
    expect(await names("first_seen")).toEqual(["New", "Old"]);
    expect(await names("frequency")).toEqual(["Old", "New"]);
  });
  it("listErrorEvents: newest first; a group of another project is not_found Error", async () => {
    const [group] = await must(t.fk.errorTracking.ingest(projectId, [exception("E", "first")]));
    t.clock.advance(1000);
    await must(t.fk.errorTracking.ingest(projectId, [exception("E", "first")]));
    const events = await must(t.fk.errorTracking.listErrorEvents(projectId, group!.id));
    expect(events.items.map((e) => e.receivedAt.getTime())).toEqual([t.clock.now().getTime(), t.clock.now().getTime() - 1000]);
    expect((await t.fk.errorTracking.listErrorEvents(t.projects.hidden.id, group!.id))._unsafeUnwrapErr()).toEqual({ code: "not_found", thing: "Error" });
  });
  it("ids past the 32-bit columns never reach the store (PostgreSQL would fail the comparison)", async () => {
    const store = memoryStore();
    const findById = store.projects.findById.bind(store.projects);
    store.projects.findById = (id) => (id > 2_147_483_647 ? Promise.reject(new Error("value out of range for type integer")) : findById(id));
    const big = await createTestForgekit({ store });
    expect((await big.fk.errorTracking.authorizeCollector(2 ** 31, "fket_x"))._unsafeUnwrapErr()).toEqual({ code: "not_found" });
    expect((await big.fk.errorTracking.putSettings(2 ** 31, { active: true, integrated: true }))._unsafeUnwrapErr()).toEqual({ code: "not_found", thing: "Project" });
    const r = await big.fk.handle({ method: "GET", path: "/api/v4/projects/2147483648/error_tracking/settings", rawQuery: "", headers: { "private-token": big.tokens.root } });
    expect([r.status, r.body]).toEqual([404, '{"message":"404 Project Not Found"}']);
  });
  it("ingest for an unknown project is 404 Project", async () => {
    expect((await t.fk.errorTracking.ingest(999_999, [exception("A")]))._unsafeUnwrapErr()).toEqual({ code: "not_found", thing: "Project" });
  });
});
