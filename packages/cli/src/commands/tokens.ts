/** `forgekit tokens create|list|revoke`. */
import type { ResultAsync } from "neverthrow";
import { TOKEN_SCOPES, type AccessToken, type ForgekitError } from "@forgekit/core";
import { tokenLine, tokenRecord, type Output } from "../output.js";
import { UsageError } from "../usage-error.js";
import { accessLevel, isoDate, oneOf, positiveInt, scopeList } from "../values.js";
import type { Command } from "./context.js";

const KINDS = ["personal", "impersonation", "project", "group"] as const;

/** The output of a created token: the plaintext is printed this once. */
function created(token: AccessToken, plaintext: string, extra: Record<string, unknown> = {}): Output {
  return {
    json: { ...tokenRecord(token), ...extra, token: plaintext },
    text: [`created ${tokenLine(token)}`, `token: ${plaintext}`, "Store it now: it cannot be shown again."],
  };
}

const tokensCreate: Command = {
  name: "tokens create",
  summary: "create an access token and print it (once)",
  options: {
    kind: { type: "string", placeholder: "<kind>", description: `${KINDS.join(", ")}`, required: true },
    name: { type: "string", placeholder: "<name>", description: "token name", required: true },
    scopes: { type: "string", placeholder: "<scopes>", description: "comma-separated, e.g. api,read_user", required: true },
    "expires-at": { type: "string", placeholder: "<YYYY-MM-DD>", description: "last day the token works (UTC); default never" },
    user: { type: "string", placeholder: "<user>", description: "personal / impersonation: the token's user" },
    actor: { type: "string", placeholder: "<admin>", description: "impersonation: the administrator issuing it" },
    project: { type: "string", placeholder: "<project>", description: "project token: project id or full path" },
    group: { type: "string", placeholder: "<group>", description: "group token: group id or full path" },
    "access-level": { type: "string", placeholder: "<level>", description: "project / group token: the bot's level (default maintainer)" },
  },
  notes: [
    "Examples:",
    "  forgekit tokens create --kind personal --user alice --name ci --scopes api",
    "  forgekit tokens create --kind impersonation --user bob --actor admin --name support --scopes read_api",
    "  forgekit tokens create --kind project --project demo/website --name deploy --scopes read_api --access-level reporter",
  ],
  run: ({ fk }, args) => {
    const kind = oneOf("--kind", args.required("kind"), KINDS);
    const expires = args.string("expires-at");
    const input = {
      name: args.required("name"),
      scopes: scopeList("--scopes", args.required("scopes"), TOKEN_SCOPES),
      expiresAt: expires === undefined ? null : isoDate("--expires-at", expires),
    };
    const allowed: Record<(typeof KINDS)[number], string[]> = {
      personal: ["user"],
      impersonation: ["user", "actor"],
      project: ["project", "access-level"],
      group: ["group", "access-level"],
    };
    for (const option of ["user", "actor", "project", "group", "access-level"]) {
      if (args.string(option) !== undefined && !allowed[kind].includes(option)) {
        throw new UsageError(`--${option} does not apply to --kind ${kind}`, "tokens create");
      }
    }
    const level = args.string("access-level");
    const resourceInput = level === undefined ? input : { ...input, accessLevel: accessLevel("--access-level", level) };
    let result: ResultAsync<Output, ForgekitError>;
    switch (kind) {
      case "personal":
        result = fk.users
          .findByIdOrUsername(args.required("user"))
          .andThen((user) => fk.tokens.createPersonal(user.id, input))
          .map((t) => created(t.token, t.plaintext));
        break;
      case "impersonation": {
        const userRef = args.required("user");
        result = fk.users
          .findByIdOrUsername(args.required("actor"))
          .andThen((actor) => fk.users.findByIdOrUsername(userRef).andThen((user) => fk.tokens.createImpersonation(actor, user.id, input)))
          .map((t) => created(t.token, t.plaintext));
        break;
      }
      case "project":
        result = fk.projects
          .findByIdOrPath(args.required("project"))
          .andThen((project) => fk.tokens.createProjectToken(project.id, resourceInput))
          .map((t) => created(t.token, t.plaintext, { bot_username: t.bot.username }));
        break;
      case "group":
        result = fk.groups
          .findByIdOrPath(args.required("group"))
          .andThen((group) => fk.tokens.createGroupToken(group.id, resourceInput))
          .map((t) => created(t.token, t.plaintext, { bot_username: t.bot.username }));
        break;
    }
    return result;
  },
};

const tokensList: Command = {
  name: "tokens list",
  summary: "list access tokens (never their values)",
  options: {
    user: { type: "string", placeholder: "<user>", description: "only tokens acting as this user" },
    kind: { type: "string", placeholder: "<kind>", description: `only this kind (${KINDS.join(", ")})` },
    state: { type: "string", placeholder: "<state>", description: "active or inactive" },
  },
  run: ({ fk }, args) => {
    const userRef = args.string("user");
    const kind = args.string("kind");
    const state = args.string("state");
    const filter = {
      ...(kind === undefined ? {} : { kind: oneOf("--kind", kind, KINDS) }),
      ...(state === undefined ? {} : { state: oneOf("--state", state, ["active", "inactive"] as const) }),
    };
    const list =
      userRef === undefined
        ? fk.tokens.list(filter)
        : fk.users.findByIdOrUsername(userRef).andThen((user) => fk.tokens.list({ ...filter, userId: user.id }));
    return list.map((tokens) => ({ json: tokens.map(tokenRecord), text: tokens.length === 0 ? ["no tokens"] : tokens.map(tokenLine) }));
  },
};

const tokensRevoke: Command = {
  name: "tokens revoke",
  summary: "revoke an access token by id",
  positionals: [{ name: "id", description: "token id (see `tokens list`)" }],
  run: ({ fk }, args) =>
    fk.tokens
      .revoke(positiveInt("<id>", args.positionals[0] ?? ""))
      .map((token) => ({ json: tokenRecord(token), text: [`revoked ${tokenLine(token)}`] })),
};

/** The tokens commands. */
export const tokensCommands: Command[] = [tokensCreate, tokensList, tokensRevoke];
