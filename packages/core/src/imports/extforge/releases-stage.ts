/**
 * The releases stage of an import from the external forge (reference GitHub importer
 * `ReleasesImporter`): each published release becomes a release of the project at its tag, which
 * the repository stage brought. Drafts are skipped, as are releases whose tag the repository does
 * not have (a release here is the release of a tag). A release without a name is named after its
 * tag, one without a body gets the reference's "Release for tag …", `published_at` is its
 * `released_at`, and its author is mapped like every imported author (the importer when nobody
 * matches). Written page by page under external ids (the tag name), so a re-run writes nothing
 * twice; a release already at the tag is mapped, not duplicated.
 */
import { listRefs, openRepository } from "../../repository-api/index.js";
import type { ImportRun } from "../run-kit.js";
import { pages } from "./pages.js";
import type { ExtForgeClient } from "./types.js";

/** Imports the forge's releases of `repo` (nothing when the client cannot list them). */
export async function releasesStage(run: ImportRun, client: ExtForgeClient, repo: string): Promise<void> {
  const list = client.releases?.bind(client);
  if (list === undefined) return;
  const git = await openRepository({ config: run.config }, run.project);
  const { projectId } = run;
  await pages(run, "releases", (startPage) => list(repo, { startPage }), async (page, next) => {
    const published = page.items.filter((r) => !r.draft);
    await run.authors.learn(published.map((r) => r.author));
    // The commit of each tag, read once for the page (an annotated tag leads to its commit).
    const refs = git === null || published.length === 0 ? [] : await listRefs(git, "tag", published.map((r) => r.tagName));
    const commits = new Map(refs.map((ref) => [ref.name, ref.commitId]));
    await run.writePage(`releases page ${page.page}`, "release", page.items, (r) => r.tagName, async (tx, r) => {
      const sha = commits.get(r.tagName);
      if (r.draft || sha === undefined || sha === null) return null;
      const author = await run.authors.resolve(tx, r.author);
      const created = await tx.releases.create(
        {
          projectId,
          tagName: r.tagName,
          name: r.name === null || r.name.trim() === "" ? r.tagName : r.name,
          description: r.body === null || r.body.trim() === "" ? `Release for tag ${r.tagName}` : r.body,
          authorId: author.authorId,
          sha,
          milestoneIds: [],
          createdAt: r.createdAt,
          releasedAt: r.publishedAt ?? r.createdAt,
        },
        [],
        r.createdAt,
      );
      return created?.id ?? (await tx.releases.find(projectId, r.tagName))?.id ?? null;
    }, next);
  });
}
