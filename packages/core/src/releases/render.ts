/** Renders releases with what they refer to, loaded once per list: links, authors, milestones, tag commits. */
import type { Milestone } from "../activity/types.js";
import type { User } from "../accounts/types.js";
import { readCommit, type CommitInfo } from "../repository-api/index.js";
import type { ReleasesDeps, ReleaseProject } from "./context.js";
import { releaseEntity } from "./entity.js";
import type { Release, ReleaseLink } from "./types.js";

/** The entities of `releases`, in order. */
export async function renderReleases(deps: ReleasesDeps, rp: ReleaseProject, releases: readonly Release[], includeHtml = false): Promise<unknown[]> {
  const { store, baseUrl, clock } = deps.config;
  const links = await store.releases.links(releases.map((r) => r.id));
  const users = new Map<number, User | null>();
  const milestones = new Map<number, Milestone | null>();
  const commits = new Map<string, CommitInfo | null>();
  for (const r of releases) {
    if (r.authorId !== null && !users.has(r.authorId)) users.set(r.authorId, await store.users.findById(r.authorId));
    for (const id of r.milestoneIds) if (!milestones.has(id)) milestones.set(id, await store.activity.milestones.findById(id));
    if (rp.readCode && rp.repo !== null && !commits.has(r.sha)) commits.set(r.sha, await readCommit(rp.repo, r.sha));
  }
  const now = clock.now();
  return releases.map((release) =>
    releaseEntity(baseUrl, {
      release,
      project: rp.project,
      author: release.authorId === null ? null : (users.get(release.authorId) ?? null),
      commit: commits.get(release.sha) ?? null,
      milestones: release.milestoneIds.map((id) => milestones.get(id)).filter((m): m is Milestone => m != null && m.projectId === rp.project.id),
      links: links.filter((l: ReleaseLink) => l.releaseId === release.id),
      readCode: rp.readCode,
      canEdit: rp.canEdit,
      includeHtml,
      now,
    }),
  );
}

/** The entity of one release. */
export async function renderRelease(deps: ReleasesDeps, rp: ReleaseProject, release: Release, includeHtml = false): Promise<unknown> {
  return (await renderReleases(deps, rp, [release], includeHtml))[0];
}
