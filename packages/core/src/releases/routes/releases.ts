/**
 * `/projects/:id/releases` (reference `lib/api/releases.rb`): list, show, create, update, delete,
 * and the latest-release permalink. Tag names with `/` arrive as `%2F`.
 */
import { err, ok, type Result } from "neverthrow";
import * as z from "zod";
import { errors, type ForgekitError } from "../../errors.js";
import { p } from "../../http/params.js";
import { defineRoute, listHeaders, noneGiven, offsetOnly, PAGINATION_PARAMS, readPage, respond } from "../../http/route-kit.js";
import type { AnyRoute } from "../../http/router.js";
import type { ParamValue } from "../../http/types.js";
import { releaseProject, type ReleasesDeps } from "../context.js";
import { newLink, type LinkFields } from "../links.js";
import { renderRelease, renderReleases } from "../render.js";
import { createRelease, deleteRelease, updateRelease } from "../service.js";
import type { NewReleaseLink } from "../../ports/releases-store.js";

/** Reads: anonymous on public projects; `read_api` tokens. */
export const READ = { mode: "optional" } as const;
/** Writes: signed in with the `api` scope. */
export const WRITE = { mode: "required" } as const;

const text = (v: ParamValue | undefined): string | undefined => (typeof v === "string" ? v : typeof v === "number" ? String(v) : undefined);

/** `assets[links][]` of a create request: each a hash of link fields. */
function parseAssets(assets: ParamValue | undefined): Result<NewReleaseLink[], ForgekitError> {
  if (assets === undefined || assets === null) return ok([]);
  if (typeof assets !== "object" || Array.isArray(assets)) return err(errors.invalidParam("assets", "is invalid"));
  const raw = assets["links"];
  if (raw === undefined) return ok([]);
  const list = Array.isArray(raw) ? raw : typeof raw === "object" && raw !== null ? Object.values(raw) : null;
  if (list === null) return err(errors.invalidParam("assets[links]", "is invalid"));
  const links: NewReleaseLink[] = [];
  for (const item of list) {
    if (typeof item !== "object" || item === null || Array.isArray(item)) return err(errors.invalidParam("assets[links]", "is invalid"));
    const fields: LinkFields = { name: text(item["name"]), url: text(item["url"]), filepath: text(item["filepath"]), direct_asset_path: text(item["direct_asset_path"]), link_type: text(item["link_type"]) };
    const link = newLink(fields);
    if (link.isErr()) return err(errors.badRequestMessage(`Validation failed: ${Object.entries((link.error as { messages?: Record<string, string[]> }).messages ?? {}).map(([f, m]) => `Links ${f} ${m.join(", ")}`).join(", ")}`));
    links.push(link.value);
  }
  return ok(links);
}

const milestoneParams = { milestones: p.array(p.string()).optional(), milestone_ids: p.array(p.recordId()).optional() };

