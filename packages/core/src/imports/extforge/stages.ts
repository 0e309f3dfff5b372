/**
 * The stages of an import from the external forge (issue 10 §2), in order: the repository (branches,
 * tags, pull-request heads), labels, milestones (with their due dates), releases, issues, pull requests as merge requests, issue and
 * pull-request comments as notes (repository-wide, or per issue and pull request with
 * `single_endpoint_notes_import`), review comments as diff notes in their threads, and with
 * `single_endpoint_issue_events_import` the issues' and pull requests' events as system notes.
 * Lists are read page by page (memory holds one page) and written by `ImportRun.writePage`.
 */
import { insertEvent } from "../../events/record.js";
import { issueEvent, mergeRequestEvent, noteEvent } from "../../activity/event-inputs.js";
import type { Issue, MergeRequest, NoteableType } from "../../activity/types.js";
import type { NewNote } from "../../ports/activity-store.js";
import type { TransactionStore } from "../../ports/store.js";
import { mirrorInto } from "../mirror.js";
import { AttachmentCopies } from "./attachment-copies.js";
import { pages } from "./pages.js";
import { releasesStage } from "./releases-stage.js";
import { diffRefsReader, reviewNoteFields } from "./review-notes.js";
import type { Checkpoint, ImportRun } from "../run-kit.js";
import type { ExtForgeClient, ExtForgeComment, ExtForgeIssue, ExtForgeIssueEvent, ExtForgePage, ExtForgeRepository } from "./types.js";

/** Optional stages (spec "Import": `optional_stages`). */
export interface ForgeOptionalStages {
  single_endpoint_issue_events_import?: boolean;
  single_endpoint_notes_import?: boolean;
  attachments_import?: boolean;
}

/** What the job knows about the import (stored as the import's options). */
export interface ForgeImportOptions {
  repoId: number;
  /** `extforge_hostname`, when given. */
  hostname?: string;
  optionalStages: ForgeOptionalStages;
}

export const FORGE_STAGES = ["repository", "labels", "milestones", "releases", "issues", "pull_requests", "notes", "review_comments", "events", "done"] as const;

const TITLE_MAX = 255;
const title = (text: string) => (text.length > TITLE_MAX ? `${text.slice(0, TITLE_MAX - 1)}…` : text);
const everyone = { audience: "project" as const, audienceUserId: null };

