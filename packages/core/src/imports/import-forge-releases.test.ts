/**
 * An import from the external forge brings the forge's releases (reference GitHub importer
 * `ReleasesImporter`: drafts skipped, `body` → description or "Release for tag …", `published_at`
 * → released_at, authors mapped like other records) and its milestones' `due_on` → `due_date`;
 * a re-run writes no release twice.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createTestForgekit, must, type TestForgekit } from "../testing/fixtures.js";
import { waitForImport } from "../testing/wait-for-import.js";
import { startExtForgeStandIn, type ExtForgeStandIn } from "../testing/import-stand-ins/index.js";
import type { ProjectImport } from "../ports/imports-store.js";
import { restExtForge, type ExtForgePage } from "./extforge/client.js";
import type { ExtForgeRelease } from "./extforge/types.js";

const TOKEN = "standin-forge-token";

describe("import from the external forge: releases and milestone due dates", () => {
  let forge: ExtForgeStandIn;
  let t: TestForgekit;

  beforeAll(async () => {
    forge = await startExtForgeStandIn({
      users: [{ id: 1, login: "standin-user", name: "Stand-in User", email: "alice@example.com", token: TOKEN }],
      repos: [
        {
          id: 61,
          owner: "octo",
          name: "released",
          git: {
            defaultBranch: "main",
            commits: [
              { message: "first", files: { "README.md": "# hello\n" }, tags: ["v1.0"] },
              { message: "second", files: { "a.txt": "a\n" }, tags: ["v2.0"] },
            ],
          },
          milestones: [
            { number: 1, title: "due", dueOn: "2024-03-31T07:00:00Z" },
            { number: 2, title: "open-ended" },
          ],
          releases: [
            { id: 901, tagName: "v1.0", name: "One", body: "First notes", author: "standin-user", createdAt: "2024-01-02T00:00:00Z", publishedAt: "2024-01-03T00:00:00Z" },
            { id: 902, tagName: "v2.0", name: null, body: "", author: "someone-else", createdAt: "2024-02-02T00:00:00Z", publishedAt: "2024-02-03T00:00:00Z" },
            { id: 903, tagName: "v3.0", name: "Not yet", body: "Draft notes", draft: true, author: "standin-user", createdAt: "2024-03-02T00:00:00Z" },
          ],
        },
      ],
    });
  });
  afterAll(async () => {
    await forge.close();
  });
  afterEach(async () => {
    // The client test builds no instance.
    await (t as TestForgekit | undefined)?.fk.workers.stop();
  });

  const waitFor = (projectId: number, done: (r: ProjectImport) => boolean, timeoutMs?: number) => waitForImport(t.store, projectId, done, timeoutMs);

  const importRepo = async () => {
    t = await createTestForgekit({ imports: { allowLocalNetwork: true } });
    const view = await must(t.fk.imports.startForge(t.users.alice, { token: TOKEN, repoId: 61, targetNamespace: "grp", hostname: forge.url, optionalStages: {} }));
    expect(t.fk.workers.start({ pollIntervalMs: 10, recurring: false }).isOk()).toBe(true);
    expect(await waitFor(view.project.id, (r) => r.status === "finished" || r.status === "failed")).toMatchObject({ status: "finished", error: null });
    return view.project;
  };

  it("the forge lists releases page by page, drafts included (the importer skips them)", async () => {
    const client = restExtForge({ token: TOKEN, hostname: forge.url, allowLocalNetwork: true });
    const releases = client.releases?.bind(client);
    if (releases === undefined) throw new Error("the default forge client lists releases");
    const pages: ExtForgePage<ExtForgeRelease>[] = [];
    for await (const page of releases("octo/released", { perPage: 2 })) pages.push(page);
    expect(pages.map((p) => [p.page, p.items.map((r) => r.tagName)])).toEqual([
      [1, ["v1.0", "v2.0"]],
      [2, ["v3.0"]],
    ]);
    expect(pages[0]?.items[0]).toMatchObject({ id: 901, name: "One", body: "First notes", draft: false, author: { login: "standin-user" } });
    expect(pages[0]?.items[0]?.publishedAt?.toISOString()).toBe("2024-01-03T00:00:00.000Z");
    expect(pages[1]?.items[0]).toMatchObject({ draft: true, publishedAt: null });
  });

  it("published releases become releases of the project at their tags; drafts are skipped", async () => {
    const project = await importRepo();
    const tags = forge.git["octo/released"]?.tags ?? {};
    const one = await t.store.releases.find(project.id, "v1.0");
    expect(one).toMatchObject({ name: "One", description: "First notes", authorId: t.users.alice.id, sha: tags["v1.0"], milestoneIds: [] });
    expect(one?.createdAt.toISOString()).toBe("2024-01-02T00:00:00.000Z");
    expect(one?.releasedAt.toISOString()).toBe("2024-01-03T00:00:00.000Z");
    // No name → the tag; no body → the reference's text; an author who maps to nobody → the importer.
    expect(await t.store.releases.find(project.id, "v2.0")).toMatchObject({ name: "v2.0", description: "Release for tag v2.0", authorId: t.users.alice.id, sha: tags["v2.0"] });
    expect(await t.store.releases.find(project.id, "v3.0")).toBeNull();
    const status = await must(t.fk.imports.status(t.users.alice, project));
    expect(status).toMatchObject({ stats: { fetched: { release: 3 }, imported: { release: 2 } } });
  });

  it("milestones keep the forge's due date (due_on's day), none when it has none", async () => {
    const project = await importRepo();
    expect(await t.store.activity.milestones.findByIid(project.id, 1)).toMatchObject({ title: "due", dueDate: "2024-03-31", startDate: null });
    expect(await t.store.activity.milestones.findByIid(project.id, 2)).toMatchObject({ title: "open-ended", dueDate: null });
  });

  it("a re-run of the job from the start writes no release twice", async () => {
    const project = await importRepo();
    await t.fk.workers.stop();
    const job = await must(t.fk.jobs.enqueue("imports.project", { projectId: project.id }));
    await t.store.imports.projects.update(project.id, ["finished"], { status: "started", jobId: job.id, checkpoint: null, stats: "{}", credentials: JSON.stringify({ token: TOKEN }) }, t.clock.now());
    expect(t.fk.workers.start({ pollIntervalMs: 10, recurring: false }).isOk()).toBe(true);
    await waitFor(project.id, (r) => r.status === "finished");
    const listed = await t.store.releases.list(project.id, { orderBy: "released_at", sort: "asc" }, { kind: "offset", page: 1, perPage: 20 });
    expect(listed.items.map((r) => r.tagName)).toEqual(["v1.0", "v2.0"]);
  });
});
