/** `forgekit issues|merge-requests|milestones …`: the work items whose changes become events. */
import type { ForgekitError, Forgekit, Project, User } from "@forgekit/core";
import type { ResultAsync } from "neverthrow";
import type { CommandArgs } from "../command.js";
import type { Output } from "../output.js";
import { positiveInt } from "../values.js";
import {
  issueLine, issueRecord, mergeRequestLine, mergeRequestRecord, milestoneLine, milestoneRecord, PAGE_OPTIONS, pageOptions, paged,
} from "./activity-output.js";
import type { Command } from "./context.js";

const project = { type: "string", placeholder: "<project>", description: "project id or full path", required: true } as const;
const iid = { type: "string", placeholder: "<iid>", description: "number within the project (#1, !1, %1 without the sign)", required: true } as const;
const by = { type: "string", placeholder: "<user>", description: "acting user (id or username): the event's author", required: true } as const;
const author = { type: "string", placeholder: "<user>", description: "author (id or username)", required: true } as const;

/** The project and user the command names, resolved together. */
export function projectAndUser(fk: Forgekit, args: CommandArgs, userOption: string): ResultAsync<{ project: Project; user: User }, ForgekitError> {
  return fk.projects
    .findByIdOrPath(args.required("project"))
    .andThen((p) => fk.users.findByIdOrUsername(args.required(userOption)).map((user) => ({ project: p, user })));
}

/** A state change command (`close`, `reopen`, `merge`) on an item found by project and iid. */
function change<T>(
  name: string,
  summary: string,
  run: (fk: Forgekit, projectId: number, iid: number, actorId: number) => ResultAsync<T, ForgekitError>,
  print: { record: (item: T) => Record<string, unknown>; line: (item: T) => string; verb: string },
): Command {
  return {
    name,
    summary,
    options: { project, iid, by },
    run: ({ fk }, args) => {
      const number = positiveInt("--iid", args.required("iid"));
      return projectAndUser(fk, args, "by").andThen(({ project: p, user }) =>
        run(fk, p.id, number, user.id).map((item): Output => ({ json: print.record(item), text: [`${print.verb} ${print.line(item)}`] })),
      );
    },
  };
}

const issue = { record: issueRecord, line: issueLine };
const mr = { record: mergeRequestRecord, line: mergeRequestLine };
const milestone = { record: milestoneRecord, line: milestoneLine };

const issuesCreate: Command = {
  name: "issues create",
  summary: "open an issue (records an `opened` event)",
  options: {
    project, author,
    title: { type: "string", placeholder: "<title>", description: "title", required: true },
    description: { type: "string", placeholder: "<text>", description: "description" },
    confidential: { type: "boolean", description: "only members at Reporter or above (and the author) see it and its events" },
  },
  run: ({ fk }, args) =>
    projectAndUser(fk, args, "author").andThen(({ project: p, user }) =>
      fk.issues
        .create({ projectId: p.id, authorId: user.id, title: args.required("title"), description: args.string("description") ?? "", confidential: args.flag("confidential") })
        .map((created): Output => ({ json: issueRecord(created), text: [`opened ${issueLine(created)}`] })),
    ),
};

const issuesList: Command = {
  name: "issues list",
  summary: "list a project's issues by iid",
  options: { project, ...PAGE_OPTIONS },
  run: ({ fk }, args) => {
    const page = pageOptions(args, "issues list");
    return fk.projects
      .findByIdOrPath(args.required("project"))
      .andThen((p) => fk.issues.list(p.id, page))
      .map((result): Output => ({ json: result.items.map(issueRecord), text: paged(result.items, result.hasNext, page.page, issueLine, "no issues") }));
  },
};

const mergeRequestsCreate: Command = {
  name: "merge-requests create",
  summary: "open a merge request (records an `opened` event)",
  options: {
    project, author,
    title: { type: "string", placeholder: "<title>", description: "title", required: true },
    source: { type: "string", placeholder: "<branch>", description: "source branch", required: true },
    target: { type: "string", placeholder: "<branch>", description: "target branch", required: true },
    description: { type: "string", placeholder: "<text>", description: "description" },
  },
  run: ({ fk }, args) =>
    projectAndUser(fk, args, "author").andThen(({ project: p, user }) =>
      fk.mergeRequests
        .create({ projectId: p.id, authorId: user.id, title: args.required("title"), description: args.string("description") ?? "", sourceBranch: args.required("source"), targetBranch: args.required("target") })
        .map((created): Output => ({ json: mergeRequestRecord(created), text: [`opened ${mergeRequestLine(created)}`] })),
    ),
};

const milestonesCreate: Command = {
  name: "milestones create",
  summary: "create a project milestone (records a `created` event)",
  options: {
    project, author,
    title: { type: "string", placeholder: "<title>", description: "title, unique in the project", required: true },
    description: { type: "string", placeholder: "<text>", description: "description" },
  },
  run: ({ fk }, args) =>
    projectAndUser(fk, args, "author").andThen(({ project: p, user }) =>
      fk.milestones
        .create({ projectId: p.id, authorId: user.id, title: args.required("title"), description: args.string("description") ?? "" })
        .map((created): Output => ({ json: milestoneRecord(created), text: [`created ${milestoneLine(created)}`] })),
    ),
};

/** Issues, merge requests and milestones. */
export const workCommands: Command[] = [
  issuesCreate,
  issuesList,
  change("issues close", "close an issue (system note and `closed` event)", (fk, p, n, a) => fk.issues.close(p, n, a), { ...issue, verb: "closed" }),
  change("issues reopen", "reopen an issue (system note and `reopened` event)", (fk, p, n, a) => fk.issues.reopen(p, n, a), { ...issue, verb: "reopened" }),
  mergeRequestsCreate,
  change("merge-requests merge", "merge a merge request (`merged` event, shown as \"accepted\")", (fk, p, n, a) => fk.mergeRequests.merge(p, n, a), { ...mr, verb: "merged" }),
  change("merge-requests close", "close a merge request", (fk, p, n, a) => fk.mergeRequests.close(p, n, a), { ...mr, verb: "closed" }),
  change("merge-requests reopen", "reopen a closed merge request", (fk, p, n, a) => fk.mergeRequests.reopen(p, n, a), { ...mr, verb: "reopened" }),
  milestonesCreate,
  change("milestones close", "close a milestone", (fk, p, n, a) => fk.milestones.close(p, n, a), { ...milestone, verb: "closed" }),
  change("milestones reopen", "reactivate a closed milestone", (fk, p, n, a) => fk.milestones.reopen(p, n, a), { ...milestone, verb: "reopened" }),
];
