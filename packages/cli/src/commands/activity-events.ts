/** `forgekit events list|prune`: the feeds as an operator (or a named user) sees them, and retention. */
import { TARGET_TYPE_FILTERS, type EventQuery, type Forgekit, type ForgekitError, type OffsetPageResult, type Event, type User } from "@forgekit/core";
import { okAsync, type ResultAsync } from "neverthrow";
import type { CommandArgs } from "../command.js";
import type { Output } from "../output.js";
import { UsageError } from "../usage-error.js";
import { statusLine } from "../progress.js";
import { isoDate, oneOf, positiveInt } from "../values.js";
import { eventLine, eventRecord, PAGE_OPTIONS, pageOptions, paged } from "./activity-output.js";
import type { Command } from "./context.js";

const ACTIONS = ["created", "updated", "closed", "reopened", "pushed", "commented", "merged", "joined", "left", "destroyed", "expired", "approved"] as const;
const TARGET_TYPES = Object.keys(TARGET_TYPE_FILTERS) as (keyof typeof TARGET_TYPE_FILTERS)[];

/**
 * Whom the listing is for: `--as <user>` sees what that user would see; without it the operator
 * sees every event, as an administrator does (a stand-in administrator that is no stored user).
 */
const OPERATOR: User = {
  id: 0, username: "operator", name: "operator", state: "active", admin: true, bot: null, twoFactorEnabled: false, privateProfile: false,
  avatarUrl: null, passwordHash: null, namespaceId: null, externalId: null, lastActivityOn: null, createdAt: new Date(0), updatedAt: new Date(0),
};

function viewer(fk: Forgekit, args: CommandArgs): ResultAsync<User | null, ForgekitError> {
  const as = args.string("as");
  if (as === undefined) return okAsync(OPERATOR);
  return as === "anonymous" ? okAsync(null) : fk.users.findByIdOrUsername(as);
}

function query(args: CommandArgs): EventQuery {
  const action = args.string("action");
  const targetType = args.string("target-type");
  const before = args.string("before");
  const after = args.string("after");
  const sort = args.string("sort");
  if (before !== undefined) isoDate("--before", before);
  if (after !== undefined) isoDate("--after", after);
  return {
    ...(action === undefined ? {} : { action: oneOf("--action", action, ACTIONS) }),
    ...(targetType === undefined ? {} : { targetType: oneOf("--target-type", targetType, TARGET_TYPES) }),
    ...(before === undefined ? {} : { before }),
    ...(after === undefined ? {} : { after }),
    ...(sort === undefined ? {} : { sort: oneOf("--sort", sort, ["asc", "desc"] as const) }),
  };
}

const eventsList: Command = {
  name: "events list",
  summary: "list a project's events (--project) or a user's (--user), newest first",
  options: {
    project: { type: "string", placeholder: "<project>", description: "project id or full path" },
    user: { type: "string", placeholder: "<user>", description: "author (id or username)" },
    as: { type: "string", placeholder: "<user>", description: "list what this user may see (or `anonymous`); default: everything" },
    action: { type: "string", placeholder: "<action>", description: ACTIONS.join(", ") },
    "target-type": { type: "string", placeholder: "<type>", description: TARGET_TYPES.join(", ") },
    before: { type: "string", placeholder: "<YYYY-MM-DD>", description: "only events of earlier days (UTC)" },
    after: { type: "string", placeholder: "<YYYY-MM-DD>", description: "only events of later days (UTC)" },
    sort: { type: "string", placeholder: "<dir>", description: "asc or desc (default desc)" },
    ...PAGE_OPTIONS,
  },
  run: ({ fk }, args) => {
    const project = args.string("project");
    const user = args.string("user");
    if ((project === undefined) === (user === undefined)) throw new UsageError("give exactly one of --project or --user", "events list");
    const filters = query(args);
    const page = pageOptions(args, "events list");
    return viewer(fk, args)
      .andThen((as): ResultAsync<OffsetPageResult<Event>, ForgekitError> =>
        project !== undefined ? fk.events.ofProject(as, project, filters, page) : fk.events.ofUser(as, user ?? "", filters, page),
      )
      .map((result): Output => ({ json: result.items.map(eventRecord), text: paged(result.items, result.hasNext, page.page, eventLine, "no events") }));
  },
};

const eventsPrune: Command = {
  name: "events prune",
  summary: "remove events older than three years (retention), in batches",
  options: {
    "batch-size": { type: "string", placeholder: "<n>", description: "events per delete statement, 1-10000 (default 1000)" },
    "max-batches": { type: "string", placeholder: "<n>", description: "stop after this many batches (default: until done)" },
  },
  notes: ["Run it daily from cron or a timer; it is safe to run while the instance serves requests."],
  run: ({ fk, io, json }, args) => {
    const batchSize = args.string("batch-size");
    const maxBatches = args.string("max-batches");
    // The total is not known up front: the line counts what is gone (redrawn on a terminal; with
    // --json only the result is printed).
    const status = json === true ? undefined : statusLine(io);
    const options = {
      ...(batchSize === undefined ? {} : { batchSize: positiveInt("--batch-size", batchSize) }),
      ...(maxBatches === undefined ? {} : { maxBatches: positiveInt("--max-batches", maxBatches) }),
      onBatch: ({ deleted, batches }: { deleted: number; batches: number }) => status?.update(`removed ${deleted} events (${batches} batches)…`),
    };
    return fk.events.prune(options).map(
      (result): Output => {
        status?.end();
        return {
          json: { cutoff: result.cutoff.toISOString(), deleted: result.deleted, batches: result.batches, complete: result.complete },
          text: [`removed ${result.deleted} events created before ${result.cutoff.toISOString()} in ${result.batches} batches${result.complete ? "" : " (stopped early: more remain)"}`],
        };
      },
    );
  },
};

/** The event commands. */
export const eventCommands: Command[] = [eventsList, eventsPrune];
