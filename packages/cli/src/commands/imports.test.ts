import { createForgekit } from "@forgekit/core";
import { kyselyStore, sqlite } from "@forgekit/store-kysely";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { cliSandbox, type CliSandbox } from "../test-support.js";
import { progressBar } from "../progress.js";
import { stageFraction } from "./imports.js";

let sandbox: CliSandbox;
beforeEach(async () => {
  sandbox = cliSandbox();
  expect((await sandbox.run("migrate")).code).toBe(0);
});
afterEach(() => sandbox.cleanup());

/** A project with an import in its issues stage, written straight into the sandbox database. */
async function seedImport(status: "started" | "failed"): Promise<void> {
  const store = kyselyStore(sqlite(sandbox.database));
  try {
    const fk = createForgekit({ baseUrl: "http://localhost:3000", store, repositoryStorages: { default: { path: mkdtempSync(join(tmpdir(), "fk-cli-imports-")) } } });
    const user = (await fk.users.create({ username: "ada", name: "Ada", email: "ada@example.com" }))._unsafeUnwrap();
    const project = (await fk.projects.create({ namespaceId: user.namespaceId ?? 0, name: "hello", creatorId: user.id }))._unsafeUnwrap();
    const now = new Date();
    await store.imports.projects.create({ projectId: project.id, source: "extforge", importSource: "octo/hello", url: "https://api.github.com", userId: user.id, options: "{}", credentials: null }, now);
    const stats = JSON.stringify({ label: { fetched: 2, imported: 2 }, issue: { fetched: 100, imported: 100 } });
    await store.imports.projects.update(project.id, ["scheduled"], { status: "started", stats, checkpoint: JSON.stringify({ stage: "issues", page: 2 }) }, now);
    if (status === "failed") await store.imports.projects.update(project.id, ["started"], { status: "failed", error: "The forge did not accept the token (401)" }, now);
  } finally {
    await store.close();
  }
}

describe("forgekit import status", () => {
  it("prints the state, the stage and the counts per kind (plain lines when not on a terminal)", async () => {
    await seedImport("started");
    const r = await sandbox.run("import", "status", "ada/hello");
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(
      ["project ada/hello: import started (from octo/hello via extforge)", "stage issues (5 of 10), 0 records imported", "  issue: 100 fetched, 100 imported", "  label: 2 fetched, 2 imported", ""].join("\n"),
    );
    const json = await sandbox.run("import", "status", "ada/hello", "--json");
    expect(json.json()).toMatchObject({ import_status: "started", stats: { fetched: { issue: 100, label: 2 } }, progress: { stage: "issues", stage_number: 5, stages: 10 } });
  });

  it("shows the error of a failed import; a project never imported says so; an unknown one fails", async () => {
    await seedImport("failed");
    const failed = await sandbox.run("import", "status", "ada/hello");
    expect(failed.stdout).toContain("import failed");
    expect(failed.stdout).toContain("error: The forge did not accept the token (401)");
    expect((await sandbox.run("import", "status", "nobody/nothing")).code).toBe(1);
    expect((await sandbox.run("import", "status")).code).toBe(2);
  });

  it("--watch ends at once for an import that has ended", async () => {
    await seedImport("failed");
    const r = await sandbox.run("import", "status", "ada/hello", "--watch", "--interval", "20");
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("import failed");
  });

  it("the bar fills with the stages", () => {
    expect(progressBar(stageFraction({ stage: "repository", stage_number: 1, stages: 9, items_imported: 0 }, false))).toBe(`[${".".repeat(30)}]   0%`);
    expect(progressBar(stageFraction({ stage: "pull_requests", stage_number: 5, stages: 9, items_imported: 0 }, false))).toBe(`[${"#".repeat(15)}${".".repeat(15)}]  50%`);
    expect(progressBar(stageFraction({ stage: "done", stage_number: 9, stages: 9, items_imported: 0 }, true))).toBe(`[${"#".repeat(30)}] 100%`);
  });
});
