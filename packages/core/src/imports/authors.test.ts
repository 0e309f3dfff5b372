/** Author mapping of imported records (issue 10 §2): confirmed e-mail → user, else the importer named in the text. */
import { describe, expect, it } from "vitest";
import { createTestForgekit, must } from "../testing/fixtures.js";
import { AuthorMap } from "./authors.js";

describe("AuthorMap.resolve", () => {
  it("a confirmed e-mail of an active user maps to that user, with no prefix", async () => {
    const t = await createTestForgekit();
    const map = new AuthorMap(t.users.root.id);
    const bobEmail = (await t.store.emails.primaryFor(t.users.bob.id))?.email ?? "";
    expect(await map.resolve(t.store, { login: "bobby", email: bobEmail })).toEqual({ authorId: t.users.bob.id, prefix: "" });
  });

  it("an unknown or missing e-mail, or a deleted account, maps to the importer, named in the text", async () => {
    const t = await createTestForgekit();
    const map = new AuthorMap(t.users.root.id);
    expect(await map.resolve(t.store, { login: "stranger", email: "stranger@elsewhere.test" })).toEqual({ authorId: t.users.root.id, prefix: "*Created by: stranger*\n\n" });
    expect(await map.resolve(t.store, { login: "quiet", email: null })).toEqual({ authorId: t.users.root.id, prefix: "*Created by: quiet*\n\n" });
    expect(await map.resolve(t.store, null)).toEqual({ authorId: t.users.root.id, prefix: "*Created by: ghost*\n\n" });
  });

  it("an unconfirmed e-mail does not map", async () => {
    const t = await createTestForgekit();
    const carol = await t.createUser({ username: "carol" });
    await t.store.emails.add({ userId: carol.id, email: "carol-unconfirmed@example.com", primary: false, confirmedAt: null }, t.clock.now());
    const map = new AuthorMap(t.users.root.id);
    expect((await map.resolve(t.store, { login: "carol", email: "carol-unconfirmed@example.com" })).authorId).toBe(t.users.root.id);
    expect(await must(t.fk.users.findById(carol.id))).toBeTruthy();
  });

  it("learn asks the forge once per login for the e-mail its lists leave out; a public confirmed e-mail maps, none leaves the importer", async () => {
    const t = await createTestForgekit();
    const bobEmail = (await t.store.emails.primaryFor(t.users.bob.id))?.email ?? "";
    const asked: string[] = [];
    const map = new AuthorMap(t.users.root.id);
    map.lookUpEmailsWith(async (login) => {
      asked.push(login);
      return login === "bobby" ? bobEmail : null;
    });
    await map.learn([{ login: "bobby", email: null }, { login: "bobby", email: null }, { login: "quiet", email: null }, null, { login: "given", email: "given@elsewhere.test" }]);
    expect(asked).toEqual(["bobby", "quiet"]);
    expect(await map.resolve(t.store, { login: "bobby", email: null })).toEqual({ authorId: t.users.bob.id, prefix: "" });
    expect(await map.resolve(t.store, { login: "quiet", email: null })).toEqual({ authorId: t.users.root.id, prefix: "*Created by: quiet*\n\n" });
    // Assignees: the user, or null (dropped) when the login maps to no one.
    expect(await map.userOf(t.store, { login: "bobby", email: null })).toBe(t.users.bob.id);
    expect(await map.userOf(t.store, { login: "quiet", email: null })).toBeNull();
    await map.learn([{ login: "bobby", email: null }]);
    expect(asked).toEqual(["bobby", "quiet"]);
  });
});
