/**
 * The `changes` of issue and merge request hooks (reference `Issuable#to_hook_data`,
 * `hook_association_changes`, `Gitlab::DataBuilder::Issuable#build`), on snapshots; the delivery
 * suite (testing/http-suite/webhooks-changes.ts) checks them end to end.
 */
import { describe, expect, it } from "vitest";
import type { User } from "../../accounts/types.js";
import type { Issue } from "../../activity/types.js";
import { isDraftTitle } from "../../activity/types.js";
import type { Label } from "../../ports/imports-store.js";
import { issueChanges, mergeRequestChanges, type IssueSnapshot, type MergeRequestSnapshot } from "./changes.js";

const t0 = new Date("2024-05-01T10:00:00.000Z");
const t1 = new Date("2024-05-01T11:00:00.000Z");
const user = (id: number) => ({ id, username: `u${id}`, name: `User ${id}`, avatarUrl: null }) as unknown as User;
const label = (id: number, name: string): Label => ({ id, projectId: 7, groupId: null, name, color: "#ff0000", description: "", createdAt: t0, updatedAt: t0 });

const issue: Issue = {
  id: 11, projectId: 7, iid: 3, title: "Broken", description: "", confidential: false, state: "opened", authorId: 1,
  createdAt: t0, updatedAt: t0, closedAt: null, dueDate: null, discussionLocked: null, importedFrom: "none",
};
const issueAt = (patch: Partial<Issue> = {}, rest: Partial<Omit<IssueSnapshot, "issue">> = {}): IssueSnapshot => ({ issue: { ...issue, ...patch }, milestoneId: null, labels: [], assignees: [], ...rest });

const mergeRequestAt = (patch: Partial<MergeRequestSnapshot["mergeRequest"]> = {}, rest: Partial<Omit<MergeRequestSnapshot, "mergeRequest">> = {}): MergeRequestSnapshot => ({
  mergeRequest: {
    id: 21, projectId: 7, iid: 4, title: "Add feature", description: "", state: "opened", authorId: 1, sourceBranch: "feature", targetBranch: "main",
    createdAt: t0, updatedAt: t0, mergedAt: null, closedAt: null, mergeUserId: null, mergeCommitSha: null, ...patch,
  },
  milestoneId: null, discussionLocked: null, labels: [], assignees: [], reviewers: [], ...rest,
});

describe("issueChanges", () => {
  it("open: each column the insert wrote, from its default (null, state_id 1, confidential false); no associations", () => {
    const opened = issueAt({}, { labels: [label(1, "bug")], assignees: [user(2)] });
    expect(issueChanges("create", null, opened)).toEqual({
      author_id: { previous: null, current: 1 },
      created_at: { previous: null, current: t0.toISOString() },
      id: { previous: null, current: 11 },
      iid: { previous: null, current: 3 },
      project_id: { previous: null, current: 7 },
      title: { previous: null, current: "Broken" },
      updated_at: { previous: null, current: t0.toISOString() },
    });
    const full = issueChanges("create", null, issueAt({ description: "It is", confidential: true, dueDate: "2024-06-01" }, { milestoneId: 5 }));
    expect(Object.keys(full)).toEqual(["author_id", "confidential", "created_at", "description", "due_date", "id", "iid", "milestone_id", "project_id", "title", "updated_at"]);
    expect(full["confidential"]).toEqual({ previous: false, current: true });
    expect(full["description"]).toEqual({ previous: null, current: "It is" });
  });

  it("close and reopen: state_id, closed_at and updated_at", () => {
    const closed = issueAt({ state: "closed", closedAt: t1, updatedAt: t1 });
    expect(issueChanges("state", issueAt(), closed)).toEqual({
      closed_at: { previous: null, current: t1.toISOString() },
      state_id: { previous: 1, current: 2 },
      updated_at: { previous: t0.toISOString(), current: t1.toISOString() },
    });
    expect(issueChanges("state", closed, issueAt({ updatedAt: t1 }))).toEqual({
      closed_at: { previous: t1.toISOString(), current: null },
      state_id: { previous: 2, current: 1 },
    });
  });

  it("update: changed columns, then assignees and labels (User#hook_attrs, Label#hook_attrs) when their sets differ", () => {
    const before = issueAt({}, { labels: [label(1, "bug")], assignees: [user(2)] });
    const after = issueAt({ title: "Fixed", updatedAt: t1 }, { labels: [label(1, "bug"), label(2, "ui")], assignees: [user(3)] });
    const changes = issueChanges("update", before, after);
    expect(Object.keys(changes)).toEqual(["title", "updated_at", "assignees", "labels"]);
    expect(changes["assignees"]).toEqual({
      previous: [{ id: 2, name: "User 2", username: "u2", avatar_url: null, email: "[REDACTED]" }],
      current: [{ id: 3, name: "User 3", username: "u3", avatar_url: null, email: "[REDACTED]" }],
    });
    expect((changes["labels"]?.current as { title: string }[]).map((l) => l.title)).toEqual(["bug", "ui"]);
    expect(changes["labels"]?.previous).toEqual([{ id: 1, title: "bug", color: "#ff0000", project_id: 7, created_at: t0.toISOString(), updated_at: t0.toISOString(), template: false, description: null, type: "ProjectLabel", group_id: null }]);
  });

  it("update: the same assignees in another order are no change; a state change is only reported with its associations on updates", () => {
    const before = issueAt({}, { assignees: [user(2), user(3)] });
    expect(issueChanges("update", before, issueAt({}, { assignees: [user(3), user(2)] }))).toEqual({});
    expect(issueChanges("state", before, issueAt({}, { assignees: [] }))).toEqual({});
  });

  it("update: milestone, due date, confidentiality and discussion lock by their reference names", () => {
    const changes = issueChanges("update", issueAt(), issueAt({ confidential: true, dueDate: "2024-06-01", discussionLocked: true }, { milestoneId: 9 }));
    expect(changes).toEqual({
      confidential: { previous: false, current: true },
      discussion_locked: { previous: null, current: true },
      due_date: { previous: null, current: "2024-06-01" },
      milestone_id: { previous: null, current: 9 },
    });
  });
});

