/**
 * The stages of an import from the external repository server (issue 10 §2): the repository
 * (branches and tags), pull requests as merge requests (iid = the pull request's id, state
 * open/declined/merged → opened/closed/merged), and their comments (with replies; diff comments
 * name their file and line) as notes. Lists are read page by page and written by
 * `ImportRun.writePage`, so a re-run writes nothing twice.
 */
import { insertEvent } from "../../events/record.js";
import { mergeRequestEvent, noteEvent } from "../../activity/event-inputs.js";
import { mirrorInto } from "../mirror.js";
import type { ImportRun } from "../run-kit.js";
import type { ExtServerClient, ExtServerComment, ExtServerUser } from "./types.js";

/** What the job knows about a repository-server import (stored as the import's options). */
export interface ServerImportOptions {
  projectKey: string;
  repoSlug: string;
}

export const SERVER_STAGES = ["repository", "pull_requests", "notes", "done"] as const;

const TITLE_MAX = 255;
const title = (text: string) => (text.length > TITLE_MAX ? `${text.slice(0, TITLE_MAX - 1)}…` : text);
const author = (user: ExtServerUser | null) => (user === null ? null : { login: user.name, email: user.email });

async function recorded(result: PromiseLike<{ isErr(): boolean }>): Promise<void> {
  if ((await result).isErr()) throw new Error("an imported record's event was refused");
}

/** A comment and its replies, depth first (replies follow what they answer). */
function flatten(comment: ExtServerComment, into: ExtServerComment[] = []): ExtServerComment[] {
  into.push(comment);
  for (const reply of comment.replies) flatten(reply, into);
  return into;
}

/** Runs every stage the checkpoint has not passed. */
export async function runServerStages(run: ImportRun, client: ExtServerClient, options: ServerImportOptions, secrets: readonly string[]): Promise<void> {
  const { projectKey, repoSlug } = options;
  const stage = async (name: (typeof SERVER_STAGES)[number], body: () => Promise<void>) => {
    if (run.passed(SERVER_STAGES, name)) return;
    await body();
    await run.advance({ stage: SERVER_STAGES[SERVER_STAGES.indexOf(name) + 1] ?? "done", start: 0, page: 1 });
  };
  const repository = await run.job.step("repository lookup", () => client.repository(projectKey, repoSlug));
  await stage("repository", async () => {
    const access = await run.job.step("repository access", () => client.gitAccess(repository));
    const result = await run.job.step("repository fetch", () =>
      mirrorInto(run.config.repositoryStorage, run.project, access, { defaultBranch: run.project.defaultBranch, timeoutMs: run.config.imports.gitTimeoutMs, signal: run.job.signal, secrets }),
    );
    await run.config.store.projects.update(run.projectId, { repositoryEmpty: result.branches === 0, readmePath: null });
    run.count("branch", result.branches, result.branches);
    run.count("tag", result.tags, result.tags);
  });
  await stage("pull_requests", async () => {
    const start = run.resumeOf("pull_requests")?.start ?? 0;
    for await (const page of client.pullRequests(projectKey, repoSlug, { start })) {
      await run.writePage(`pull requests from ${page.start}`, "merge_request", page.items, (p) => String(p.id), async (tx, p) => {
        const mapped = await run.authors.resolve(tx, author(p.author));
        let mr = await tx.activity.mergeRequests.create(
          { projectId: run.projectId, title: title(p.title), description: mapped.prefix + (p.description ?? ""), authorId: mapped.authorId, sourceBranch: p.sourceBranch, targetBranch: p.targetBranch, iid: p.id },
          p.createdAt,
        );
        if (p.state === "merged") mr = (await tx.activity.mergeRequests.update(mr.id, { state: "merged", mergedAt: p.closedAt ?? p.updatedAt, updatedAt: p.updatedAt })) ?? mr;
        else if (p.state === "declined") mr = (await tx.activity.mergeRequests.update(mr.id, { state: "closed", closedAt: p.closedAt ?? p.updatedAt, updatedAt: p.updatedAt })) ?? mr;
        await recorded(insertEvent(tx, mergeRequestEvent(mr, "created", mapped.authorId), p.createdAt));
        return mr.id;
      }, { stage: "pull_requests", start: page.nextStart ?? 0 });
    }
  });
  await stage("notes", async () => {
    const resume = run.resumeOf("notes");
    for (let page = resume?.page ?? 1; ; page++) {
      const list = await run.config.store.activity.mergeRequests.listByProject(run.projectId, { kind: "offset", page, perPage: 50 });
      for (const mr of list.items) {
        for await (const activities of client.activities(projectKey, repoSlug, mr.iid)) {
          const comments = activities.items.flatMap((a) => (a.action === "COMMENTED" && a.comment !== null ? flatten(a.comment) : []));
          await run.writePage(`comments of pull request ${mr.iid}`, "note", comments, (c) => String(c.id), async (tx, c) => {
            const mapped = await run.authors.resolve(tx, author(c.author));
            const where = c.anchor === null ? "" : `*Comment on \`${c.anchor.path}\`${c.anchor.line === null ? "" : ` line ${c.anchor.line}`}*\n\n`;
            const note = await tx.activity.notes.create({ projectId: run.projectId, noteableType: "MergeRequest", noteableId: mr.id, authorId: mapped.authorId, body: mapped.prefix + where + c.text, system: false, importedFrom: "extserver" }, c.createdAt);
            await recorded(insertEvent(tx, noteEvent(note, { iid: mr.iid, audience: { audience: "project", audienceUserId: null } }), c.createdAt));
            return note.id;
          }, { stage: "notes", page });
        }
      }
      if (!list.hasNext) break;
      await run.advance({ stage: "notes", page: page + 1 });
    }
  });
}
