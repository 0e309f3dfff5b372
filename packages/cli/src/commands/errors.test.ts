/**
 * `forgekit errors list|events` on a temporary SQLite file. Events reach the database the way SDKs
 * send them: through the collector of an instance over the same file, with a client key's DSN.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createForgekit } from "@forgekit/core";
import { fromUrl, kyselyStore } from "@forgekit/store-kysely";
import { cliSandbox } from "../test-support.js";

const sandbox = cliSandbox();
afterAll(() => sandbox.cleanup());

const exception = (type: string, value: string) => ({ exception: { values: [{ type, value }] }, level: "error", environment: "staging", event_id: "0".repeat(31) + "1" });

/** Sends `events` (one envelope each) to the collector of `projectPath` at the given times. */
async function send(projectPath: string, events: { at: string; event: unknown }[]): Promise<number[]> {
  const store = kyselyStore(fromUrl(sandbox.database));
  let now = new Date(0);
  try {
    const fk = createForgekit({ baseUrl: "http://localhost:3000", store, clock: { now: () => new Date(now) } });
    const project = (await fk.projects.findByFullPath(projectPath))._unsafeUnwrap();
    (await fk.errorTracking.putSettings(project.id, { active: true, integrated: true }))._unsafeUnwrap();
    const key = (await fk.errorTracking.createClientKey(project.id))._unsafeUnwrap();
    const statuses: number[] = [];
    for (const { at, event } of events) {
      now = new Date(at);
      const body = new TextEncoder().encode(`{}\n{"type":"event"}\n${JSON.stringify(event)}\n`);
      const path = `/api/v4/error_tracking/collector/api/${project.id}/envelope/`;
      statuses.push((await fk.handle({ method: "POST", path, rawQuery: `sentry_key=${key.publicKey}`, headers: {}, body })).status);
    }
    return statuses;
  } finally {
    await store.close();
  }
}

beforeAll(async () => {
  expect((await sandbox.run("migrate")).code).toBe(0);
  expect((await sandbox.run("users", "create", "--username", "ann", "--name", "Ann", "--email", "ann@example.com")).code).toBe(0);
  expect((await sandbox.run("projects", "create", "--namespace", "ann", "--name", "Shop", "--path", "shop")).code).toBe(0);
  expect((await sandbox.run("projects", "create", "--namespace", "ann", "--name", "Quiet", "--path", "quiet")).code).toBe(0);
  const statuses = await send("ann/shop", [
    { at: "2024-05-01T10:00:00.000Z", event: exception("TypeError", "cart is undefined") },
    { at: "2024-05-01T11:00:00.000Z", event: exception("KeyError", "'sku'") },
    { at: "2024-05-01T12:00:00.000Z", event: exception("TypeError", "cart is undefined") },
    { at: "2024-05-01T12:30:00.000Z", event: exception("TypeError", "cart is undefined") },
  ]);
  expect(statuses).toEqual([200, 200, 200, 200]);
});

describe("errors list", () => {
  it("lists the project's error groups, last seen first, with counts and first / last seen", async () => {
    const r = await sandbox.run("errors", "list", "--project", "ann/shop");
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(
      /^error (\d+) TypeError: cart is undefined \(3 events, first seen 2024-05-01T10:00:00\.000Z, last seen 2024-05-01T12:30:00\.000Z\)\nerror \d+ KeyError: 'sku' \(1 event, first seen 2024-05-01T11:00:00\.000Z, last seen 2024-05-01T11:00:00\.000Z\)\n$/,
    );
  });

  it("--json prints records; --sort first_seen orders by first sight", async () => {
    const r = await sandbox.run("--json", "errors", "list", "--project", "ann/shop", "--sort", "first_seen");
    const records = r.json<Record<string, unknown>[]>();
    expect(records.map((e) => [e["name"], e["event_count"], e["first_seen_at"]])).toEqual([
      ["KeyError", 1, "2024-05-01T11:00:00.000Z"],
      ["TypeError", 3, "2024-05-01T10:00:00.000Z"],
    ]);
    expect(records[0]).toMatchObject({ description: "'sku'", platform: null, fingerprint: expect.stringMatching(/^[0-9a-f]{64}$/) });
  });

  it("pages, with a hint to the next page", async () => {
    const r = await sandbox.run("errors", "list", "--project", "ann/shop", "--sort", "frequency", "--per-page", "1");
    expect(r.stdout).toMatch(/^error \d+ TypeError: cart is undefined \(3 events, .*\)\nmore on the next page: --page 2\n$/);
    const second = await sandbox.run("errors", "list", "--project", "ann/shop", "--sort", "frequency", "--per-page", "1", "--page", "2");
    expect(second.stdout).toMatch(/^error \d+ KeyError: 'sku' \(1 event, .*\)\n$/);
  });

  it("a project without errors, an unknown project, bad options", async () => {
    expect(await sandbox.run("errors", "list", "--project", "ann/quiet")).toMatchObject({ code: 0, stdout: "no errors\n" });
    expect(await sandbox.run("errors", "list", "--project", "ann/nothing")).toMatchObject({ code: 1, stderr: "error: Project not found\n" });
    expect((await sandbox.run("errors", "list")).code).toBe(2);
    expect((await sandbox.run("errors", "list", "--project", "ann/shop", "--sort", "loudest")).code).toBe(2);
    expect((await sandbox.run("errors", "list", "--project", "ann/shop", "--per-page", "500")).code).toBe(2);
  });
});

describe("errors events", () => {
  it("lists one error's events newest first; --json carries the payload", async () => {
    const [group] = (await sandbox.run("--json", "errors", "list", "--project", "ann/shop")).json<{ id: number }[]>();
    const r = await sandbox.run("errors", "events", "--project", "ann/shop", "--error", String(group!.id));
    expect(r.stdout.split("\n").filter((l) => l !== "")).toEqual([
      expect.stringMatching(/^event \d+ received 2024-05-01T12:30:00\.000Z \(error, staging, event_id 0{31}1\)$/),
      expect.stringMatching(/received 2024-05-01T12:00:00\.000Z/),
      expect.stringMatching(/received 2024-05-01T10:00:00\.000Z/),
    ]);
    const json = (await sandbox.run("--json", "errors", "events", "--project", "ann/shop", "--error", String(group!.id), "--per-page", "1")).json<Record<string, unknown>[]>();
    expect(json).toEqual([expect.objectContaining({ error_id: group!.id, level: "error", payload: exception("TypeError", "cart is undefined") })]);
  });

  it("an error of another project → not found", async () => {
    const [group] = (await sandbox.run("--json", "errors", "list", "--project", "ann/shop")).json<{ id: number }[]>();
    expect(await sandbox.run("errors", "events", "--project", "ann/quiet", "--error", String(group!.id))).toMatchObject({ code: 1, stderr: "error: Error not found\n" });
  });
});
