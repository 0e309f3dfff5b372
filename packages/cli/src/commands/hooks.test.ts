import { createForgekit } from "@forgekit/core";
import { kyselyStore, sqlite } from "@forgekit/store-kysely";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { cliSandbox, type CliSandbox } from "../test-support.js";

let sandbox: CliSandbox;
beforeEach(async () => {
  sandbox = cliSandbox();
  expect((await sandbox.run("migrate")).code).toBe(0);
});
afterEach(() => sandbox.cleanup());

/** A system hook with two recorded deliveries (a failure, then a success). */
async function seedDeliveries(): Promise<number> {
  const store = kyselyStore(sqlite(sandbox.database));
  try {
    const fk = createForgekit({ baseUrl: "http://localhost:3000", store });
    const hook = (await fk.webHooks.add({ scope: "system" }, { url: "https://hooks.example.com/in" }))._unsafeUnwrap();
    const log = { hookId: hook.id, trigger: "push_hooks", url: hook.url, requestHeaders: {}, requestData: {}, responseHeaders: {}, responseBody: "", executionDuration: 0.012, createdAt: new Date() };
    await store.webHooks.addLog({ ...log, responseStatus: "503", idempotencyKey: "key-1" });
    await store.webHooks.addLog({ ...log, responseStatus: "200", idempotencyKey: "key-1" });
    return hook.id;
  } finally {
    await store.close();
  }
}

describe("forgekit hooks deliveries", () => {
  it("lists a hook's deliveries newest first with status, duration and idempotency key", async () => {
    const id = await seedDeliveries();
    const listed = await sandbox.run("hooks", "deliveries", String(id));
    expect(listed.code).toBe(0);
    expect(listed.stdout.trim().split("\n").map((l) => l.replace(/^\S+ /, ""))).toEqual(["push_hooks 200 12 ms key key-1", "push_hooks 503 12 ms key key-1"]);
    const json = await sandbox.run("hooks", "deliveries", String(id), "--json");
    expect(json.json<{ response_status: string }[]>().map((d) => d.response_status)).toEqual(["200", "503"]);
  });

  it("an unknown hook → not found (exit 1); a bad id → usage error (exit 2)", async () => {
    expect((await sandbox.run("hooks", "deliveries", "999")).code).toBe(1);
    expect((await sandbox.run("hooks", "deliveries", "x")).code).toBe(2);
  });
});
