/** Issues (host API: `fk.issues`): iid per project, confidential flag, open → closed → reopened, each change with its event. */
import { err, ok, type Result, type ResultAsync } from "neverthrow";
import { attempt, inTransaction, Messages } from "../accounts/service-kit.js";
import type { ForgekitConfig } from "../config.js";
import type { ForgekitError } from "../errors.js";
import { insertEvent } from "../events/record.js";
import type { EventAction } from "../events/types.js";
import { FIRST_PAGE } from "../events/feeds.js";
import type { OffsetPageRequest, OffsetPageResult } from "../ports/pagination.js";
import type { TransactionStore } from "../ports/store.js";
import { issueAudience, issueEvent } from "./event-inputs.js";
import { alreadyIn, byIidOr404, checkTitle, pageInProject, projectOr404, userOr404, vanished } from "./kit.js";
import type { Issue } from "./types.js";

/** Input of {@link IssuesService.create}. */
export interface CreateIssueInput {
  projectId: number;
  authorId: number;
  title: string;
  description?: string;
  /** Default false. */
  confidential?: boolean;
}

/** Issues service. Callers are trusted (the host or an operator): no permission checks. */
export interface IssuesService {
  /** Opens an issue with the project's next iid and records `created` ("opened"). 404 Project / User; 400 validation. */
  create(input: CreateIssueInput): ResultAsync<Issue, ForgekitError>;
  /** `404 Issue Not Found` when the project has no issue with that iid. */
  find(projectId: number, iid: number): ResultAsync<Issue, ForgekitError>;
  /** The project's issues by iid. */
  list(projectId: number, page?: OffsetPageRequest): ResultAsync<OffsetPageResult<Issue>, ForgekitError>;
  /** Closes an open issue as `actorId`: a system note "closed" and a `closed` event. 422 when already closed. */
  close(projectId: number, iid: number, actorId: number): ResultAsync<Issue, ForgekitError>;
  /** Reopens a closed issue: a system note "reopened" and a `reopened` event. 422 when open. */
  reopen(projectId: number, iid: number, actorId: number): ResultAsync<Issue, ForgekitError>;
  /** Makes the issue (non-)confidential; its past events and those of its notes follow (no event of its own). */
  setConfidential(projectId: number, iid: number, confidential: boolean): ResultAsync<Issue, ForgekitError>;
}

const findIssue = (tx: TransactionStore, projectId: number, iid: number): Promise<Result<Issue, ForgekitError>> =>
  byIidOr404(tx, projectId, iid, (p, i) => tx.activity.issues.findByIid(p, i), "Issue");

/** Builds the issues service. */
export function issuesService(config: ForgekitConfig): IssuesService {
  const { store, clock } = config;

  const transition = (projectId: number, iid: number, actorId: number, to: "opened" | "closed") =>
    inTransaction(store, async (tx) => {
      const now = clock.now();
      const actor = await userOr404(tx, actorId);
      if (actor.isErr()) return err(actor.error);
      const found = await findIssue(tx, projectId, iid);
      if (found.isErr()) return err(found.error);
      if (found.value.state === to) return err(alreadyIn("Issue", to === "closed" ? "closed" : "open"));
      const issue = await tx.activity.issues.update(found.value.id, { state: to, closedAt: to === "closed" ? now : null, updatedAt: now });
      if (issue === null) return err(vanished("issue"));
      const action: EventAction = to === "closed" ? "closed" : "reopened";
      await tx.activity.notes.create({ projectId, noteableType: "Issue", noteableId: issue.id, authorId: actorId, body: action, system: true }, now);
      const event = await insertEvent(tx, issueEvent(issue, action, actorId), now);
      return event.map(() => issue);
    });

  return {
    create(input) {
      const messages = new Messages();
      checkTitle(messages, "title", input.title);
      return messages.result(input).asyncAndThen(() =>
        inTransaction(store, async (tx) => {
          const now = clock.now();
          const project = await projectOr404(tx, input.projectId);
          if (project.isErr()) return err(project.error);
          const author = await userOr404(tx, input.authorId);
          if (author.isErr()) return err(author.error);
          const issue = await tx.activity.issues.create(
            { projectId: input.projectId, authorId: input.authorId, title: input.title, description: input.description ?? "", confidential: input.confidential ?? false },
            now,
          );
          const event = await insertEvent(tx, issueEvent(issue, "created", input.authorId), now);
          return event.map(() => issue);
        }),
      );
    },
    find: (projectId, iid) => attempt(() => findIssue(store, projectId, iid)),
    list: (projectId, page = FIRST_PAGE) => attempt(() => pageInProject(store, projectId, page, (p, pg) => store.activity.issues.listByProject(p, pg))),
    close: (projectId, iid, actorId) => transition(projectId, iid, actorId, "closed"),
    reopen: (projectId, iid, actorId) => transition(projectId, iid, actorId, "opened"),
    setConfidential: (projectId, iid, confidential) =>
      inTransaction(store, async (tx) => {
        const found = await findIssue(tx, projectId, iid);
        if (found.isErr()) return err(found.error);
        const issue = await tx.activity.issues.update(found.value.id, { confidential, updatedAt: clock.now() });
        if (issue === null) return err(vanished("issue"));
        const notes = await tx.activity.notes.listByNoteable("Issue", issue.id);
        const targets = [{ type: "Issue" as const, id: issue.id }, ...notes.map((note) => ({ type: "Note" as const, id: note.id }))];
        const { audience, audienceUserId } = issueAudience(issue);
        await tx.activity.events.setAudience(targets, audience, audienceUserId);
        return ok(issue);
      }),
  };
}
