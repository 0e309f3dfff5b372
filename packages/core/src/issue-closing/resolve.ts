/**
 * From closing phrases to issues (reference `Gitlab::ClosingIssueExtractor#closed_by_message`,
 * which runs the reference extractor as the given user): `#n` is an issue of the text's project,
 * `group/project#n` (or a link) one of that project, `project#n` one of a sibling project in the
 * same namespace. Only issues the user may read count: an invisible project or a confidential
 * issue the user cannot see is skipped, as if not mentioned.
 */
import type { Project, User } from "../accounts/types.js";
import { canReadProject } from "../access/permissions.js";
import type { Issue } from "../activity/index.js";
import { canReadIssue, levelOn } from "../activity/routes/access.js";
import type { ForgekitConfig } from "../config.js";
import { closingReferences } from "./pattern.js";

/** The issues the closing phrases of `texts` name that `viewer` may read, in the order named. */
export async function closingIssues(config: ForgekitConfig, project: Project, viewer: User | null, texts: readonly string[]): Promise<Issue[]> {
  const { store } = config;
  const now = config.clock.now();
  const namespace = project.fullPath.slice(0, project.fullPath.lastIndexOf("/"));
  const projects = new Map<string, Project | null>([[project.fullPath.toLowerCase(), project]]);
  const out: Issue[] = [];
  const seen = new Set<number>();
  for (const ref of closingReferences(texts.join("\n"), config.baseUrl)) {
    const path = ref.path === null ? project.fullPath : ref.path.includes("/") ? ref.path : `${namespace}/${ref.path}`;
    const key = path.toLowerCase();
    if (!projects.has(key)) {
      const found = await store.projects.findByFullPath(path);
      projects.set(key, found !== null && (await canReadProject(store, viewer, found, now)) ? found : null);
    }
    const target = projects.get(key) ?? null;
    if (target === null) continue;
    const issue = await store.activity.issues.findByIid(target.id, ref.iid);
    if (issue === null || seen.has(issue.id)) continue;
    const assignees = (await store.activity.issueDetails.assigneesOf([issue.id])).get(issue.id) ?? [];
    if (!canReadIssue(viewer, await levelOn(store, viewer, target, now), issue, assignees)) continue;
    seen.add(issue.id);
    out.push(issue);
  }
  return out;
}
