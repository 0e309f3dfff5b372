/** `forgekit snippets create`, `notes create`, `pushes record`: content and pushes that become events. */
import type { ForgekitError, NoteTarget } from "@forgekit/core";
import { okAsync, type ResultAsync } from "neverthrow";
import type { Output } from "../output.js";
import { UsageError } from "../usage-error.js";
import { oneOf, positiveInt } from "../values.js";
import { eventLine, eventRecord, noteLine, noteRecord, snippetLine, snippetRecord } from "./activity-output.js";
import { projectAndUser } from "./activity-work.js";
import type { Command } from "./context.js";

const VISIBILITIES = ["private", "internal", "public"] as const;

const snippetsCreate: Command = {
  name: "snippets create",
  summary: "create a project snippet (--project) or a personal snippet (records a `created` event)",
  options: {
    author: { type: "string", placeholder: "<user>", description: "author (id or username)", required: true },
    project: { type: "string", placeholder: "<project>", description: "project id or full path (omit for a personal snippet)" },
    title: { type: "string", placeholder: "<title>", description: "title", required: true },
    "file-name": { type: "string", placeholder: "<name>", description: "file name", required: true },
    content: { type: "string", placeholder: "<text>", description: "content" },
    visibility: { type: "string", placeholder: "<level>", description: `${VISIBILITIES.join(", ")} (default private)` },
  },
  notes: ["Events of personal snippets belong to no project, so no feed lists them."],
  run: ({ fk }, args) => {
    const visibility = oneOf("--visibility", args.string("visibility") ?? "private", VISIBILITIES);
    const projectArg = args.string("project");
    const projectId: ResultAsync<number | null, ForgekitError> = projectArg === undefined ? okAsync(null) : fk.projects.findByIdOrPath(projectArg).map((p) => p.id);
    return projectId.andThen((id) =>
      fk.users.findByIdOrUsername(args.required("author")).andThen((user) =>
        fk.snippets
          .create({ projectId: id, authorId: user.id, title: args.required("title"), fileName: args.required("file-name"), content: args.string("content") ?? "", visibility })
          .map((snippet): Output => ({ json: snippetRecord(snippet), text: [`created ${snippetLine(snippet)}`] })),
      ),
    );
  },
};

const notesCreate: Command = {
  name: "notes create",
  summary: "comment on an issue, a merge request or a snippet (records `commented on` unless --system)",
  options: {
    author: { type: "string", placeholder: "<user>", description: "author (id or username)", required: true },
    body: { type: "string", placeholder: "<text>", description: "the note", required: true },
    project: { type: "string", placeholder: "<project>", description: "project id or full path (with --issue or --merge-request)" },
    issue: { type: "string", placeholder: "<iid>", description: "issue number in --project" },
    "merge-request": { type: "string", placeholder: "<iid>", description: "merge request number in --project" },
    snippet: { type: "string", placeholder: "<id>", description: "snippet id" },
    system: { type: "boolean", description: "a system note (no event)" },
  },
  run: ({ fk }, args) => {
    const given = (["issue", "merge-request", "snippet"] as const).filter((o) => args.string(o) !== undefined);
    if (given.length !== 1) throw new UsageError("give exactly one of --issue, --merge-request or --snippet", "notes create");
    const kind = given[0];
    const projectArg = args.string("project");
    if (kind !== "snippet" && projectArg === undefined) throw new UsageError(`--${kind} needs --project`, "notes create");
    const number = positiveInt(`--${kind}`, args.required(kind ?? "snippet"));
    const target = kind === "snippet" ? okAsync<NoteTarget, never>({ type: "Snippet", id: number }) : fk.projects.findByIdOrPath(projectArg ?? "").map(
      (p): NoteTarget => ({ type: kind === "issue" ? "Issue" : "MergeRequest", projectId: p.id, iid: number }),
    );
    return target.andThen((on) =>
      fk.users.findByIdOrUsername(args.required("author")).andThen((user) =>
        fk.notes
          .create({ on, authorId: user.id, body: args.required("body"), system: args.flag("system") })
          .map((note): Output => ({ json: noteRecord(note), text: [`created ${noteLine(note)}`] })),
      ),
    );
  },
};

const SHA = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;

const pushesRecord: Command = {
  name: "pushes record",
  summary: "record a push to a branch or tag (`pushed new` / `pushed to` / `deleted`)",
  options: {
    project: { type: "string", placeholder: "<project>", description: "project id or full path", required: true },
    author: { type: "string", placeholder: "<user>", description: "pusher (id or username)", required: true },
    ref: { type: "string", placeholder: "<name>", description: "branch or tag name", required: true },
    tag: { type: "boolean", description: "the ref is a tag (default: a branch)" },
    from: { type: "string", placeholder: "<sha>", description: "previous tip; omit for a new ref" },
    to: { type: "string", placeholder: "<sha>", description: "new tip; omit for a removed ref" },
    count: { type: "string", placeholder: "<n>", description: "commits pushed (default 0)" },
    title: { type: "string", placeholder: "<text>", description: "title of the newest commit" },
  },
  run: ({ fk }, args) => {
    const from = args.string("from");
    const to = args.string("to");
    if (from === undefined && to === undefined) throw new UsageError("give --from, --to or both", "pushes record");
    for (const [option, value] of [["--from", from], ["--to", to]] as const) {
      if (value !== undefined && !SHA.test(value)) throw new UsageError(`${option} must be a commit id (40 or 64 hex digits), got "${value}"`, "pushes record");
    }
    const count = args.string("count");
    const commitCount = count === undefined ? 0 : count === "0" ? 0 : positiveInt("--count", count);
    return projectAndUser(fk, args, "author").andThen(({ project, user }) =>
      fk.pushes
        .record({
          projectId: project.id, authorId: user.id, ref: args.required("ref"), refType: args.flag("tag") ? "tag" : "branch",
          commitFrom: from ?? null, commitTo: to ?? null, commitCount, commitTitle: args.string("title") ?? null,
        })
        .map((event): Output => ({ json: eventRecord(event), text: [`recorded ${eventLine(event)}`] })),
    );
  },
};

/** Snippets, notes and pushes. */
export const contentCommands: Command[] = [snippetsCreate, notesCreate, pushesRecord];
