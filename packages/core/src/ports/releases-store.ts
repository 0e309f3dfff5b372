/** Storage port of project releases and their asset links (reference `Release`, `Releases::Link`). */
import type { Release, ReleaseLink, ReleaseLinkType } from "../releases/types.js";
import type { OffsetPageRequest, OffsetPageResult } from "./pagination.js";

/** What creating a release stores. */
export type NewRelease = Omit<Release, "id" | "updatedAt">;

/** What creating an asset link stores. */
export interface NewReleaseLink {
  name: string;
  url: string;
  filepath: string | null;
  linkType: ReleaseLinkType;
}

/** Outcome of writing an asset link: stored, or refused because another link of the release has that name, url or filepath. */
export type ReleaseLinkWrite = { link: ReleaseLink } | { refused: "name_taken" | "url_taken" | "filepath_taken" };

/** Order of the release list (reference `ReleasesFinder`): `released_at` or `created_at`, then id. */
export interface ReleaseOrder {
  orderBy: "released_at" | "created_at";
  sort: "asc" | "desc";
}

/** The store's releases: one per tag of a project, with their links. */
export interface ReleaseRepository {
  /**
   * Creates a release with its links (the caller keeps their names, urls and filepaths distinct).
   * Null when the project already has a release of that tag (unique per project, even under a race).
   */
  create(input: NewRelease, links: readonly NewReleaseLink[], now: Date): Promise<Release | null>;
  /** The project's release of `tagName` (exact, case-sensitive), or null. */
  find(projectId: number, tagName: string): Promise<Release | null>;
  /**
   * The project's releases of these tags (exact, case-sensitive names), any order, in one lookup:
   * what a page of tags shows under `release`.
   */
  findByTags(projectId: number, tagNames: readonly string[]): Promise<Release[]>;
  /** The project's releases in `order` (ties by id in the same direction). */
  list(projectId: number, order: ReleaseOrder, page: OffsetPageRequest): Promise<OffsetPageResult<Release>>;
  /** Changes the given fields; null when the release is gone. */
  update(id: number, patch: Partial<Pick<Release, "name" | "description" | "releasedAt" | "milestoneIds">>, now: Date): Promise<Release | null>;
  /** Deletes the release and its links (never the tag); false when it was gone. */
  remove(id: number): Promise<boolean>;
  /** The links of each release in `releaseIds`, by id ascending. */
  links(releaseIds: readonly number[]): Promise<ReleaseLink[]>;
  /** Adds a link; refused when the release has a link with that name, url or filepath (atomic). */
  addLink(releaseId: number, input: NewReleaseLink, now: Date): Promise<ReleaseLinkWrite | null>;
  /** Changes a link of the release; null when it is not one of its links. */
  updateLink(releaseId: number, linkId: number, patch: Partial<NewReleaseLink>, now: Date): Promise<ReleaseLinkWrite | null>;
  /** Deletes a link of the release and returns it; null when it is not one of its links. */
  removeLink(releaseId: number, linkId: number): Promise<ReleaseLink | null>;
}