/** The release routes. */
export function releaseRoutes(deps: ReleasesDeps): AnyRoute[] {
  const { store, baseUrl } = deps.config;
  const findRelease = async (projectId: number, tag: string) => {
    const release = await store.releases.find(projectId, tag);
    return release === null ? err(errors.notFound()) : ok(release);
  };
  return [
    defineRoute({
      method: "GET",
      path: "/projects/:id/releases",
      auth: READ,
      schema: z.object({ order_by: p.enum(["released_at", "created_at"]).default("released_at"), sort: p.enum(["asc", "desc"]).default("desc"), include_html_description: p.bool().optional(), ...PAGINATION_PARAMS }),
      handler: ({ identity, pathParams, params, request }) =>
        respond(async () => {
          const rp = await releaseProject(deps, identity, pathParams["id"], "read");
          if (rp.isErr()) return err(rp.error);
          const page = offsetOnly(readPage(params, null));
          if (page.isErr()) return err(page.error);
          const listed = await store.releases.list(rp.value.project.id, { orderBy: params.order_by, sort: params.sort }, page.value);
          const body = await renderReleases(deps, rp.value, listed.items, params.include_html_description === true);
          return ok({ body, headers: listHeaders(baseUrl, request, page.value, listed) });
        }),
    }),
    defineRoute({
      method: "GET",
      path: "/projects/:id/releases/permalink/latest",
      auth: READ,
      schema: z.object({ order_by: p.enum(["released_at", "created_at"]).default("released_at") }),
      handler: ({ identity, pathParams, params, request }) =>
        respond(async () => {
          const rp = await releaseProject(deps, identity, pathParams["id"], "read");
          if (rp.isErr()) return err(rp.error);
          const [latest] = (await store.releases.list(rp.value.project.id, { orderBy: params.order_by, sort: "desc" }, { kind: "offset", page: 1, perPage: 1 })).items;
          if (latest === undefined) return err(errors.notFound());
          const path = request.path.replace(/\/permalink\/latest$/, `/${encodeURIComponent(latest.tagName)}`);
          const query = request.rawQuery === "" ? "" : `?${request.rawQuery}`;
          return ok({ status: 302, headers: { location: `${baseUrl.replace(/\/+$/, "")}${path}${query}` } });
        }),
    }),
    defineRoute({
      method: "GET",
      path: "/projects/:id/releases/:tag_name",
      auth: READ,
      schema: z.object({ tag_name: p.string(), include_html_description: p.bool().optional() }),
      handler: ({ identity, pathParams, params }) =>
        respond(async () => {
          const rp = await releaseProject(deps, identity, pathParams["id"], "read");
          if (rp.isErr()) return err(rp.error);
          const release = await findRelease(rp.value.project.id, params.tag_name);
          if (release.isErr()) return err(release.error);
          return ok({ body: await renderRelease(deps, rp.value, release.value, params.include_html_description === true) });
        }),
    }),
    defineRoute({
      method: "POST",
      path: "/projects/:id/releases",
      auth: WRITE,
      schema: z.object({
        tag_name: p.string({ allowBlank: false }),
        name: p.string().optional(),
        description: p.string().optional(),
        ref: p.string().optional(),
        tag_message: p.string().optional(),
        released_at: p.datetime().optional(),
        assets: p.raw().optional(),
        ...milestoneParams,
      }),
      handler: ({ identity, pathParams, params }) =>
        respond(async () => {
          const rp = await releaseProject(deps, identity, pathParams["id"], "write");
          if (rp.isErr()) return err(rp.error);
          const links = parseAssets(params.assets);
          if (links.isErr()) return err(links.error);
          const created = await createRelease(deps, rp.value, {
            tagName: params.tag_name,
            name: params.name,
            description: params.description,
            ref: params.ref,
            tagMessage: params.tag_message,
            releasedAt: params.released_at,
            milestones: params.milestones,
            milestoneIds: params.milestone_ids,
            links: links.value,
          });
          if (created.isErr()) return err(created.error);
          return ok({ status: 201, body: await renderRelease(deps, rp.value, created.value) });
        }),
    }),
    defineRoute({
      method: "PUT",
      path: "/projects/:id/releases/:tag_name",
      auth: WRITE,
      schema: z.object({ tag_name: p.string(), name: p.string().optional(), description: p.string().optional(), released_at: p.datetime().optional(), ...milestoneParams }),
      handler: ({ identity, pathParams, params }) =>
        respond(async () => {
          const missing = noneGiven(params, ["name", "description", "released_at", "milestones", "milestone_ids"]);
          if (missing !== null) return err(missing);
          const rp = await releaseProject(deps, identity, pathParams["id"], "write");
          if (rp.isErr()) return err(rp.error);
          const release = await findRelease(rp.value.project.id, params.tag_name);
          if (release.isErr()) return err(release.error);
          const updated = await updateRelease(deps, rp.value, release.value, { name: params.name, description: params.description, releasedAt: params.released_at, milestones: params.milestones, milestoneIds: params.milestone_ids });
          if (updated.isErr()) return err(updated.error);
          return ok({ body: await renderRelease(deps, rp.value, updated.value) });
        }),
    }),
    defineRoute({
      method: "DELETE",
      path: "/projects/:id/releases/:tag_name",
      auth: WRITE,
      schema: z.object({ tag_name: p.string() }),
      handler: ({ identity, pathParams, params }) =>
        respond(async () => {
          const rp = await releaseProject(deps, identity, pathParams["id"], "write");
          if (rp.isErr()) return err(rp.error);
          const release = await findRelease(rp.value.project.id, params.tag_name);
          if (release.isErr()) return err(release.error);
          const body = await renderRelease(deps, rp.value, release.value);
          if (!(await deleteRelease(deps, rp.value, release.value))) return err(errors.notFound());
          return ok({ status: 200, body });
        }),
    }),
  ];
}
