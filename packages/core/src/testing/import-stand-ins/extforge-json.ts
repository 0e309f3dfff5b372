/**
 * The forge stand-in's records as GitHub REST v3 JSON: users, repositories, issues (pull requests
 * included, as the forge lists them), pull requests, comments, review comments, events, gists; and
 * each repository's issue and comment lists, given ones first, then generated ones made on demand.
 */
import type { BuiltRepository } from "./git-repositories.js";
import type {
  ExtForgeStandInComment,
  ExtForgeStandInEvent,
  ExtForgeStandInGist,
  ExtForgeStandInIssue,
  ExtForgeStandInPull,
  ExtForgeStandInRelease,
  ExtForgeStandInRepository,
  ExtForgeStandInReviewComment,
  ExtForgeStandInUser,
} from "./extforge-model.js";
import { arrayList, concatLists, generatedList, minutesAfter, type LazyList } from "./kit.js";

export type Json = Record<string, unknown>;
export const BASE_DATE = new Date(Date.UTC(2024, 0, 1));

/** What the JSON needs to know: the accounts, the built repositories and the server's origin (known once listening). */
export interface ForgeJsonContext {
  users: readonly ExtForgeStandInUser[];
  built: Record<string, BuiltRepository>;
  origin(): string;
}

/** The JSON builders of one stand-in. */
export function forgeJson(ctx: ForgeJsonContext) {
  const repoUrl = (repo: ExtForgeStandInRepository) => `${ctx.origin()}/repos/${repo.owner}/${repo.name}`;

  /** A user as lists show one (no e-mail); `withEmail` as `GET /users/:login` shows one (the public e-mail or null). */
  const user = (login: string | undefined, withEmail = false): Json | null => {
    if (login === undefined) return null;
    const u = ctx.users.find((x) => x.login === login);
    return {
      id: u?.id ?? 10_000 + login.length,
      login,
      type: "User",
      site_admin: false,
      ...(u?.name === undefined ? {} : { name: u.name }),
      ...(withEmail ? { email: u?.email ?? null } : {}),
    };
  };

  function issue(repo: ExtForgeStandInRepository, i: ExtForgeStandInIssue | ExtForgeStandInPull, isPull: boolean): Json {
    const state = i.state === "merged" || i.state === "closed" ? "closed" : "open";
    const created = i.createdAt ?? minutesAfter(BASE_DATE, i.number);
    const milestone = i.milestone === undefined ? undefined : repo.milestones?.find((m) => m.number === i.milestone);
    return {
      id: repo.id * 1_000_000 + i.number,
      number: i.number,
      title: i.title,
      body: i.body ?? null,
      state,
      locked: false,
      user: user(i.author ?? repo.owner),
      assignee: i.assignees?.[0] === undefined ? null : user(i.assignees[0]),
      assignees: (i.assignees ?? []).map((login) => user(login)),
      labels: (i.labels ?? []).map((name) => ({ name, color: repo.labels?.find((l) => l.name === name)?.color ?? "ededed" })),
      milestone: i.milestone === undefined ? null : { number: i.milestone, title: milestone?.title ?? `m${i.milestone}`, state: milestone?.state ?? "open" },
      created_at: created,
      updated_at: created,
      closed_at: state === "closed" ? (i.closedAt ?? created) : null,
      url: `${repoUrl(repo)}/issues/${i.number}`,
      ...(isPull ? { pull_request: { url: `${repoUrl(repo)}/pulls/${i.number}` } } : {}),
    };
  }

  function pull(repo: ExtForgeStandInRepository, p: ExtForgeStandInPull): Json {
    const git = ctx.built[`${repo.owner}/${repo.name}`];
    const base = p.base ?? repo.git?.defaultBranch ?? "main";
    const asIssue = issue(repo, p, false);
    const full = { full_name: `${repo.owner}/${repo.name}` };
    const merged = p.state === "merged";
    return {
      ...asIssue,
      draft: p.draft === true,
      head: { ref: p.head, sha: git?.branches[p.head] ?? "0".repeat(40), repo: full },
      base: { ref: base, sha: git?.branches[base] ?? "0".repeat(40), repo: full },
      merged_at: merged ? asIssue["closed_at"] : null,
      merge_commit_sha: merged ? (git?.branches[base] ?? null) : null,
    };
  }

  function comment(repo: ExtForgeStandInRepository, c: ExtForgeStandInComment, index: number): Json {
    const created = c.createdAt ?? minutesAfter(BASE_DATE, c.issue + index / 1000);
    return { id: c.id ?? 500_000 + index, body: c.body, user: user(c.author ?? repo.owner), created_at: created, updated_at: created, issue_url: `${repoUrl(repo)}/issues/${c.issue}` };
  }

  function reviewComment(repo: ExtForgeStandInRepository, c: ExtForgeStandInReviewComment, index: number): Json {
    const created = c.createdAt ?? minutesAfter(BASE_DATE, c.pull + index / 1000);
    const git = ctx.built[`${repo.owner}/${repo.name}`];
    const pull = repo.pulls?.find((p) => p.number === c.pull);
    const head = (pull === undefined ? undefined : git?.branches[pull.head]) ?? "0".repeat(40);
    return {
      id: c.id ?? 700_000 + index,
      body: c.body,
      path: c.path,
      line: c.line ?? null,
      original_line: c.originalLine === undefined ? (c.line ?? null) : c.originalLine,
      side: c.side ?? "RIGHT",
      // The pull request's head now and when the comment was made (the stand-in's pulls do not move).
      commit_id: head,
      original_commit_id: head,
      diff_hunk: c.diffHunk ?? "@@ -1 +1 @@",
      user: user(c.author ?? repo.owner),
      created_at: created,
      updated_at: created,
      pull_request_url: `${repoUrl(repo)}/pulls/${c.pull}`,
      ...(c.inReplyTo === undefined ? {} : { in_reply_to_id: c.inReplyTo }),
    };
  }

  function event(repo: ExtForgeStandInRepository, e: ExtForgeStandInEvent, index: number, withIssue: boolean): Json {
    return {
      id: e.id ?? 900_000 + index,
      event: e.event,
      actor: user(e.actor ?? repo.owner),
      created_at: e.createdAt ?? minutesAfter(BASE_DATE, e.issue + index / 1000),
      commit_id: null,
      ...(e.label === undefined ? {} : { label: { name: e.label, color: "ededed" } }),
      ...(withIssue ? { issue: { number: e.issue } } : {}),
    };
  }

  function repository(repo: ExtForgeStandInRepository): Json {
    return {
      id: repo.id,
      name: repo.name,
      full_name: `${repo.owner}/${repo.name}`,
      owner: user(repo.owner),
      private: repo.private === true,
      visibility: repo.private === true ? "private" : "public",
      description: repo.description ?? null,
      default_branch: repo.git?.defaultBranch ?? "main",
      clone_url: `${ctx.origin()}/${repo.owner}/${repo.name}.git`,
      html_url: `${ctx.origin()}/${repo.owner}/${repo.name}`,
      has_issues: true,
    };
  }

  function milestones(repo: ExtForgeStandInRepository): Json[] {
    return (repo.milestones ?? []).map((m) => ({
      number: m.number,
      title: m.title,
      description: m.description ?? null,
      state: m.state ?? "open",
      due_on: m.dueOn ?? null,
      created_at: minutesAfter(BASE_DATE, m.number),
      updated_at: minutesAfter(BASE_DATE, m.number),
    }));
  }

  function release(repo: ExtForgeStandInRepository, r: ExtForgeStandInRelease, index: number): Json {
    const created = r.createdAt ?? minutesAfter(BASE_DATE, index);
    const draft = r.draft === true;
    return {
      id: r.id ?? repo.id * 1_000 + index + 1,
      tag_name: r.tagName,
      target_commitish: repo.git?.defaultBranch ?? "main",
      name: r.name === undefined ? r.tagName : r.name,
      body: r.body ?? null,
      draft,
      prerelease: false,
      author: user(r.author ?? repo.owner),
      created_at: created,
      published_at: r.publishedAt !== undefined ? r.publishedAt : draft ? null : created,
      html_url: `${ctx.origin()}/${repo.owner}/${repo.name}/releases/tag/${r.tagName}`,
    };
  }

  function gist(g: ExtForgeStandInGist, index: number, withContent: boolean): Json {
    const id = g.id ?? `gist${index + 1}`;
    const files: Record<string, Json> = {};
    for (const [name, content] of Object.entries(g.files)) files[name] = { filename: name, size: Buffer.byteLength(content), raw_url: `${ctx.origin()}/raw/${id}/${name}`, ...(withContent ? { content, truncated: false } : {}) };
    const created = minutesAfter(BASE_DATE, index);
    return { id, description: g.description ?? null, public: g.public !== false, files, html_url: `${ctx.origin()}/gist/${id}`, created_at: created, updated_at: created, owner: user(g.owner) };
  }

  /** Every issue of a repository (given issues and pull requests by number, then generated ones) and every comment. */
  const issueLists = new Map<ExtForgeStandInRepository, { issues: LazyList<Json>; comments: LazyList<Json> }>();
  function listsOf(repo: ExtForgeStandInRepository): { issues: LazyList<Json>; comments: LazyList<Json> } {
    let lists = issueLists.get(repo);
    if (lists !== undefined) return lists;
    const given = [...(repo.issues ?? []).map((i) => issue(repo, i, false)), ...(repo.pulls ?? []).map((p) => issue(repo, p, true))].sort((a, b) => (a["number"] as number) - (b["number"] as number));
    const first = given.reduce((max, i) => Math.max(max, i["number"] as number), 0) + 1;
    const generated = repo.generated ?? { issues: 0 };
    const perIssue = generated.commentsPerIssue ?? 0;
    const genIssues = generatedList(generated.issues, (i) =>
      issue(repo, { number: first + i, title: `Generated issue ${first + i}`, body: `Body of generated issue ${first + i}.`, createdAt: minutesAfter(BASE_DATE, first + i) }, false),
    );
    const givenComments = (repo.comments ?? []).map((c, i) => comment(repo, c, i));
    const genComments = generatedList(generated.issues * perIssue, (i) => {
      const number = first + Math.floor(i / perIssue);
      return comment(repo, { id: 1_000_000 + i, issue: number, body: `Comment ${(i % perIssue) + 1} on issue ${number}.`, createdAt: minutesAfter(BASE_DATE, number + 1) }, givenComments.length + i);
    });
    lists = { issues: concatLists(arrayList(given), genIssues), comments: concatLists(arrayList(givenComments), genComments) };
    issueLists.set(repo, lists);
    return lists;
  }

  return { user, pull, reviewComment, event, repository, milestones, release, gist, listsOf };
}

export type ForgeJson = ReturnType<typeof forgeJson>;