/** Runs every stage the checkpoint has not passed. */
export async function runForgeStages(run: ImportRun, client: ExtForgeClient, options: ForgeImportOptions, secrets: readonly string[]): Promise<void> {
  const repository = await run.job.step("repository lookup", () => client.repository(options.repoId));
  const repo = repository.fullName;
  // The lists carry no e-mail: the authors map asks for each login's public one, once.
  const user = client.user?.bind(client);
  if (user !== undefined) run.authors.lookUpEmailsWith(async (login) => (await user(login))?.email ?? null);
  // attachments_import: attachments are stored with the project before each page, and its texts point at them.
  const attachments = AttachmentCopies.of(run, client, repository, options.optionalStages.attachments_import === true);
  const text = (body: string | null) => (attachments === null || body === null ? (body ?? "") : attachments.rewrite(body));
  const stage = async (name: (typeof FORGE_STAGES)[number], body: () => Promise<void>) => {
    if (run.passed(FORGE_STAGES, name)) return;
    await body();
    const next = FORGE_STAGES[FORGE_STAGES.indexOf(name) + 1] ?? "done";
    await run.advance({ stage: next, page: 1 });
  };
  await stage("repository", () => mirrorStage(run, client, repository, secrets));
  await stage("labels", () =>
    pages(run, "labels", (startPage) => client.labels(repo, { startPage }), (page, next) =>
      run.writePage(`labels page ${page.page}`, "label", page.items, (l) => l.name, async (tx, label) => {
        const created = await tx.imports.labels.create({ projectId: run.projectId, name: label.name, color: label.color, description: label.description ?? "" }, run.config.clock.now());
        return created?.id ?? (await tx.imports.labels.findByName(run.projectId, label.name))?.id ?? null;
      }, next),
    ),
  );
  await stage("milestones", () =>
    pages(run, "milestones", (startPage) => client.milestones(repo, { startPage }), (page, next) =>
      run.writePage(`milestones page ${page.page}`, "milestone", page.items, (m) => String(m.number), async (tx, m) => {
        const created = await tx.activity.milestones.create({ projectId: run.projectId, title: title(m.title), description: m.description ?? "", iid: m.number, dueDate: m.dueOn }, m.createdAt);
        if (created === null) return null;
        if (m.state === "closed") await tx.activity.milestones.update(created.id, { state: "closed", updatedAt: m.updatedAt });
        return created.id;
      }, next),
    ),
  );
  await stage("releases", () => releasesStage(run, client, repo));
  await stage("issues", () =>
    pages(run, "issues", (startPage) => client.issues(repo, { startPage }), async (page, next) => {
      await run.authors.learn(page.items.flatMap((i) => [i.author, ...i.assignees]));
      await attachments?.prepare(page.items.map((i) => i.body));
      await run.writePage(`issues page ${page.page}`, "issue", page.items, (i) => String(i.number), async (tx, i) => {
        const author = await run.authors.resolve(tx, i.author);
        let issue = await tx.activity.issues.create(
          { projectId: run.projectId, title: title(i.title), description: author.prefix + text(i.body), confidential: false, authorId: author.authorId, iid: i.number, importedFrom: "extforge" },
          i.createdAt,
        );
        if (i.state === "closed") issue = (await tx.activity.issues.update(issue.id, { state: "closed", closedAt: i.closedAt ?? i.updatedAt, updatedAt: i.updatedAt })) ?? issue;
        await linkLabels(run, tx, "Issue", issue.id, i.labels);
        await keepMilestoneAndAssignees(run, tx, issue.id, i);
        await recorded(insertEvent(tx, issueEvent(issue, "created", author.authorId), i.createdAt));
        return issue.id;
      }, next);
    }),
  );
  await stage("pull_requests", () =>
    pages(run, "pull_requests", (startPage) => client.pullRequests(repo, { startPage }), async (page, next) => {
      await run.authors.learn(page.items.map((p) => p.author));
      await attachments?.prepare(page.items.map((p) => p.body));
      await run.writePage(`pull requests page ${page.page}`, "merge_request", page.items, (p) => String(p.number), async (tx, p) => {
        const author = await run.authors.resolve(tx, p.author);
        // A fork's branch is named after its repository, as the reference does (`owner:branch`).
        const source = p.sourceRepository !== null && p.sourceRepository !== repo ? `${p.sourceRepository.split("/")[0] ?? "fork"}:${p.sourceBranch}` : p.sourceBranch;
        let mr = await tx.activity.mergeRequests.create(
          { projectId: run.projectId, title: title(p.title), description: author.prefix + text(p.body), authorId: author.authorId, sourceBranch: source, targetBranch: p.targetBranch, iid: p.number },
          p.createdAt,
        );
        if (p.state === "merged") mr = (await tx.activity.mergeRequests.update(mr.id, { state: "merged", mergedAt: p.mergedAt ?? p.updatedAt, updatedAt: p.updatedAt })) ?? mr;
        else if (p.state === "closed") mr = (await tx.activity.mergeRequests.update(mr.id, { state: "closed", closedAt: p.closedAt ?? p.updatedAt, updatedAt: p.updatedAt })) ?? mr;
        await linkLabels(run, tx, "MergeRequest", mr.id, p.labels);
        await recorded(insertEvent(tx, mergeRequestEvent(mr, "created", author.authorId), p.createdAt));
        return mr.id;
      }, next);
    }),
  );
  await stage("notes", () =>
    options.optionalStages.single_endpoint_notes_import === true
      ? perNoteable(run, "notes", async (noteable, iid) => {
          for await (const page of client.commentsOf(repo, iid)) await writeComments(run, page, noteable, run.checkpoint ?? { stage: "notes", page: 1 }, attachments);
        })
      : pages(run, "notes", (startPage) => client.issueComments(repo, { startPage }), (page, next) => writeComments(run, page, null, next, attachments)),
  );
  const diffRefs = diffRefsReader(run);
  await stage("review_comments", () =>
    pages(run, "review_comments", (startPage) => client.reviewComments(repo, { startPage }), async (page, next) => {
      await run.authors.learn(page.items.map((c) => c.author));
      await attachments?.prepare(page.items.map((c) => c.body));
      await run.writePage(`review comments page ${page.page}`, "note", page.items, (c) => `review:${c.id}`, async (tx, c) => {
        const mrId = (await tx.imports.externalIds.find(run.projectId, "merge_request", [String(c.pullNumber)])).get(String(c.pullNumber));
        const mr = mrId === undefined ? null : await tx.activity.mergeRequests.findById(mrId);
        if (mr === null) return null;
        // A diff note in the review's thread (reference DiffNoteImporter), its position on the merge request's diff.
        const fields = await reviewNoteFields(run, tx, c, await diffRefs(mr.iid, mr.targetBranch, c.commitId));
        return writeNote(run, tx, "MergeRequest", mr.id, c.pullNumber, c.author, text(c.body), c.createdAt, false, fields);
      }, next);
    }),
  );
  await stage("events", async () => {
    if (options.optionalStages.single_endpoint_issue_events_import !== true) return;
    await perNoteable(run, "events", async (noteable, iid) => {
      for await (const page of client.eventsOf(repo, iid)) {
        await run.authors.learn(page.items.map((e) => e.actor));
        await run.writePage(`events of #${iid}`, "event", page.items, (e) => String(e.id), (tx, e) => writeEvent(run, tx, noteable, iid, e), run.checkpoint ?? { stage: "events", page: 1 });
      }
    });
  });
}

