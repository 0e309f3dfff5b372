/** fk.users.sync / findByExternalId: users mirrored from the host's own user table. */
import { describe, expect, it } from "vitest";
import { createTestForgekit, must } from "../testing/fixtures.js";

describe("fk.users.sync", () => {
  it("creates the user the host knows by externalId, with a personal namespace and a confirmed primary e-mail", async () => {
    const t = await createTestForgekit();
    const user = await must(t.fk.users.sync({ externalId: "host:7", username: "hana", name: "Hana", email: "hana@host.example" }));
    expect(user).toMatchObject({ username: "hana", name: "Hana", externalId: "host:7", admin: false, state: "active" });
    expect(user.namespaceId).not.toBeNull();
    expect(await must(t.fk.users.primaryEmail(user.id))).toBe("hana@host.example");
    expect((await must(t.fk.users.findByExternalId("host:7"))).id).toBe(user.id);
  });

  it("is idempotent: the same data again changes nothing and returns the same user", async () => {
    const t = await createTestForgekit();
    const input = { externalId: "h1", username: "kai", name: "Kai", email: "kai@host.example" };
    const first = await must(t.fk.users.sync(input));
    const again = await must(t.fk.users.sync(input));
    expect(again).toEqual(first);
  });

  it("brings a known user up to date: username (and namespace path), name, e-mail, admin, blocked and active", async () => {
    const t = await createTestForgekit();
    const user = await must(t.fk.users.sync({ externalId: "h2", username: "lea", name: "Lea", email: "lea@host.example" }));
    const changed = await must(t.fk.users.sync({ externalId: "h2", username: "lea-m", name: "Lea M", email: "lea.m@host.example", admin: true, state: "blocked" }));
    expect(changed).toMatchObject({ id: user.id, username: "lea-m", name: "Lea M", admin: true, state: "blocked" });
    expect(await must(t.fk.users.primaryEmail(user.id))).toBe("lea.m@host.example");
    expect((await t.fk.store.namespaces.findByFullPath("lea-m"))?.id).toBe(user.namespaceId);
    expect((await must(t.fk.users.sync({ externalId: "h2", username: "lea-m", name: "Lea M", email: "lea.m@host.example", state: "active" }))).state).toBe("active");
  });

  it("answers 409 when the username or e-mail belongs to another user, and changes nothing", async () => {
    const t = await createTestForgekit();
    await must(t.fk.users.sync({ externalId: "a", username: "ana", name: "Ana", email: "ana@host.example" }));
    await must(t.fk.users.sync({ externalId: "b", username: "ben", name: "Ben", email: "ben@host.example" }));
    const taken = await t.fk.users.sync({ externalId: "b", username: "ana", name: "Ben", email: "ben@host.example" });
    expect(taken._unsafeUnwrapErr()).toMatchObject({ code: "conflict" });
    expect((await must(t.fk.users.findByExternalId("b"))).username).toBe("ben");
  });

  it("refuses a blank or overlong external id and an unknown state with the messages map", async () => {
    const t = await createTestForgekit();
    const blank = await t.fk.users.sync({ externalId: "", username: "x", name: "X", email: "x@host.example" });
    expect(blank._unsafeUnwrapErr()).toMatchObject({ code: "validation", messages: { external_id: ["must be 1 to 255 characters"] } });
    const long = await t.fk.users.sync({ externalId: "h".repeat(256), username: "x", name: "X", email: "x@host.example" });
    expect(long.isErr()).toBe(true);
    const state = await t.fk.users.sync({ externalId: "h", username: "x", name: "X", email: "x@host.example", state: "gone" as "active" });
    expect(state._unsafeUnwrapErr()).toMatchObject({ messages: { state: ["must be active or blocked"] } });
  });
});

describe("fk.users.findByExternalId", () => {
  it("is not_found for an id no user has (and for one no store could hold)", async () => {
    const t = await createTestForgekit();
    expect((await t.fk.users.findByExternalId("nobody"))._unsafeUnwrapErr()).toEqual({ code: "not_found", thing: "User" });
    expect((await t.fk.users.findByExternalId("\u0000"))._unsafeUnwrapErr()).toEqual({ code: "not_found", thing: "User" });
  });
});
