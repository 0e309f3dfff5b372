/**
 * POST /oauth/token with the password grant while password hashing is at capacity (issue #23
 * item 8): a bounded number of hashes run, a short queue waits, and an attempt beyond them is
 * answered at once with 503 `temporarily_unavailable` and `Retry-After` (RFC 6749 §5.2 body), while
 * requests that hash nothing are served. Driven by a hasher stand-in the test releases by hand.
 */
import { Readable } from "node:stream";
import { describe, expect, it, vi } from "vitest";
import type { HttpResponse } from "../http/types.js";
import { createTestForgekit, must, type TestForgekit } from "../testing/fixtures.js";
import { heldPasswordHasher, type HeldPasswordHasher } from "../testing/held-password-hasher.js";

async function world(passwordHashing: { concurrency: number; queue: number; retryAfterSeconds?: number }): Promise<{ t: TestForgekit; hasher: HeldPasswordHasher }> {
  const hasher = heldPasswordHasher();
  const t = await createTestForgekit({ passwordHasher: hasher, passwordHashing });
  // Verifications are held; hashing (the unknown-user dummy, once per instance) answers at once.
  hasher.holding = ["verify"];
  return { t, hasher };
}

const token = (t: TestForgekit, username: string, password: string): Promise<HttpResponse> =>
  t.fk.handle({
    method: "POST",
    path: "/oauth/token",
    rawQuery: "",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new TextEncoder().encode(new URLSearchParams({ grant_type: "password", username, password }).toString()),
    remoteAddress: `198.51.100.${Math.floor(Math.random() * 200) + 1}`,
  });

const json = (r: HttpResponse): unknown => JSON.parse(typeof r.body === "string" ? r.body : new TextDecoder().decode(r.body));

describe("POST /oauth/token (password grant): password hashing is bounded", () => {
  it("beyond the running and waiting hashes, an attempt is refused at once: 503 temporarily_unavailable with Retry-After", async () => {
    const { t, hasher } = await world({ concurrency: 1, queue: 1, retryAfterSeconds: 2 });
    const running = token(t, "nobody", "guess");
    await vi.waitFor(() => expect(hasher.held).toHaveLength(1));
    const waiting = token(t, "alice", "alice-password");
    await vi.waitFor(() => expect(hasher.calls.verify).toBe(1));

    const refused = await token(t, "bob", "bob-password");
    expect(refused.status).toBe(503);
    expect(refused.headers["Retry-After"]).toBe("2");
    expect(refused.headers["Content-Type"]).toBe("application/json");
    expect(json(refused)).toEqual({ error: "temporarily_unavailable", error_description: expect.any(String) });
    expect(hasher.held).toHaveLength(1);

    hasher.held[0]?.release();
    await vi.waitFor(() => expect(hasher.held).toHaveLength(1));
    hasher.held[0]?.release();
    expect((await running).status).toBe(400);
    expect((await waiting).status).toBe(200);
  });

  it("requests that hash nothing are answered while every hashing slot and the queue are taken", async () => {
    const { t, hasher } = await world({ concurrency: 1, queue: 0 });
    const running = token(t, "nobody", "guess");
    await vi.waitFor(() => expect(hasher.held).toHaveLength(1));
    const api = await t.fk.handle({ method: "GET", path: "/api/v4/user", rawQuery: "", headers: { "private-token": t.tokens.alice } });
    expect(api.status).toBe(200);
    hasher.held[0]?.release();
    expect((await running).status).toBe(400);
  });

  it("an unknown user's attempt holds a slot and is refused exactly like a known user's (no enumeration)", async () => {
    const { t, hasher } = await world({ concurrency: 1, queue: 0 });
    const answers: HttpResponse[] = [];
    for (const [holder, other] of [["nobody", "alice"], ["alice", "nobody"]] as const) {
      const verifiesBefore = hasher.calls.verify;
      const held = token(t, holder, "alice-password");
      await vi.waitFor(() => expect(hasher.held).toHaveLength(1));
      expect(hasher.calls.verify).toBe(verifiesBefore + 1);
      answers.push(await token(t, other, "alice-password"));
      hasher.held[0]?.release();
      await held;
    }
    expect(answers.map((r) => [r.status, r.headers["Retry-After"], json(r)])).toEqual([
      [503, "1", { error: "temporarily_unavailable", error_description: expect.any(String) }],
      [503, "1", { error: "temporarily_unavailable", error_description: expect.any(String) }],
    ]);
  });

  it("the REST API answers 503 with Retry-After when creating a user with a password finds hashing at capacity", async () => {
    const { t, hasher } = await world({ concurrency: 1, queue: 0, retryAfterSeconds: 5 });
    const running = token(t, "nobody", "guess");
    await vi.waitFor(() => expect(hasher.held).toHaveLength(1));
    const refused = await t.fk.users.create({ username: "dora", name: "Dora", email: "dora@example.com", password: "dora-password" });
    expect(refused._unsafeUnwrapErr()).toMatchObject({ code: "unavailable", retryAfterSeconds: 5 });
    hasher.held[0]?.release();
    await running;
    expect((await must(t.fk.users.create({ username: "dora", name: "Dora", email: "dora@example.com", password: "dora-password" }))).username).toBe("dora");
  });
});

describe("git over HTTP with a password: password hashing is bounded", () => {
  it("beyond the running and waiting hashes, a password attempt is 503 with Retry-After (not a 500), and nothing is logged as an error", async () => {
    const lines: string[] = [];
    const hasher = heldPasswordHasher();
    const t = await createTestForgekit({ passwordHasher: hasher, passwordHashing: { concurrency: 1, queue: 0, retryAfterSeconds: 3 }, logger: { log: (level, event) => void lines.push(`${level} ${event}`) } });
    hasher.holding = ["verify"];
    const running = token(t, "nobody", "guess");
    await vi.waitFor(() => expect(hasher.held).toHaveLength(1));
    const basic = `Basic ${Buffer.from("alice:alice-password").toString("base64")}`;
    const r = await t.fk.gitHttp.handle({ method: "GET", path: `/${t.projects.personal.fullPath}.git/info/refs`, rawQuery: "service=git-upload-pack", headers: { authorization: basic }, body: Readable.from([]) });
    expect([r.status, r.headers["retry-after"]]).toEqual([503, "3"]);
    expect(lines.filter((line) => line.startsWith("error"))).toEqual([]);
    hasher.held[0]?.release();
    await running;
  });
});
