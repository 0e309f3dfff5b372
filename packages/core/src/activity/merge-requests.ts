/** Merge requests (host API: `fk.mergeRequests`): iid per project, open → closed / merged, reopen, each with its event. */
import { err, type Result, type ResultAsync } from "neverthrow";
import { attempt, BLANK, inTransaction, Messages } from "../accounts/service-kit.js";
import type { ForgekitConfig } from "../config.js";
import type { ForgekitError } from "../errors.js";
import { FIRST_PAGE } from "../events/feeds.js";
import { insertEvent } from "../events/record.js";
import type { EventAction } from "../events/types.js";
import type { MergeRequestPatch } from "../ports/activity-store.js";
import type { OffsetPageRequest, OffsetPageResult } from "../ports/pagination.js";
import type { TransactionStore } from "../ports/store.js";
import { mergeRequestHook } from "../webhooks/payloads/issuable.js";
import { mergeRequestEvent } from "./event-inputs.js";
import { alreadyIn, byIidOr404, checkTitle, pageInProject, projectOr404, userOr404, vanished } from "./kit.js";
import type { MergeRequest, MergeRequestState } from "./types.js";

/** Input of {@link MergeRequestsService.create}. */
export interface CreateMergeRequestInput {
  projectId: number;
  authorId: number;
  title: string;
  description?: string;
  sourceBranch: string;
  targetBranch: string;
}

/** Merge requests service. Callers are trusted: no permission checks. */
export interface MergeRequestsService {
  /** Opens a merge request with the project's next merge-request iid and records `created` ("opened"). */
  create(input: CreateMergeRequestInput): ResultAsync<MergeRequest, ForgekitError>;
  /** `404 Merge Request Not Found` when the project has none with that iid. */
  find(projectId: number, iid: number): ResultAsync<MergeRequest, ForgekitError>;
  list(projectId: number, page?: OffsetPageRequest): ResultAsync<OffsetPageResult<MergeRequest>, ForgekitError>;
  /** Closes an open merge request: system note "closed", `closed` event. 422 unless open. */
  close(projectId: number, iid: number, actorId: number): ResultAsync<MergeRequest, ForgekitError>;
  /** Reopens a closed merge request: system note "reopened", `reopened` event. 422 unless closed. */
  reopen(projectId: number, iid: number, actorId: number): ResultAsync<MergeRequest, ForgekitError>;
  /** Merges an open merge request: system note "merged", `merged` event ("accepted"). 422 unless open. */
  merge(projectId: number, iid: number, actorId: number): ResultAsync<MergeRequest, ForgekitError>;
}

const THING = "Merge Request";

const findMergeRequest = (tx: TransactionStore, projectId: number, iid: number): Promise<Result<MergeRequest, ForgekitError>> =>
  byIidOr404(tx, projectId, iid, (p, i) => tx.activity.mergeRequests.findByIid(p, i), THING);

/** Which state a change starts from and leads to, and what it records. */
const CHANGES = {
  close: { from: "opened", to: "closed", action: "closed" },
  reopen: { from: "closed", to: "opened", action: "reopened" },
  merge: { from: "opened", to: "merged", action: "merged" },
} as const satisfies Record<string, { from: MergeRequestState; to: MergeRequestState; action: EventAction }>;

/** Builds the merge requests service. */
export function mergeRequestsService(config: ForgekitConfig): MergeRequestsService {
  const { store, clock, baseUrl } = config;

  const change = (projectId: number, iid: number, actorId: number, kind: keyof typeof CHANGES) =>
    inTransaction(store, async (tx) => {
      const { from, to, action } = CHANGES[kind];
      const now = clock.now();
      const actor = await userOr404(tx, actorId);
      if (actor.isErr()) return err(actor.error);
      const found = await findMergeRequest(tx, projectId, iid);
      if (found.isErr()) return err(found.error);
      if (found.value.state !== from) return err(alreadyIn(THING, found.value.state === "opened" ? "open" : found.value.state));
      const patch: MergeRequestPatch = { state: to, updatedAt: now, closedAt: to === "closed" ? now : null, ...(to === "merged" ? { mergedAt: now } : {}) };
      const mr = await tx.activity.mergeRequests.update(found.value.id, patch);
      if (mr === null) return err(vanished("merge request"));
      await tx.activity.notes.create({ projectId, noteableType: "MergeRequest", noteableId: mr.id, authorId: actorId, body: action, system: true }, now);
      const hook = mergeRequestHook(tx, mr.id, { baseUrl, actorId, action, before: found.value });
      const event = await insertEvent(tx, mergeRequestEvent(mr, action, actorId), now, hook);
      return event.map(() => mr);
    });

  return {
    create(input) {
      const messages = new Messages();
      checkTitle(messages, "title", input.title);
      for (const [field, value] of [["source_branch", input.sourceBranch], ["target_branch", input.targetBranch]] as const) {
        if (typeof value !== "string" || value.trim() === "") messages.add(field, BLANK);
      }
      if (input.sourceBranch === input.targetBranch && typeof input.sourceBranch === "string" && input.sourceBranch !== "") {
        messages.add("source_branch", "must differ from the target branch");
      }
      return messages.result(input).asyncAndThen(() =>
        inTransaction(store, async (tx) => {
          const now = clock.now();
          const project = await projectOr404(tx, input.projectId);
          if (project.isErr()) return err(project.error);
          const author = await userOr404(tx, input.authorId);
          if (author.isErr()) return err(author.error);
          const mr = await tx.activity.mergeRequests.create(
            { projectId: input.projectId, authorId: input.authorId, title: input.title, description: input.description ?? "", sourceBranch: input.sourceBranch, targetBranch: input.targetBranch },
            now,
          );
          const hook = mergeRequestHook(tx, mr.id, { baseUrl, actorId: input.authorId, action: "created", before: null });
          const event = await insertEvent(tx, mergeRequestEvent(mr, "created", input.authorId), now, hook);
          return event.map(() => mr);
        }),
      );
    },
    find: (projectId, iid) => attempt(() => findMergeRequest(store, projectId, iid)),
    list: (projectId, page = FIRST_PAGE) => attempt(() => pageInProject(store, projectId, page, (p, pg) => store.activity.mergeRequests.listByProject(p, pg))),
    close: (projectId, iid, actorId) => change(projectId, iid, actorId, "close"),
    reopen: (projectId, iid, actorId) => change(projectId, iid, actorId, "reopen"),
    merge: (projectId, iid, actorId) => change(projectId, iid, actorId, "merge"),
  };
}
