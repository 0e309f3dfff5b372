/**
 * docs/entities.md's user, group and namespace tables are those entities' field lists (issue 19
 * §1): every rendered key is listed with its source, and every field not listed as `fixed` differs
 * between two differently-made records (the `fixed` ones are equal).
 */
import { beforeAll, describe, expect, vi } from "vitest";
import { createTestForgekit, type TestForgekit } from "../../testing/fixtures.js";
import { callApi, itHoldsTheEntityToItsTable } from "../../testing/entity-doc-table.js";

type Json = Record<string, unknown>;

const call = callApi;

let t: TestForgekit;
beforeAll(async () => {
  t = await createTestForgekit();
});

describe("docs/entities.md: the user entity's fields (as an administrator sees them)", () => {
  let a: Json;
  let b: Json;
  beforeAll(async () => {
    // A: alice as made by the fixtures, after a request of her own (her activity day, written after
    // the response). B: a day later, an administrator with a private profile, a confirmed address,
    // blocked, with two-factor and an avatar, turned into a bot, who never made a request.
    expect((await call(t, "GET", "/user", t.tokens.alice)).status).toBe(200);
    await vi.waitFor(async () => expect((await t.store.users.findById(t.users.alice.id))?.lastActivityOn).toBe("2024-05-01"), { timeout: 30_000, interval: 10 });
    a = (await call(t, "GET", `/users/${t.users.alice.id}`, t.tokens.root)).json;
    t.clock.advance(86_400_000);
    const made = await call(t, "POST", "/users", t.tokens.root, { email: "doc-b@example.com", username: "doc-b", name: "Doc B", password: "a-long-password-1", skip_confirmation: true, admin: true, private_profile: true });
    expect(made.status).toBe(201);
    const id = made.json["id"] as number;
    expect((await call(t, "POST", `/users/${id}/block`, t.tokens.root)).status).toBe(201);
    await t.store.users.update(id, { twoFactorEnabled: true, avatarUrl: "https://cdn.example/b.png", bot: "project_bot", namespaceId: null });
    b = (await call(t, "GET", `/users/${id}`, t.tokens.root)).json;
  });

  itHoldsTheEntityToItsTable("User", "user", () => [a, b]);
});

describe("docs/entities.md: the group entity's fields (`GET /groups/:id`)", () => {
  let a: Json;
  let b: Json;
  beforeAll(async () => {
    // A: the fixtures' public top-level group with its projects. B: a day later, a private
    // subgroup of it, described, with no project.
    a = (await call(t, "GET", `/groups/${t.groups.grp.id}`, t.tokens.root)).json;
    t.clock.advance(86_400_000);
    const made = await call(t, "POST", "/groups", t.tokens.root, { name: "Doc B", path: "doc-b-group", parent_id: t.groups.grp.id, visibility: "private", description: "B" });
    expect(made.status).toBe(201);
    b = (await call(t, "GET", `/groups/${made.json["id"] as number}`, t.tokens.root)).json;
  });

  itHoldsTheEntityToItsTable("Group", "group", () => [a, b]);
});

describe("docs/entities.md: the namespace entity's fields (`GET /namespaces/:id`)", () => {
  let a: Json;
  let b: Json;
  beforeAll(async () => {
    // On a premium instance (`plan`): A, alice's user namespace (she has an avatar), seen by its
    // owner; B, a subgroup an administrator sees.
    const p = await createTestForgekit({ tier: "premium" });
    const alice = p.users.alice.namespaceId;
    if (alice === null) throw new Error("alice has no namespace");
    await p.store.users.update(p.users.alice.id, { avatarUrl: "https://cdn.example/alice.png" });
    a = (await call(p, "GET", `/namespaces/${alice}`, p.tokens.alice)).json;
    b = (await call(p, "GET", `/namespaces/${p.groups.sub.id}`, p.tokens.root)).json;
  });

  itHoldsTheEntityToItsTable("Namespace", "namespace", () => [a, b]);
});
