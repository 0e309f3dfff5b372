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

  it("answers 409 when the username or e-mail belongs to another user, and keeps the user's own", async () => {
    const t = await createTestForgekit();
    await must(t.fk.users.sync({ externalId: "a", username: "ana", name: "Ana", email: "ana@host.example" }));
    await must(t.fk.users.sync({ externalId: "b", username: "ben", name: "Ben", email: "ben@host.example" }));
    const taken = await t.fk.users.sync({ externalId: "b", username: "ana", name: "Ben", email: "ben@host.example" });
    expect(taken._unsafeUnwrapErr()).toMatchObject({ code: "conflict" });
    expect((await must(t.fk.users.findByExternalId("b"))).username).toBe("ben");
  });

  describe("a refused field never holds back the host's block, demotion or e-mail", () => {
    const apiAs = (t: Awaited<ReturnType<typeof createTestForgekit>>, token: string) =>
      t.fk.handle({ method: "GET", path: "/api/v4/user", rawQuery: "", headers: { "private-token": token } });

    it("a rename refused while the personal namespace holds projects still blocks and demotes: tokens are refused right after", async () => {
      const t = await createTestForgekit();
      const grace = await must(t.fk.users.sync({ externalId: "g", username: "grace", name: "Grace", email: "grace@host.example", admin: true }));
      await t.createProject({ namespaceId: grace.namespaceId ?? -1, path: "thesis", name: "thesis", visibility: "private", creatorId: grace.id });
      const { plaintext } = await t.createToken(grace.id);
      expect((await apiAs(t, plaintext)).status).toBe(200);

      const refused = await t.fk.users.sync({ externalId: "g", username: "grace-old", name: "Grace H", email: "grace.h@host.example", admin: false, state: "blocked" });

      expect(refused._unsafeUnwrapErr()).toMatchObject({ code: "conflict", reason: "Username cannot be changed while the personal namespace holds projects" });
      const after = await must(t.fk.users.findByExternalId("g"));
      expect(after).toMatchObject({ username: "grace", name: "Grace H", admin: false, state: "blocked" });
      expect(await must(t.fk.users.primaryEmail(grace.id))).toBe("grace.h@host.example");
      const refusedRight = await apiAs(t, plaintext);
      expect([refusedRight.status, JSON.parse(String(refusedRight.body))]).toEqual([403, { message: "403 Forbidden - Your account has been blocked." }]);
    });

    it("a username another user holds is refused while the block still applies", async () => {
      const t = await createTestForgekit();
      await must(t.fk.users.sync({ externalId: "a", username: "ana", name: "Ana", email: "ana@host.example" }));
      await must(t.fk.users.sync({ externalId: "b", username: "ben", name: "Ben", email: "ben@host.example", admin: true }));
      const refused = await t.fk.users.sync({ externalId: "b", username: "ana", name: "Ben", email: "ben@host.example", admin: false, state: "blocked" });
      expect(refused._unsafeUnwrapErr()).toMatchObject({ code: "conflict", reason: "Username has already been taken" });
      expect(await must(t.fk.users.findByExternalId("b"))).toMatchObject({ username: "ben", admin: false, state: "blocked" });
    });

    it("an e-mail another user holds is refused while the block and the valid rename still apply", async () => {
      const t = await createTestForgekit();
      await must(t.fk.users.sync({ externalId: "a", username: "ana", name: "Ana", email: "ana@host.example" }));
      const ben = await must(t.fk.users.sync({ externalId: "b", username: "ben", name: "Ben", email: "ben@host.example" }));
      const refused = await t.fk.users.sync({ externalId: "b", username: "benedict", name: "Ben", email: "ana@host.example", state: "blocked" });
      expect(refused._unsafeUnwrapErr()).toMatchObject({ code: "conflict", reason: "Email has already been taken" });
      expect(await must(t.fk.users.findByExternalId("b"))).toMatchObject({ username: "benedict", state: "blocked" });
      expect(await must(t.fk.users.primaryEmail(ben.id))).toBe("ben@host.example");
    });

    it("an invalid username is refused with the messages map while the block still applies", async () => {
      const t = await createTestForgekit();
      await must(t.fk.users.sync({ externalId: "c", username: "cleo", name: "Cleo", email: "cleo@host.example" }));
      const refused = await t.fk.users.sync({ externalId: "c", username: "-bad name-", name: "Cleo", email: "cleo@host.example", state: "blocked" });
      expect(refused._unsafeUnwrapErr()).toMatchObject({ code: "validation", messages: { username: expect.any(Array) } });
      expect(await must(t.fk.users.findByExternalId("c"))).toMatchObject({ username: "cleo", state: "blocked" });
    });
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
