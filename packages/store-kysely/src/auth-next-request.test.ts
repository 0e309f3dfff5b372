/**
 * Authentication reads the token and its user in one statement on every request, with nothing
 * cached between requests (forgekit issue 12): a revocation, block or expiry made through one
 * instance is honoured by the very next request another instance serves from the same database
 * file — two instances with their own connections, as two server processes would have.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createForgekit, type Forgekit } from "@forgekit/core";
import { createTestForgekit, fixedClock, type FixedClock, type TestForgekit } from "@forgekit/core/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { kyselyStore, sqlite } from "./index.js";

describe("GET /projects/:id authenticated through a second instance on the same SQLite file", () => {
  let dir: string;
  let first: TestForgekit;
  let second: Forgekit;
  let secondClock: FixedClock;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), "forgekit-auth-next-"));
    const file = join(dir, "forgekit.db");
    first = await createTestForgekit({ store: kyselyStore(sqlite(file)) });
    secondClock = fixedClock(first.clock.now());
    second = createForgekit({ baseUrl: first.baseUrl, store: kyselyStore(sqlite(file)), clock: secondClock, logger: { log: () => undefined } });
  });

  afterEach(async () => {
    void (await second.close());
    void (await first.fk.close());
    rmSync(dir, { recursive: true, force: true });
  });

  const readThroughSecond = async (token: string) => {
    const response = await second.handle({ method: "GET", path: `/api/v4/projects/${first.projects.publicProject.id}`, rawQuery: "", headers: { "private-token": token } });
    return { status: response.status, body: JSON.parse(String(response.body)) as Record<string, unknown> };
  };

  it("a token revoked through the first instance is refused on the second instance's next request", async () => {
    const { token, plaintext } = await first.createToken(first.users.alice.id);
    expect((await readThroughSecond(plaintext)).status).toBe(200);
    expect((await first.fk.tokens.revoke(token.id)).isOk()).toBe(true);
    expect(await readThroughSecond(plaintext)).toEqual({ status: 401, body: { error: "invalid_token", error_description: "Token was revoked. You have to re-authorize from the user." } });
  });

  it("a user blocked through the first instance is refused on the second instance's next request, and let in again once unblocked", async () => {
    expect((await readThroughSecond(first.tokens.bob)).status).toBe(200);
    expect((await first.fk.users.block(first.users.bob.id)).isOk()).toBe(true);
    expect(await readThroughSecond(first.tokens.bob)).toEqual({ status: 403, body: { message: "403 Forbidden - Your account has been blocked." } });
    expect((await first.fk.users.unblock(first.users.bob.id)).isOk()).toBe(true);
    expect((await readThroughSecond(first.tokens.bob)).status).toBe(200);
  });

  it("a token is refused from the moment it expires on the second instance's clock", async () => {
    const { token, plaintext } = await first.createToken(first.users.alice.id, { expiresAt: "2024-05-03" });
    const expiry = token.expiresAt?.getTime() ?? Number.NaN;
    secondClock.set(new Date(expiry - 1));
    expect((await readThroughSecond(plaintext)).status).toBe(200);
    secondClock.set(new Date(expiry));
    expect(await readThroughSecond(plaintext)).toEqual({
      status: 401,
      body: { error: "invalid_token", error_description: "Token is expired. You can either do re-authorization or token refresh." },
    });
  });
});
