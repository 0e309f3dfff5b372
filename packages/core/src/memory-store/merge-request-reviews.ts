/**
 * In-memory {@link MergeRequestVersionRepository} and {@link ApprovalRepository}. Rows of a removed
 * merge request, project, user or group are left in the tables but never read: every read checks
 * that what the row belongs to still exists (memory ids are never reused).
 */
import { DEFAULT_APPROVAL_SETTINGS, type ApprovalRepository, type ApprovalRuleRecord } from "../ports/approvals-store.js";
import type { MergeRequestVersionRecord, MergeRequestVersionRepository } from "../ports/merge-request-versions-store.js";
import { copy, type MemoryState, type Runner } from "./state.js";

const mrExists = (s: MemoryState, id: number) => s.activity.mergeRequests.has(id);

/** The in-memory versions repository. */
export function memoryMergeRequestVersions(run: Runner): MergeRequestVersionRepository {
  const of = (s: MemoryState, mergeRequestId: number) => (mrExists(s, mergeRequestId) ? [...s.mrReviews.versions.values()].filter((v) => v.mergeRequestId === mergeRequestId) : []);
  return {
    record: (input, now) =>
      run((s) => {
        if (!mrExists(s, input.mergeRequestId)) return null;
        const existing = of(s, input.mergeRequestId).find((v) => v.headSha === input.headSha);
        if (existing !== undefined) return copy(existing);
        const row: MergeRequestVersionRecord = { id: ++s.mrReviews.seq.versions, ...input, createdAt: now };
        s.mrReviews.versions.set(row.id, row);
        return copy(row);
      }),
    list: (mergeRequestId) => run((s) => copy(of(s, mergeRequestId).sort((a, b) => b.id - a.id))),
    find: (mergeRequestId, versionId) => run((s) => copy(of(s, mergeRequestId).find((v) => v.id === versionId) ?? null)),
  };
}

/** The in-memory approvals repository. */
export function memoryApprovals(run: Runner): ApprovalRepository {
  const approvalsOf = (s: MemoryState, id: number) => (mrExists(s, id) ? (s.mrReviews.approvals.get(id) ?? []).filter((a) => s.users.has(a.userId)) : []);
  const liveRule = (s: MemoryState, rule: ApprovalRuleRecord): ApprovalRuleRecord => ({ ...rule, userIds: rule.userIds.filter((id) => s.users.has(id)), groupIds: rule.groupIds.filter((id) => s.namespaces.has(id)) });
  const rulesOf = (s: MemoryState, projectId: number) => (s.projects.has(projectId) ? [...s.mrReviews.rules.values()].filter((r) => r.projectId === projectId).sort((a, b) => a.id - b.id).map((r) => liveRule(s, r)) : []);
  const settingsOf = (s: MemoryState, projectId: number) => (s.projects.has(projectId) ? (s.mrReviews.settings.get(projectId) ?? DEFAULT_APPROVAL_SETTINGS) : DEFAULT_APPROVAL_SETTINGS);
  return {
    approvals: (ids) => run((s) => new Map(ids.map((id) => [id, copy(approvalsOf(s, id))]))),
    approve: (mergeRequestId, userId, now) =>
      run((s) => {
        const current = approvalsOf(s, mergeRequestId);
        if (!mrExists(s, mergeRequestId) || current.some((a) => a.userId === userId)) return false;
        s.mrReviews.approvals.set(mergeRequestId, [...current, { mergeRequestId, userId, createdAt: now }]);
        return true;
      }),
    unapprove: (mergeRequestId, userId) =>
      run((s) => {
        const current = approvalsOf(s, mergeRequestId);
        const next = current.filter((a) => a.userId !== userId);
        s.mrReviews.approvals.set(mergeRequestId, next);
        return next.length < current.length;
      }),
    resetApprovals: (mergeRequestId) =>
      run((s) => {
        const count = approvalsOf(s, mergeRequestId).length;
        s.mrReviews.approvals.delete(mergeRequestId);
        return count;
      }),
    settings: (projectId) => run((s) => copy(settingsOf(s, projectId))),
    updateSettings: (projectId, patch) =>
      run((s) => {
        const next = { ...settingsOf(s, projectId), ...patch };
        if (s.projects.has(projectId)) s.mrReviews.settings.set(projectId, next);
        return copy(next);
      }),
    rules: (projectId) => run((s) => copy(rulesOf(s, projectId))),
    findRule: (projectId, ruleId) => run((s) => copy(rulesOf(s, projectId).find((r) => r.id === ruleId) ?? null)),
    createRule: (input) =>
      run((s) => {
        const rule: ApprovalRuleRecord = { id: ++s.mrReviews.seq.rules, ...copy(input), userIds: [...new Set(input.userIds)], groupIds: [...new Set(input.groupIds)] };
        s.mrReviews.rules.set(rule.id, rule);
        return copy(liveRule(s, rule));
      }),
    updateRule: (projectId, ruleId, patch) =>
      run((s) => {
        const rule = s.mrReviews.rules.get(ruleId);
        if (rule === undefined || rule.projectId !== projectId || !s.projects.has(projectId)) return null;
        const next: ApprovalRuleRecord = { ...rule, ...copy(patch) };
        next.userIds = [...new Set(next.userIds)];
        next.groupIds = [...new Set(next.groupIds)];
        s.mrReviews.rules.set(ruleId, next);
        return copy(liveRule(s, next));
      }),
    removeRule: (projectId, ruleId) =>
      run((s) => {
        const rule = s.mrReviews.rules.get(ruleId);
        if (rule === undefined || rule.projectId !== projectId || !s.projects.has(projectId)) return false;
        s.mrReviews.rules.delete(ruleId);
        return true;
      }),
  };
}