/** A ResultAsync of insertEvent as a promise (a validation error is a bug here: throw it). */
async function recorded(result: PromiseLike<{ isErr(): boolean }>): Promise<void> {
  const settled = await result;
  if (settled.isErr()) throw new Error("an imported record's event was refused");
}

async function mirrorStage(run: ImportRun, client: ExtForgeClient, repository: ExtForgeRepository, secrets: readonly string[]): Promise<void> {
  const access = await run.job.step("repository access", () => client.gitAccess(repository));
  const result = await run.job.step("repository fetch", () =>
    mirrorInto(run.config.repositoryStorage, run.project, access, {
      defaultBranch: repository.defaultBranch,
      extraRefspecs: ["+refs/pull/*/head:refs/merge-requests/*/head"],
      timeoutMs: run.config.imports.gitTimeoutMs,
      signal: run.job.signal,
      secrets,
    }),
  );
  await run.config.store.projects.update(run.projectId, { repositoryEmpty: result.branches === 0, readmePath: null });
  run.count("branch", result.branches, result.branches);
  run.count("tag", result.tags, result.tags);
}


/**
 * Runs `body` for every imported issue, then every merge request, a list page of 100 at a time; the
 * checkpoint names the kind (`start` 0 issues, 1 merge requests) and the page, so a resumed run
 * redoes at most one page (whose writes are idempotent).
 */
async function perNoteable(run: ImportRun, stage: string, body: (noteable: { type: NoteableType; id: number }, iid: number) => Promise<void>): Promise<void> {
  const { store } = run.config;
  const resume = run.resumeOf(stage);
  const from = resume?.start === 1 ? 1 : 0;
  for (let kind = from; kind <= 1; kind++) {
    const type: NoteableType = kind === 0 ? "Issue" : "MergeRequest";
    for (let page = kind === from ? (resume?.page ?? 1) : 1; ; page++) {
      const result: { items: (Issue | MergeRequest)[]; hasNext: boolean } =
        kind === 0
          ? await store.activity.issues.listByProject(run.projectId, { kind: "offset", page, perPage: 100 })
          : await store.activity.mergeRequests.listByProject(run.projectId, { kind: "offset", page, perPage: 100 });
      for (const record of result.items) await body({ type, id: record.id }, record.iid);
      if (!result.hasNext) break;
      await run.advance({ stage, page: page + 1, start: kind });
    }
    if (kind === 0) await run.advance({ stage, page: 1, start: 1 });
  }
}

/** Writes a page of issue / pull-request comments (`noteable` given: all on that record). */
async function writeComments(
  run: ImportRun,
  page: ExtForgePage<ExtForgeComment>,
  noteable: { type: NoteableType; id: number } | null,
  next: Checkpoint,
  attachments: AttachmentCopies | null,
): Promise<void> {
  await run.authors.learn(page.items.map((c) => c.author));
  await attachments?.prepare(page.items.map((c) => c.body));
  await run.writePage(`comments page ${page.page}`, "note", page.items, (c) => String(c.id), async (tx, c) => {
    const target = noteable ?? (await noteableOf(run, tx, c.issueNumber));
    if (target === null) return null;
    return writeNote(run, tx, target.type, target.id, c.issueNumber, c.author, attachments === null ? c.body : attachments.rewrite(c.body), c.createdAt);
  }, next);
}

