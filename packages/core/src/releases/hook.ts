/**
 * Release webhook events (issue 20; reference `Releases::*Service#execute_hooks`,
 * `Release#hook_attrs`, doc "Webhook events" → Release events): a release created, changed or
 * deleted is queued for the project's and its groups' hooks with `releases_events` on, in the
 * transaction of the change, with the payload built from the release as it is then.
 */
import type { Project } from "../accounts/types.js";
import type { TransactionStore } from "../ports/store.js";
import type { CommitInfo } from "../repository-api/index.js";
import { projectBlock, queuePayloadDeliveries } from "../webhooks/index.js";
import { SOURCE_FORMATS } from "./entity.js";
import type { Release, ReleaseLink } from "./types.js";

/** `action` of a release payload. */
export type ReleaseHookAction = "create" | "update" | "delete";

/** Reference `Time#to_s` of a UTC time, as release payloads show times (`2020-11-02 12:55:12 UTC`). */
const rubyUtc = (date: Date) => `${date.toISOString().slice(0, 19).replace("T", " ")} UTC`;
const tagSegment = (tag: string) => tag.split("/").map(encodeURIComponent).join("/");

/** Reference `Commit#title`: the first line, cut at a word to 80 characters plus `…` when 100 or longer. */
export function commitTitle(message: string): string {
  const full = message.trim() === "" ? "No commit message" : (message.split(/[\r\n]/, 1)[0] ?? "");
  if (full.length < 100) return full;
  const space = full.lastIndexOf(" ", 80);
  return `${full.slice(0, space >= 0 ? space : 80)}…`;
}

/** What a release payload is built from. */
export interface ReleaseHookView {
  baseUrl: string;
  project: Project;
  /** The name of the project's namespace. */
  namespaceName: string;
  release: Release;
  links: readonly ReleaseLink[];
  /** The commit of the release's tag, when the repository has it. */
  commit: CommitInfo | null;
}

/** Reference `Release#hook_attrs` (its commit: `Commit#hook_attrs`) with `object_kind`, `project`, `url`, `action`, `assets` and `commit`. */
export function releaseHookPayload(v: ReleaseHookView, action: ReleaseHookAction) {
  const base = v.baseUrl.replace(/\/+$/, "");
  const web = `${base}/${v.project.fullPath}`;
  const { release, commit } = v;
  const sources = SOURCE_FORMATS.map((format) => ({ format, url: `${web}/-/archive/${tagSegment(release.tagName)}/${v.project.path}-${release.tagName.replace(/\//g, "-")}.${format}` }));
  return {
    id: release.id,
    created_at: rubyUtc(release.createdAt),
    description: release.description,
    name: release.name,
    released_at: rubyUtc(release.releasedAt),
    tag: release.tagName,
    object_kind: "release",
    project: projectBlock(base, v.project, { name: v.namespaceName }),
    url: `${web}/-/releases/${encodeURIComponent(release.tagName)}`,
    action,
    assets: {
      count: sources.length + v.links.length,
      // Reference `Releases::Link#external?`: not a URL of this instance.
      links: v.links.map((l) => ({ id: l.id, external: !l.url.startsWith(`${base}/`), link_type: l.linkType, name: l.name, url: l.url })),
      sources,
    },
    commit:
      commit === null
        ? null
        : {
            id: commit.id,
            message: commit.message,
            title: commitTitle(commit.message),
            timestamp: commit.committedDate,
            url: `${web}/-/commit/${commit.id}`,
            author: { name: commit.authorName, email: commit.authorEmail },
          },
  };
}

/** Queues the release event for the project's hooks inside `tx` (links read in `tx` unless given); the number queued. */
export async function queueReleaseHooks(
  tx: TransactionStore,
  view: Omit<ReleaseHookView, "links" | "namespaceName"> & { links?: readonly ReleaseLink[] },
  action: ReleaseHookAction,
  now: Date,
): Promise<number> {
  const namespace = await tx.namespaces.findById(view.project.namespaceId);
  if (namespace === null) return 0;
  const links = view.links ?? (await tx.releases.links([view.release.id]));
  return queuePayloadDeliveries(
    tx,
    { projectId: view.project.id, event: "releases_events", trigger: "release_hooks", subjectId: view.release.id, header: "Release Hook", payload: releaseHookPayload({ ...view, namespaceName: namespace.name, links }, action) },
    now,
  );
}
