/** Loads what issue entities show (assignees, labels, milestone, author, closer, note and closing merge request counts) for a page of issues. */
import { closerId } from "../issuable-facts.js";
import { canReadMergeRequests } from "../../access/features.js";
import { isoDate } from "../../accounts/entities/time.js";
import type { Project, User } from "../../accounts/types.js";
import type { Store } from "../../ports/store.js";
import { issueEntity, type ReferenceContext } from "../entities.js";
import type { Issue, Milestone } from "../types.js";

/** Assignee ids of each issue. */
export function assigneesOf(store: Store, issues: readonly Issue[]): Promise<Map<number, number[]>> {
  return store.activity.issueDetails.assigneesOf(issues.map((i) => i.id));
}

/**
 * Reference `MergeRequestsClosingIssues.count_for_collection(ids, current_user)`: per issue, the
 * merge requests that close it (the stored relation, one query for the page) in projects whose
 * merge requests `viewer` may read (checked once per project).
 */
async function closingMergeRequestCounts(store: Store, issues: readonly Issue[], viewer: User | null, projects: Map<number, Project>, now: Date): Promise<Map<number, number>> {
  const counts = await store.mergeRequestClosingIssues.countsByProject(issues.map((i) => i.id));
  const readable = new Map<number, boolean>();
  const out = new Map<number, number>();
  for (const [issueId, perProject] of counts) {
    let total = 0;
    for (const { projectId, count } of perProject) {
      if (!readable.has(projectId)) {
        const project = projects.get(projectId) ?? (await store.projects.findById(projectId));
        readable.set(projectId, project !== null && (await canReadMergeRequests(store, viewer, project, now)));
      }
      if (readable.get(projectId) === true) total += count;
    }
    out.set(issueId, total);
  }
  return out;
}

/**
 * Issue entities for `issues` (projects looked up once each), in the given order, as `viewer` sees
 * them (`merge_requests_count`) as of `now` (milestones' `expired`).
 */
export async function renderIssues(store: Store, baseUrl: string, issues: readonly Issue[], context: ReferenceContext, known: readonly Project[], now: Date, viewer: User | null) {
  const ids = issues.map((i) => i.id);
  const details = store.activity.issueDetails;
  const [assignees, labels, milestoneIds] = await Promise.all([details.assigneesOf(ids), details.labelNamesOf(ids), details.milestonesOf(ids)]);
  const projects = new Map<number, Project>(known.map((p) => [p.id, p]));
  for (const projectId of new Set(issues.map((i) => i.projectId))) {
    if (!projects.has(projectId)) {
      const project = await store.projects.findById(projectId);
      if (project !== null) projects.set(projectId, project);
    }
  }
  const mergeRequestsCounts = await closingMergeRequestCounts(store, issues, viewer, projects, now);
  const milestones = new Map<number, Milestone>();
  for (const id of new Set([...milestoneIds.values()].filter((m): m is number => m !== null))) {
    const milestone = await store.activity.milestones.findById(id);
    if (milestone !== null) milestones.set(id, milestone);
  }
  // Per issue: its notes give the user-note count and who closed it (the latest "closed" system note).
  const notes = new Map(await Promise.all(issues.map(async (i) => [i.id, await store.activity.notes.listByNoteable("Issue", i.id)] as const)));
  const closers = new Map<number, number>();
  for (const issue of issues) {
    const closer = closerId(issue.state, notes.get(issue.id) ?? []);
    if (closer !== null) closers.set(issue.id, closer);
  }
  const userIds = new Set<number>([...issues.map((i) => i.authorId), ...[...assignees.values()].flat(), ...closers.values()]);
  const users = new Map<number, User>((await store.users.findByIds([...userIds])).map((u) => [u.id, u]));
  return issues.flatMap((issue) => {
    const project = projects.get(issue.projectId);
    if (project === undefined) return [];
    const milestoneId = milestoneIds.get(issue.id) ?? null;
    const closer = closers.get(issue.id);
    return [
      issueEntity(
        {
          issue,
          project,
          author: users.get(issue.authorId) ?? null,
          assignees: (assignees.get(issue.id) ?? []).flatMap((id) => users.get(id) ?? []),
          labels: labels.get(issue.id) ?? [],
          milestone: milestoneId === null ? null : (milestones.get(milestoneId) ?? null),
          closedBy: closer === undefined ? null : (users.get(closer) ?? null),
          userNotesCount: (notes.get(issue.id) ?? []).filter((n) => !n.system).length,
          mergeRequestsCount: mergeRequestsCounts.get(issue.id) ?? 0,
          context,
        },
        baseUrl,
        isoDate(now),
      ),
    ];
  });
}