describe("mergeRequestChanges", () => {
  it("open: none (the reference's open hook comes from a worker that reloads the merge request)", () => {
    expect(mergeRequestChanges("create", null, mergeRequestAt())).toEqual({});
  });

  it("update: title (and draft with it), target_branch, then assignees, labels, reviewers", () => {
    const before = mergeRequestAt({ title: "Draft: Add feature" }, { reviewers: [user(2)] });
    const after = mergeRequestAt({ targetBranch: "develop", updatedAt: t1 }, { reviewers: [user(3)], labels: [label(4, "review")] });
    const changes = mergeRequestChanges("update", before, after);
    expect(Object.keys(changes)).toEqual(["draft", "target_branch", "title", "updated_at", "labels", "reviewers"]);
    expect(changes["draft"]).toEqual({ previous: true, current: false });
    expect(changes["target_branch"]).toEqual({ previous: "main", current: "develop" });
    expect(changes["reviewers"]?.current).toEqual([{ id: 3, name: "User 3", username: "u3", avatar_url: null, email: "[REDACTED]" }]);
  });

  it("update: milestone_id and discussion_locked when the merge request's milestone and lock change", () => {
    const changes = mergeRequestChanges("update", mergeRequestAt(), mergeRequestAt({ updatedAt: t1 }, { milestoneId: 9, discussionLocked: true }));
    expect(changes).toEqual({ discussion_locked: { previous: null, current: true }, milestone_id: { previous: null, current: 9 }, updated_at: { previous: t0.toISOString(), current: t1.toISOString() } });
  });

  it("merge: merge_commit_sha, merge_user_id, state_id 3, updated_at; close: state_id 2 (closed_at is no merge request column)", () => {
    const merged = mergeRequestAt({ state: "merged", mergedAt: t1, updatedAt: t1, mergeUserId: 2, mergeCommitSha: "a".repeat(40) });
    expect(mergeRequestChanges("state", mergeRequestAt(), merged)).toEqual({
      merge_commit_sha: { previous: null, current: "a".repeat(40) },
      merge_user_id: { previous: null, current: 2 },
      state_id: { previous: 1, current: 3 },
      updated_at: { previous: t0.toISOString(), current: t1.toISOString() },
    });
    expect(mergeRequestChanges("state", mergeRequestAt(), mergeRequestAt({ state: "closed", closedAt: t1, updatedAt: t1 }))).toEqual({
      state_id: { previous: 1, current: 2 },
      updated_at: { previous: t0.toISOString(), current: t1.toISOString() },
    });
  });
});

describe("isDraftTitle (the draft of the merge request entity and of its hook)", () => {
  it("a title starting with Draft:, [Draft], (Draft) or Draft - , in any case", () => {
    const drafts = ["Draft: x", "draft:x", "[Draft] x", "(draft) x", "Draft - x", "  Draft: x"];
    const others = ["Drafting", "WIP: x", "x Draft:", "Draft -x", ""];
    expect(drafts.filter(isDraftTitle)).toEqual(drafts);
    expect(others.filter(isDraftTitle)).toEqual([]);
  });
});
