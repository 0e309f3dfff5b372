/**
 * JSON shapes of commit statuses and external pipelines (reference `Entities::CommitStatus`,
 * `Entities::Ci::PipelineBasic`, `Entities::Ci::Pipeline`). Every field is read from the stored
 * rows: an external pipeline has no YAML (`yaml_errors` null), no `before_sha` and no queue time.
 */
import { iso } from "../accounts/entities/time.js";
import { userBasic } from "../accounts/entities/users.js";
import type { Project, User } from "../accounts/types.js";
import type { CommitStatusRecord, CommitStatusState, PipelineRecord } from "../ports/statuses-store.js";

/** The null object id the reference shows as `before_sha` of a pipeline that no push made. */
const BLANK_SHA = "0".repeat(40);

const LABELS: Record<CommitStatusState, string> = { created: "created", pending: "pending", running: "running", success: "passed", failed: "failed", canceled: "canceled", skipped: "skipped" };

const author = (users: ReadonlyMap<number, User>, id: number | null, baseUrl: string) => {
  const u = id === null ? undefined : users.get(id);
  return u === undefined ? null : userBasic(u, baseUrl);
};

/** `CommitStatus` of one status. */
export function commitStatusEntity(baseUrl: string, users: ReadonlyMap<number, User>, s: CommitStatusRecord) {
  return {
    id: s.id,
    sha: s.sha,
    ref: s.ref,
    status: s.status,
    name: s.name,
    target_url: s.targetUrl,
    description: s.description,
    created_at: iso(s.createdAt),
    started_at: iso(s.startedAt),
    finished_at: iso(s.finishedAt),
    allow_failure: false,
    coverage: s.coverage,
    pipeline_id: s.pipelineId,
    author: author(users, s.authorId, baseUrl),
  };
}

const pipelineUrl = (baseUrl: string, project: Project, p: PipelineRecord) => `${baseUrl.replace(/\/$/, "")}/${project.fullPath}/-/pipelines/${p.id}`;

/** `PipelineBasic`: what lists, commits (`last_pipeline`) and merge requests (`pipeline`) show. */
export function pipelineBasicEntity(baseUrl: string, project: Project, p: PipelineRecord) {
  return {
    id: p.id,
    iid: p.iid,
    project_id: p.projectId,
    sha: p.sha,
    ref: p.ref,
    status: p.status,
    source: "external",
    created_at: iso(p.createdAt),
    updated_at: iso(p.updatedAt),
    web_url: pipelineUrl(baseUrl, project, p),
  };
}

/** `Pipeline`: the basic fields plus user, times, coverage and the detailed status. */
export function pipelineEntity(baseUrl: string, project: Project, users: ReadonlyMap<number, User>, p: PipelineRecord, coverage: number | null) {
  const label = LABELS[p.status];
  const duration = p.startedAt !== null && p.finishedAt !== null ? Math.max(0, Math.round((p.finishedAt.getTime() - p.startedAt.getTime()) / 1000)) : null;
  return {
    ...pipelineBasicEntity(baseUrl, project, p),
    before_sha: BLANK_SHA,
    tag: false,
    yaml_errors: null,
    user: author(users, p.userId, baseUrl),
    started_at: iso(p.startedAt),
    finished_at: iso(p.finishedAt),
    committed_at: null,
    duration,
    queued_duration: null,
    coverage: coverage === null ? null : coverage.toFixed(2),
    detailed_status: {
      icon: `status_${p.status}`,
      text: label.charAt(0).toUpperCase() + label.slice(1),
      label,
      group: p.status,
      tooltip: label,
      has_details: true,
      details_path: `/${project.fullPath}/-/pipelines/${p.id}`,
      illustration: null,
      favicon: `/assets/ci_favicons/favicon_status_${p.status}.png`,
    },
  };
}

/** The pipeline's coverage: the mean of its latest statuses' coverage values (reference `Ci::Pipeline#coverage`), or null. */
export function pipelineCoverage(statuses: readonly CommitStatusRecord[]): number | null {
  const values = statuses.map((s) => s.coverage).filter((c): c is number => c !== null);
  return values.length === 0 ? null : values.reduce((a, b) => a + b, 0) / values.length;
}

/** Users referred to by statuses or pipelines, read once each. */
export async function usersOf(findById: (id: number) => Promise<User | null>, ids: readonly (number | null)[]): Promise<Map<number, User>> {
  const users = new Map<number, User>();
  for (const id of new Set(ids)) {
    if (id === null) continue;
    const u = await findById(id);
    if (u !== null) users.set(id, u);
  }
  return users;
}
