/**
 * The import routes (spec "Import"; reference §3, §4; issue 10 §1): the spec's `/import/extforge…`
 * and `/import/extserver` and the reference's `/import/github…` and `/import/bitbucket_server`
 * with their parameter names as aliases (reference README decisions: real clients call those).
 * Every route needs a signed-in caller (anonymous → 401). `GET /projects/:id/import` shows an
 * import's state and counts to Maintainers.
 */
import { err, ok } from "neverthrow";
import * as z from "zod";
import { visibleProject } from "../../access/permissions.js";
import { defineRoute, respond } from "../../http/route-kit.js";
import type { ForgekitConfig } from "../../config.js";
import { errors, type ForgekitError } from "../../errors.js";
import { p, parseBoolean } from "../../http/params.js";
import type { AnyRoute } from "../../http/router.js";
import type { ParamValue } from "../../http/types.js";
import type { ProjectsService } from "../../accounts/projects.js";
import type { ForgeOptionalStages } from "../extforge/stages.js";
import { startGistsImport } from "../gists.js";
import type { ImportsService } from "../service.js";

const raw = p.raw().optional();

const OPTIONAL_STAGES = ["single_endpoint_issue_events_import", "single_endpoint_notes_import", "attachments_import"] as const;

/** `optional_stages`: a hash (`optional_stages[k]=v` or a JSON object) or a JSON object as text; unknown keys are ignored. */
function optionalStages(value: ParamValue | undefined): ForgeOptionalStages | null {
  if (value === undefined || value === null || value === "") return {};
  let object: unknown = value;
  if (typeof value === "string") {
    try {
      object = JSON.parse(value);
    } catch {
      return null;
    }
  }
  if (typeof object !== "object" || object === null || Array.isArray(object)) return null;
  const stages: ForgeOptionalStages = {};
  for (const key of OPTIONAL_STAGES) {
    const v = (object as Record<string, unknown>)[key];
    if (v === undefined) continue;
    const b = parseBoolean(v);
    if (b === null) return null;
    stages[key] = b;
  }
  return stages;
}

const forgeSchema = z.object({
  personal_access_token: p.string(),
  repo_id: p.int(),
  target_namespace: p.string({ allowBlank: false }),
  new_name: p.string().optional(),
  extforge_hostname: p.string().optional(),
  github_hostname: p.string().optional(),
  optional_stages: raw,
});

const serverSchema = z.object({
  extserver_url: p.string().optional(),
  bitbucket_server_url: p.string().optional(),
  extserver_username: p.string().optional(),
  bitbucket_server_username: p.string().optional(),
  personal_access_token: p.string().optional(),
  extserver_project: p.string().optional(),
  bitbucket_server_project: p.string().optional(),
  extserver_repo: p.string().optional(),
  bitbucket_server_repo: p.string().optional(),
  new_name: p.string().optional(),
  target_namespace: p.string().optional(),
  new_namespace: p.string().optional(),
});

/** What the import routes are built from. */
export interface ImportRouteDeps {
  config: ForgekitConfig;
  imports: ImportsService;
  projects: ProjectsService;
}

