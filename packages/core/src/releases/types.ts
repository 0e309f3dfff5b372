/** Project releases (reference `Release`, `Releases::Link`): a named, described tag with asset links. */

/** Kinds of release asset links (reference `Releases::Link.link_types`). */
export const RELEASE_LINK_TYPES = ["other", "runbook", "image", "package"] as const;
/** One of {@link RELEASE_LINK_TYPES}. */
export type ReleaseLinkType = (typeof RELEASE_LINK_TYPES)[number];

/** A project release, keyed by its tag. */
export interface Release {
  id: number;
  projectId: number;
  tagName: string;
  name: string;
  description: string;
  /** Who created it; null once that user is gone. */
  authorId: number | null;
  /** The commit the tag pointed at when the release was made (reference `releases.sha`). */
  sha: string;
  /** Ids of the project milestones the release is linked to, in the order given. */
  milestoneIds: number[];
  createdAt: Date;
  releasedAt: Date;
  updatedAt: Date;
}

/** A link in a release's assets. */
export interface ReleaseLink {
  id: number;
  releaseId: number;
  name: string;
  url: string;
  /** A path below the release's download URL (`/binaries/app`), or null. */
  filepath: string | null;
  linkType: ReleaseLinkType;
  createdAt: Date;
  updatedAt: Date;
}