/** The imported issue or merge request with the forge's number. */
async function noteableOf(run: ImportRun, tx: TransactionStore, number: number): Promise<{ type: NoteableType; id: number } | null> {
  const issue = (await tx.imports.externalIds.find(run.projectId, "issue", [String(number)])).get(String(number));
  if (issue !== undefined) return { type: "Issue", id: issue };
  const mr = (await tx.imports.externalIds.find(run.projectId, "merge_request", [String(number)])).get(String(number));
  return mr === undefined ? null : { type: "MergeRequest", id: mr };
}

async function writeNote(
  run: ImportRun,
  tx: TransactionStore,
  type: NoteableType,
  noteableId: number,
  iid: number,
  external: { login: string; email: string | null } | null,
  body: string,
  createdAt: Date,
  system = false,
  discussion: Pick<NewNote, "discussionId" | "type" | "position" | "commitId"> = {},
): Promise<number> {
  const author = await run.authors.resolve(tx, external);
  const note = await tx.activity.notes.create({ projectId: run.projectId, noteableType: type, noteableId, authorId: author.authorId, body: system ? body : author.prefix + body, system, ...discussion, importedFrom: "extforge" }, createdAt);
  // System notes record no event (reference: only user notes do).
  if (!system) await recorded(insertEvent(tx, noteEvent(note, { iid, audience: everyone }), createdAt));
  return note.id;
}

/** An issue / pull-request event as a system note, for the events the reference shows that way; others are not imported. */
async function writeEvent(run: ImportRun, tx: TransactionStore, noteable: { type: NoteableType; id: number }, iid: number, e: ExtForgeIssueEvent): Promise<number | null> {
  const actor = e.actor?.login ?? "ghost";
  const text = ((): string | null => {
    switch (e.event) {
      case "closed":
        return e.commitId === null ? "closed" : `closed via commit ${e.commitId}`;
      case "reopened":
        return "reopened";
      case "merged":
        return e.commitId === null ? "merged" : `merged via commit ${e.commitId}`;
      case "labeled":
        return e.label === null ? null : `added ~"${e.label}" label`;
      case "unlabeled":
        return e.label === null ? null : `removed ~"${e.label}" label`;
      case "milestoned":
        return e.milestone === null ? null : `changed milestone to %"${e.milestone}"`;
      case "demilestoned":
        return e.milestone === null ? null : `removed milestone %"${e.milestone}"`;
      case "renamed":
        return e.rename === null ? null : `changed title from **${e.rename.from}** to **${e.rename.to}**`;
      case "assigned":
        return e.assignee === null ? null : `assigned to @${e.assignee.login}`;
      case "unassigned":
        return e.assignee === null ? null : `unassigned @${e.assignee.login}`;
      default:
        return null;
    }
  })();
  if (text === null) return null;
  const author = await run.authors.resolve(tx, e.actor);
  const body = author.prefix === "" ? text : `${text} (by ${actor} on the forge)`;
  return writeNote(run, tx, noteable.type, noteable.id, iid, e.actor, body, e.createdAt, true);
}

/**
 * The issue keeps its forge milestone (the milestone imported from that number; none when it was not
 * imported) and its assignees that map to users (the others are dropped).
 */
async function keepMilestoneAndAssignees(run: ImportRun, tx: TransactionStore, issueId: number, i: ExtForgeIssue): Promise<void> {
  if (i.milestone !== null) {
    const milestoneId = (await tx.imports.externalIds.find(run.projectId, "milestone", [String(i.milestone)])).get(String(i.milestone));
    if (milestoneId !== undefined) await tx.activity.issueDetails.setMilestone(issueId, milestoneId);
  }
  const assignees: number[] = [];
  for (const assignee of i.assignees) {
    const userId = await run.authors.userOf(tx, assignee);
    if (userId !== null && !assignees.includes(userId)) assignees.push(userId);
  }
  if (assignees.length > 0) await tx.activity.issueDetails.setAssignees(issueId, assignees);
}

/** Puts the imported labels with these names on the record (labels the forge did not list are created). */
async function linkLabels(run: ImportRun, tx: TransactionStore, type: "Issue" | "MergeRequest", id: number, names: readonly string[]): Promise<void> {
  for (const name of names) {
    const label =
      (await tx.imports.labels.findByName(run.projectId, name)) ??
      (await tx.imports.labels.create({ projectId: run.projectId, name, color: "#6699cc", description: "" }, run.config.clock.now()));
    if (label !== null) await tx.imports.labels.link(label.id, type, id);
  }
}