/** The import routes, both families. */
export function importRoutes({ config, imports, projects }: ImportRouteDeps): AnyRoute[] {
  const required = { mode: "required" as const };
  const forge = (path: string, hostnameParam: "extforge_hostname" | "github_hostname") =>
    defineRoute({
      method: "POST",
      path,
      summary: `Import a repository from the external forge${path.endsWith("github") ? " (GitHub name)" : ""}`,
      auth: required,
      schema: forgeSchema,
      handler: ({ identity, params }) =>
        respond(async () => {
          const user = identity.user;
          if (user === null) return err(errors.unauthorized());
          const stages = optionalStages(params.optional_stages);
          if (stages === null) return err(errors.invalidParam("optional_stages"));
          const hostname = params[hostnameParam] ?? params.extforge_hostname ?? params.github_hostname;
          const started = await imports.startForge(user, {
            token: params.personal_access_token,
            repoId: params.repo_id,
            targetNamespace: params.target_namespace,
            ...(params.new_name === undefined || params.new_name === "" ? {} : { newName: params.new_name }),
            ...(hostname === undefined || hostname.trim() === "" ? {} : { hostname }),
            optionalStages: stages,
          });
          return started.map((view) => ({ status: 201, body: imports.entity(view) }));
        }),
    });

  const cancel = (path: string) =>
    defineRoute({
      method: "POST",
      path,
      summary: "Cancel an import from the external forge",
      auth: required,
      schema: z.object({ project_id: p.int() }),
      handler: ({ identity, params }) =>
        respond(async () => {
          if (identity.user === null) return err(errors.unauthorized());
          const cancelled = await imports.cancel(identity.user, params.project_id);
          return cancelled.map((view) => ({ status: 200, body: imports.entity(view) }));
        }),
    });

  const gists = (path: string) =>
    defineRoute({
      method: "POST",
      path,
      summary: "Import gists into personal snippets",
      auth: required,
      schema: z.object({ personal_access_token: p.string() }),
      handler: ({ identity, params }) =>
        respond(async () => {
          if (identity.user === null) return err(errors.unauthorized());
          const started = await startGistsImport(config, identity.user, params.personal_access_token);
          return started.map(() => ({ status: 202 }));
        }),
    });

  const server = (path: string, names: "spec" | "reference") =>
    defineRoute({
      method: "POST",
      path,
      summary: `Import a repository from the repository server${names === "reference" ? " (Bitbucket Server name)" : ""}`,
      auth: required,
      schema: serverSchema,
      handler: ({ identity, params }) =>
        respond(async () => {
          if (identity.user === null) return err(errors.unauthorized());
          // Each family reports its own name for a missing attribute; both names are accepted.
          const pick = (spec: keyof typeof params, reference: keyof typeof params, name: string): { value: string } | { error: ForgekitError } => {
            const value = params[spec] ?? params[reference];
            return value === undefined ? { error: errors.missingParam(names === "spec" ? String(spec) : name) } : { value };
          };
          const fields = [
            pick("extserver_url", "bitbucket_server_url", "bitbucket_server_url"),
            pick("extserver_username", "bitbucket_server_username", "bitbucket_server_username"),
            pick("personal_access_token", "personal_access_token", "personal_access_token"),
            pick("extserver_project", "bitbucket_server_project", "bitbucket_server_project"),
            pick("extserver_repo", "bitbucket_server_repo", "bitbucket_server_repo"),
          ];
          const values: string[] = [];
          for (const field of fields) {
            if ("error" in field) return err(field.error);
            values.push(field.value);
          }
          const [url = "", username = "", token = "", projectKey = "", repoSlug = ""] = values;
          const namespace = params.target_namespace ?? params.new_namespace;
          const started = await imports.startServer(identity.user, {
            url,
            username,
            token,
            projectKey,
            repoSlug,
            ...(params.new_name === undefined || params.new_name === "" ? {} : { newName: params.new_name }),
            ...(namespace === undefined ? {} : { targetNamespace: namespace }),
          });
          return started.map((view) => ({ status: 201, body: imports.entity(view) }));
        }),
    });

  return [
    forge("/import/extforge", "extforge_hostname"),
    forge("/import/github", "github_hostname"),
    cancel("/import/extforge/cancel"),
    cancel("/import/github/cancel"),
    gists("/import/extforge/gists"),
    gists("/import/github/gists"),
    server("/import/extserver", "spec"),
    server("/import/bitbucket_server", "reference"),
    defineRoute({
      method: "GET",
      path: "/projects/:id/import",
      summary: "Get the import status of a project",
      auth: required,
      schema: z.object({ id: p.id() }),
      handler: ({ identity, params }) =>
        respond(async () => {
          const found = await projects.findByIdOrPath(params.id);
          const project = await visibleProject(config.store, identity.user, found.isOk() ? found.value : null, config.clock.now());
          if (project.isErr()) return err(project.error);
          const status = await imports.status(identity.user, project.value);
          return status.isErr() ? err(status.error) : ok({ body: status.value });
        }),
    }),
  ];
}
