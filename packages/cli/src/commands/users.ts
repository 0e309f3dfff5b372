/** `forgekit users create|list|block|unblock|set-admin`. */
import { ResultAsync } from "neverthrow";
import { errors } from "@forgekit/core";
import { userLine, userRecord } from "../output.js";
import { UsageError } from "../usage-error.js";
import { booleanValue, oneOf, positiveInt } from "../values.js";
import type { Command } from "./context.js";

const USER_STATES = ["active", "blocked", "deactivated"] as const;
const userArg = { name: "user", description: "user id or username" };

const usersCreate: Command = {
  name: "users create",
  summary: "create a user (with a personal namespace)",
  options: {
    username: { type: "string", placeholder: "<username>", description: "unique username", required: true },
    name: { type: "string", placeholder: "<name>", description: "display name", required: true },
    email: { type: "string", placeholder: "<email>", description: "primary e-mail (confirmed)", required: true },
    password: { type: "string", placeholder: "<password>", description: "password (at least 8 characters); omit for SSO-only users" },
    admin: { type: "boolean", description: "make the user an administrator" },
  },
  run: ({ fk }, args) =>
    fk.users
      .create({
        username: args.required("username"),
        name: args.required("name"),
        email: args.required("email"),
        password: args.string("password") ?? null,
        admin: args.flag("admin"),
      })
      .map((user) => ({ json: userRecord(user), text: [`created ${userLine(user)}`] })),
};

const usersList: Command = {
  name: "users list",
  summary: "list users (ordered by id)",
  options: {
    search: { type: "string", placeholder: "<text>", description: "substring of username, name or primary e-mail" },
    state: { type: "string", placeholder: "<state>", description: `only users in this state (${USER_STATES.join(", ")})` },
    bots: { type: "boolean", description: "include project and group bot users" },
    page: { type: "string", placeholder: "<n>", description: "page number (default 1)" },
    "per-page": { type: "string", placeholder: "<n>", description: "users per page, 1-100 (default 100)" },
  },
  run: ({ fk }, args) => {
    const state = args.string("state");
    const search = args.string("search");
    const perPage = positiveInt("--per-page", args.string("per-page") ?? "100");
    if (perPage > 100) throw new UsageError(`--per-page must be at most 100, got ${perPage}`, "users list");
    const filter = {
      ...(search === undefined ? {} : { search }),
      ...(state === undefined ? {} : { state: oneOf("--state", state, USER_STATES) }),
      includeBots: args.flag("bots"),
    };
    const page = positiveInt("--page", args.string("page") ?? "1");
    // The users service has no list method (the REST /users list is a later issue): read the store port.
    return ResultAsync.fromPromise(fk.store.users.list(filter, { kind: "offset", page, perPage }), (cause) => errors.internal(cause))
      .map((page) => ({
        json: page.items.map(userRecord),
        text: page.items.length === 0 ? ["no users"] : page.items.map(userLine),
      }));
  },
};

const usersBlock: Command = {
  name: "users block",
  summary: "block a user (their tokens stop working)",
  positionals: [userArg],
  run: ({ fk }, args) =>
    fk.users
      .findByIdOrUsername(args.positionals[0] ?? "")
      .andThen((user) => fk.users.block(user.id))
      .map((user) => ({ json: userRecord(user), text: [`blocked ${userLine(user)}`] })),
};

const usersUnblock: Command = {
  name: "users unblock",
  summary: "unblock a blocked user",
  positionals: [userArg],
  run: ({ fk }, args) =>
    fk.users
      .findByIdOrUsername(args.positionals[0] ?? "")
      .andThen((user) => fk.users.unblock(user.id))
      .map((user) => ({ json: userRecord(user), text: [`unblocked ${userLine(user)}`] })),
};

const usersSetAdmin: Command = {
  name: "users set-admin",
  summary: "grant (default) or revoke administrator rights",
  positionals: [userArg, { name: "admin", description: "true (default) or false", optional: true }],
  run: ({ fk }, args) => {
    const admin = booleanValue("<admin>", args.positionals[1] ?? "true");
    return fk.users
      .findByIdOrUsername(args.positionals[0] ?? "")
      .andThen((user) => fk.users.setAdmin(user.id, admin))
      .map((user) => ({ json: userRecord(user), text: [`${admin ? "granted" : "revoked"} admin: ${userLine(user)}`] }));
  },
};

/** The users commands. */
export const usersCommands: Command[] = [usersCreate, usersList, usersBlock, usersUnblock, usersSetAdmin];
