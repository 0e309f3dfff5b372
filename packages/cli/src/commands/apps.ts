/**
 * `forgekit apps create|list|delete|rotate-secret`: OAuth applications over `fk.oauth.applications`.
 * The client secret is printed once, by `create` and `rotate-secret`; only its digest is stored.
 */
import { OAUTH_SCOPES, type OAuthApplication } from "@forgekit/core";
import type { Output } from "../output.js";
import { positiveInt, scopeList } from "../values.js";
import type { Command } from "./context.js";

const iso = (d: Date): string => d.toISOString();

/** An application as printed (never its secret digest). */
export function applicationRecord(app: OAuthApplication): Record<string, unknown> {
  return {
    id: app.id,
    application_id: app.uid,
    name: app.name,
    redirect_uris: app.redirectUris,
    scopes: app.scopes,
    confidential: app.confidential,
    trusted: app.trusted,
    password_grant: app.ropcEnabled,
    owner_id: app.ownerId,
    created_at: iso(app.createdAt),
  };
}

export function applicationLine(app: OAuthApplication): string {
  const flags = [app.confidential ? "confidential" : "public", app.trusted ? "trusted" : null, app.ropcEnabled ? "password grant" : null].filter((f) => f !== null).join(", ");
  return `application ${app.id} "${app.name}" client_id ${app.uid} (${flags}) scopes ${app.scopes.join(" ")} redirect ${app.redirectUris.join(" ")}`;
}

/** The output of a new or rotated secret: printed this once. */
function withSecret(verb: string, app: OAuthApplication, secret: string): Output {
  const text = [`${verb} ${applicationLine(app)}`, `client_id: ${app.uid}`];
  if (app.confidential) text.push(`client_secret: ${secret}`, "Store the secret now: it cannot be shown again.");
  else text.push("Public application: it authenticates with PKCE and no secret.");
  return { json: { ...applicationRecord(app), ...(app.confidential ? { secret } : {}) }, text };
}

const appsCreate: Command = {
  name: "apps create",
  summary: "register an OAuth application and print its client id and secret (once)",
  options: {
    name: { type: "string", placeholder: "<name>", description: "shown on the consent page", required: true },
    "redirect-uri": { type: "string", placeholder: "<uri>", description: "exact callback URI (repeat for several)", required: true, multiple: true },
    scopes: { type: "string", placeholder: "<scopes>", description: "comma-separated scopes it may request, e.g. api,read_user,openid", required: true },
    public: { type: "boolean", description: "a public client (SPA, native app): PKCE, no secret" },
    trusted: { type: "boolean", description: "skip the consent page" },
    "password-grant": { type: "boolean", description: "allow the resource-owner password grant (off by default; RFC 9700 §2.4)" },
    owner: { type: "string", placeholder: "<user>", description: "owning user (id or username); default none (instance-wide)" },
  },
  notes: [
    "Examples:",
    "  forgekit apps create --name 'CI dashboard' --redirect-uri https://ci.example.com/oauth/callback --scopes api,read_user",
    "  forgekit apps create --name 'CLI' --public --redirect-uri http://127.0.0.1/callback --scopes read_user,openid",
  ],
  run: ({ fk }, args) => {
    const input = {
      name: args.required("name"),
      redirectUris: args.list("redirect-uri"),
      scopes: scopeList("--scopes", args.required("scopes"), OAUTH_SCOPES),
      confidential: !args.flag("public"),
      trusted: args.flag("trusted"),
      ropcEnabled: args.flag("password-grant"),
    };
    const owner = args.string("owner");
    const created =
      owner === undefined
        ? fk.oauth.applications.create({ ...input, ownerId: null })
        : fk.users.findByIdOrUsername(owner).andThen((user) => fk.oauth.applications.create({ ...input, ownerId: user.id }));
    return created.map(({ application, clientSecret }) => withSecret("created", application, clientSecret));
  },
};

const appsList: Command = {
  name: "apps list",
  summary: "list OAuth applications (never their secrets)",
  run: ({ fk }) =>
    fk.oauth.applications.list().map((apps) => ({ json: apps.map(applicationRecord), text: apps.length === 0 ? ["no applications"] : apps.map(applicationLine) })),
};

const appsDelete: Command = {
  name: "apps delete",
  summary: "delete an OAuth application with its codes and tokens",
  positionals: [{ name: "id", description: "application id (see `apps list`)" }],
  run: ({ fk }, args) => {
    const id = positiveInt("<id>", args.positionals[0] ?? "");
    return fk.oauth.applications.get(id).andThen((app) => fk.oauth.applications.delete(id).map(() => ({ json: applicationRecord(app), text: [`deleted ${applicationLine(app)}`] })));
  },
};

const appsRotateSecret: Command = {
  name: "apps rotate-secret",
  summary: "replace an application's client secret and print the new one (once)",
  positionals: [{ name: "id", description: "application id (see `apps list`)" }],
  run: ({ fk }, args) =>
    fk.oauth.applications.rotateSecret(positiveInt("<id>", args.positionals[0] ?? "")).map(({ application, clientSecret }) => withSecret("rotated secret of", application, clientSecret)),
};

/** The OAuth application commands. */
export const appsCommands: Command[] = [appsCreate, appsList, appsDelete, appsRotateSecret];
