/**
 * Creating and changing releases (reference `Releases::CreateService`, `UpdateService`): a release
 * names a tag; a missing tag is created from `ref` through the repository layer (a tag push, as
 * over git), annotated when `tag_message` is given. Milestones are named by title or id and must
 * be the project's.
 */
import { err, ok, type Result } from "neverthrow";
import type { User } from "../accounts/types.js";
import { errors, type ForgekitError } from "../errors.js";
import type { NewReleaseLink } from "../ports/releases-store.js";
import { createTag, listRefs, readCommit, type CommitInfo } from "../repository-api/index.js";
import type { ReleasesDeps, ReleaseProject } from "./context.js";
import { queueReleaseHooks } from "./hook.js";
import { duplicateAmong } from "./links.js";
import type { Release } from "./types.js";

/** What `POST /projects/:id/releases` asks for (validated). */
export interface CreateReleaseInput {
  tagName: string;
  name?: string | undefined;
  description?: string | undefined;
  ref?: string | undefined;
  tagMessage?: string | undefined;
  milestones?: string[] | undefined;
  milestoneIds?: number[] | undefined;
  releasedAt?: string | undefined;
  links: NewReleaseLink[];
}

/** Ids of the project's milestones named by `titles` and `ids`; 400 naming the ones it lacks (reference message). */
export async function resolveMilestones(deps: ReleasesDeps, projectId: number, titles: readonly string[] | undefined, ids: readonly number[] | undefined): Promise<Result<number[] | undefined, ForgekitError>> {
  if (titles === undefined && ids === undefined) return ok(undefined);
  const { store } = deps.config;
  const found: number[] = [];
  const missingTitles: string[] = [];
  for (const title of titles ?? []) {
    const [m] = (await store.activity.issueDetails.listMilestones({ projectId, title }, { kind: "offset", page: 1, perPage: 1 })).items;
    if (m === undefined) missingTitles.push(title);
    else if (!found.includes(m.id)) found.push(m.id);
  }
  if (missingTitles.length > 0) return err(errors.badRequestMessage(`Milestone(s) not found: ${missingTitles.join(", ")}`));
  const missingIds: number[] = [];
  for (const id of ids ?? []) {
    const m = await store.activity.milestones.findById(id);
    if (m === null || m.projectId !== projectId) missingIds.push(id);
    else if (!found.includes(m.id)) found.push(m.id);
  }
  if (missingIds.length > 0) return err(errors.badRequestMessage(`Milestone id(s) not found: ${missingIds.join(", ")}`));
  return ok(found);
}

/** Creates the release (and its tag when missing). */
export async function createRelease(deps: ReleasesDeps, rp: ReleaseProject, input: CreateReleaseInput): Promise<Result<Release, ForgekitError>> {
  const { store, clock } = deps.config;
  const user = rp.user as User;
  if ((await store.releases.find(rp.project.id, input.tagName)) !== null) return err(errors.conflict("Release already exists"));
  const milestones = await resolveMilestones(deps, rp.project.id, input.milestones, input.milestoneIds);
  if (milestones.isErr()) return err(milestones.error);
  const duplicate = duplicateAmong(input.links);
  if (duplicate !== null) return err(duplicate);
  if (rp.repo === null) return err(errors.notFound("Repository"));
  let [tag] = await listRefs(rp.repo, "tag", [input.tagName]);
  if (tag === undefined) {
    if (input.ref === undefined || input.ref === "") return err(errors.unprocessable("Ref is not specified"));
    const created = await createTag(deps, rp.repo, rp.project, user, { name: input.tagName, ref: input.ref, message: input.tagMessage });
    if (created.isErr()) return err(created.error);
    [tag] = await listRefs(rp.repo, "tag", [input.tagName]);
  }
  if (tag?.commitId == null) return err(errors.badRequestMessage("Tag does not point at a commit"));
  const sha = tag.commitId;
  const commit = await readCommit(rp.repo, sha);
  const now = clock.now();
  const row = {
    projectId: rp.project.id,
    tagName: input.tagName,
    name: input.name ?? input.tagName,
    description: input.description ?? "",
    authorId: user.id,
    sha,
    milestoneIds: milestones.value ?? [],
    createdAt: now,
    releasedAt: input.releasedAt === undefined ? now : new Date(input.releasedAt),
  };
  // The release and its webhook deliveries are written together (issue 20 "Delivery").
  const release = await store.transaction(async (tx) => {
    const created = await tx.releases.create(row, input.links, now);
    if (created !== null) await queueReleaseHooks(tx, { baseUrl: deps.config.baseUrl, project: rp.project, release: created, commit }, "create", now);
    return created;
  });
  return release === null ? err(errors.conflict("Release already exists")) : ok(release);
}

/** What `PUT /projects/:id/releases/:tag_name` may change. */
export interface UpdateReleaseInput {
  name?: string | undefined;
  description?: string | undefined;
  releasedAt?: string | undefined;
  milestones?: string[] | undefined;
  milestoneIds?: number[] | undefined;
}

/** Changes a release; 400 when nothing is given (reference `at_least_one_of`). */
export async function updateRelease(deps: ReleasesDeps, rp: ReleaseProject, release: Release, input: UpdateReleaseInput): Promise<Result<Release, ForgekitError>> {
  const milestones = await resolveMilestones(deps, rp.project.id, input.milestones, input.milestoneIds);
  if (milestones.isErr()) return err(milestones.error);
  const patch = {
    ...(input.name === undefined ? {} : { name: input.name }),
    ...(input.description === undefined ? {} : { description: input.description }),
    ...(input.releasedAt === undefined ? {} : { releasedAt: new Date(input.releasedAt) }),
    ...(milestones.value === undefined ? {} : { milestoneIds: milestones.value }),
  };
  const commit = await tagCommit(rp, release);
  const now = deps.config.clock.now();
  const updated = await deps.config.store.transaction(async (tx) => {
    const changed = await tx.releases.update(release.id, patch, now);
    if (changed !== null) await queueReleaseHooks(tx, { baseUrl: deps.config.baseUrl, project: rp.project, release: changed, commit }, "update", now);
    return changed;
  });
  return updated === null ? err(errors.notFound()) : ok(updated);
}

/** Deletes a release (its tag stays); false when it was already gone. */
export async function deleteRelease(deps: ReleasesDeps, rp: ReleaseProject, release: Release): Promise<boolean> {
  const commit = await tagCommit(rp, release);
  const now = deps.config.clock.now();
  return deps.config.store.transaction(async (tx) => {
    // The payload shows the release as it was, links included (they go with it).
    const links = await tx.releases.links([release.id]);
    if (!(await tx.releases.remove(release.id))) return false;
    await queueReleaseHooks(tx, { baseUrl: deps.config.baseUrl, project: rp.project, release, commit, links }, "delete", now);
    return true;
  });
}

/** The commit a release names, when the project's repository has it. */
async function tagCommit(rp: ReleaseProject, release: Release): Promise<CommitInfo | null> {
  return rp.repo === null ? null : readCommit(rp.repo, release.sha);
}
