/**
 * The project feature parameters of `POST /projects` and `PUT /projects/:id` (reference
 * `Helpers::ProjectsHelpers#optional_project_params_ce`): `<feature>_access_level`
 * (`disabled`/`private`/`enabled`) and the older `<feature>_enabled` booleans, which set the level to
 * `enabled` or `disabled` when the level itself is not given.
 */
import { p } from "../../http/params.js";
import type { ProjectMergeChecks } from "../merge-checks.js";
import type { FeatureAccessLevel, ProjectFeature, ProjectFeatures } from "../project-features.js";

const LEVEL = p.enum(["disabled", "private", "enabled"]).optional();
const ENABLED = p.bool().optional();

/** The zod shape of the feature parameters (spread into a route's params). */
export const FEATURE_PARAMS = {
  issues_access_level: LEVEL,
  merge_requests_access_level: LEVEL,
  repository_access_level: LEVEL,
  snippets_access_level: LEVEL,
  issues_enabled: ENABLED,
  merge_requests_enabled: ENABLED,
  snippets_enabled: ENABLED,
};

/** The zod shape of the merge-check parameters (reference `only_allow_merge_if_*`). */
export const MERGE_CHECK_PARAMS = {
  only_allow_merge_if_pipeline_succeeds: ENABLED,
  only_allow_merge_if_all_discussions_are_resolved: ENABLED,
};

/** The merge checks the parameters set (`undefined` when they set none). */
export function mergeChecksFromParams(params: { only_allow_merge_if_pipeline_succeeds?: boolean | undefined; only_allow_merge_if_all_discussions_are_resolved?: boolean | undefined }): Partial<ProjectMergeChecks> | undefined {
  const checks: Partial<ProjectMergeChecks> = {};
  if (params.only_allow_merge_if_pipeline_succeeds !== undefined) checks.pipelineMustSucceed = params.only_allow_merge_if_pipeline_succeeds;
  if (params.only_allow_merge_if_all_discussions_are_resolved !== undefined) checks.discussionsMustBeResolved = params.only_allow_merge_if_all_discussions_are_resolved;
  return Object.keys(checks).length === 0 ? undefined : checks;
}

type FeatureParams = { [K in keyof typeof FEATURE_PARAMS]?: K extends `${string}_enabled` ? boolean | undefined : FeatureAccessLevel | undefined };

/** The features the parameters set (`undefined` when they set none). */
export function featuresFromParams(params: FeatureParams): Partial<ProjectFeatures> | undefined {
  const features: Partial<ProjectFeatures> = {};
  const pick = (feature: ProjectFeature, level: FeatureAccessLevel | undefined, enabled?: boolean) => {
    const chosen = level ?? (enabled === undefined ? undefined : enabled ? "enabled" : "disabled");
    if (chosen !== undefined) features[feature] = chosen;
  };
  pick("issues", params.issues_access_level, params.issues_enabled);
  pick("mergeRequests", params.merge_requests_access_level, params.merge_requests_enabled);
  pick("repository", params.repository_access_level);
  pick("snippets", params.snippets_access_level, params.snippets_enabled);
  return Object.keys(features).length === 0 ? undefined : features;
}
