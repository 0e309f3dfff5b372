/**
 * JSON shapes of releases (reference `API::Entities::Release`, `Releases::Link`, `Releases::Source`):
 * every field from stored state and the repository. Code fields (`commit`, `commit_path`,
 * `tag_path`, `assets.sources`) only for callers who may read the code, as the reference hides them
 * from guests of private projects. forgekit keeps no release evidence: `evidences` is empty.
 */
import { userBasic } from "../accounts/entities/users.js";
import { iso, isoDate } from "../accounts/entities/time.js";
import type { Project, User } from "../accounts/types.js";
import { milestoneEntity } from "../activity/entities.js";
import type { Milestone } from "../activity/types.js";
import { commitEntity, type CommitInfo } from "../repository-api/index.js";
import type { Release, ReleaseLink } from "./types.js";

/** Archive formats a release lists as sources (reference `Releases::Source::FORMATS`). */
export const SOURCE_FORMATS = ["zip", "tar.gz", "tar.bz2", "tar"] as const;

const trim = (baseUrl: string) => baseUrl.replace(/\/+$/, "");
const webUrl = (baseUrl: string, project: Project) => `${trim(baseUrl)}/${project.fullPath}`;
const tagSegment = (tag: string) => tag.split("/").map(encodeURIComponent).join("/");

/** `Releases::Link`: `direct_asset_url` is the release's download URL plus `filepath` when it has one. */
export function releaseLinkEntity(baseUrl: string, project: Project, release: Release, link: ReleaseLink) {
  return {
    id: link.id,
    name: link.name,
    url: link.url,
    direct_asset_url: link.filepath === null ? link.url : `${webUrl(baseUrl, project)}/-/releases/${encodeURIComponent(release.tagName)}/downloads${link.filepath}`,
    link_type: link.linkType,
  };
}

/** Text as HTML paragraphs, escaped (forgekit renders no Markdown: the text stays literal and safe). */
export function plainHtml(text: string): string {
  const escape = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
  return text
    .split(/\n{2,}/)
    .map((p) => p.trim())
    .filter((p) => p !== "")
    .map((p) => `<p dir="auto">${escape(p).replace(/\n/g, "<br>")}</p>`)
    .join("\n");
}

/** What a release is rendered with besides itself. */
export interface ReleaseView {
  release: Release;
  project: Project;
  author: User | null;
  /** The tag's commit, or null when the tag is gone or the repository is not readable here. */
  commit: CommitInfo | null;
  milestones: Milestone[];
  links: ReleaseLink[];
  /** Whether the caller may read the code (reference `can_download_code?`). */
  readCode: boolean;
  /** Whether the caller may edit the release (`edit_url`). */
  canEdit: boolean;
  includeHtml: boolean;
  now: Date;
}

/** `Release`. */
export function releaseEntity(baseUrl: string, v: ReleaseView) {
  const { release, project } = v;
  const web = webUrl(baseUrl, project);
  const self = `${web}/-/releases/${encodeURIComponent(release.tagName)}`;
  const sources = v.readCode ? SOURCE_FORMATS.map((format) => ({ format, url: `${web}/-/archive/${tagSegment(release.tagName)}/${project.path}-${release.tagName.replace(/\//g, "-")}.${format}` })) : [];
  const issues = `${web}/-/issues?release_tag=${encodeURIComponent(release.tagName)}&scope=all`;
  const mrs = `${web}/-/merge_requests?release_tag=${encodeURIComponent(release.tagName)}&scope=all`;
  return {
    name: release.name,
    tag_name: release.tagName,
    description: release.description,
    ...(v.includeHtml ? { description_html: plainHtml(release.description) } : {}),
    created_at: iso(release.createdAt),
    released_at: iso(release.releasedAt),
    upcoming_release: release.releasedAt.getTime() > v.now.getTime(),
    ...(v.author === null ? {} : { author: userBasic(v.author, baseUrl) }),
    ...(v.readCode && v.commit !== null ? { commit: commitEntity(baseUrl, project, v.commit) } : {}),
    ...(v.milestones.length === 0 ? {} : { milestones: v.milestones.map((m) => milestoneEntity(m, project, baseUrl, isoDate(v.now))) }),
    ...(v.readCode ? { commit_path: `/${project.fullPath}/-/commit/${release.sha}`, tag_path: `/${project.fullPath}/-/tags/${encodeURIComponent(release.tagName)}` } : {}),
    assets: {
      count: sources.length + v.links.length,
      sources,
      links: v.links.map((l) => releaseLinkEntity(baseUrl, project, release, l)),
    },
    evidences: [],
    _links: {
      closed_issues_url: `${issues.replace("scope=all", "scope=all&state=closed")}`,
      closed_merge_requests_url: `${mrs.replace("scope=all", "scope=all&state=closed")}`,
      ...(v.canEdit ? { edit_url: `${self}/edit` } : {}),
      merged_merge_requests_url: `${mrs.replace("scope=all", "scope=all&state=merged")}`,
      opened_issues_url: `${issues.replace("scope=all", "scope=all&state=opened")}`,
      opened_merge_requests_url: `${mrs.replace("scope=all", "scope=all&state=opened")}`,
      self,
    },
  };
}
