/**
 * Project features as settings (reference `ProjectFeature`): each feature forgekit has is
 * `disabled`, `private` (project members only) or `enabled` (everyone who can see the project).
 * Features forgekit does not have (CI/CD builds, container registry, pages, packages, wiki,
 * forking, analytics, …) are not settings: the project entity shows them `disabled`.
 */

/** A feature's access level (reference `ProjectFeature::STRING_OPTIONS`). */
export type FeatureAccessLevel = "disabled" | "private" | "enabled";

/** The access levels in order of openness (an index comparison tells which is more open). */
export const FEATURE_ACCESS_LEVELS: readonly FeatureAccessLevel[] = ["disabled", "private", "enabled"];

/** The features a project's settings hold. */
export interface ProjectFeatures {
  issues: FeatureAccessLevel;
  mergeRequests: FeatureAccessLevel;
  /** The repository: code, commits, branches, git over HTTP. */
  repository: FeatureAccessLevel;
  snippets: FeatureAccessLevel;
}

/** The names of the stored features. */
export type ProjectFeature = keyof ProjectFeatures;

/** A new project's features (reference defaults: all enabled). */
export const DEFAULT_PROJECT_FEATURES: Readonly<ProjectFeatures> = { issues: "enabled", mergeRequests: "enabled", repository: "enabled", snippets: "enabled" };

/** The API names of each stored feature: `<api>_access_level` and `<api>_enabled`. */
export const FEATURE_API_NAMES: Readonly<Record<ProjectFeature, string>> = {
  issues: "issues",
  mergeRequests: "merge_requests",
  repository: "repository",
  snippets: "snippets",
};

/** The reference's numbers for the levels (`ProjectFeature::DISABLED/PRIVATE/ENABLED`), as the SQL store keeps them. */
export const FEATURE_LEVEL_NUMBERS: Readonly<Record<FeatureAccessLevel, number>> = { disabled: 0, private: 10, enabled: 20 };

/** The level a stored number names (anything unknown reads as `disabled`, the safe side). */
export function featureLevelOf(value: number): FeatureAccessLevel {
  if (value >= FEATURE_LEVEL_NUMBERS.enabled) return "enabled";
  return value >= FEATURE_LEVEL_NUMBERS.private ? "private" : "disabled";
}

/** Whether `a` is more open than `b`. */
export function moreOpen(a: FeatureAccessLevel, b: FeatureAccessLevel): boolean {
  return FEATURE_ACCESS_LEVELS.indexOf(a) > FEATURE_ACCESS_LEVELS.indexOf(b);
}

/** The branch a new repository's `HEAD` names when none is given (reference `Gitlab::DefaultBranch`). */
export const DEFAULT_BRANCH = "main";
