/** `/projects/:id/releases/:tag_name/assets/links[/:link_id]` (reference `lib/api/release/links.rb`). */
import { err, ok } from "neverthrow";
import * as z from "zod";
import { errors } from "../../errors.js";
import { p } from "../../http/params.js";
import { defineRoute, listHeaders, noneGiven, offsetOnly, PAGINATION_PARAMS, readPage, respond } from "../../http/route-kit.js";
import type { AnyRoute } from "../../http/router.js";
import type { Identity } from "../../auth/identity.js";
import { releaseProject, type ReleasesDeps } from "../context.js";
import { releaseLinkEntity } from "../entity.js";
import { linkPatch, newLink, refusal } from "../links.js";
import { READ, WRITE } from "./releases.js";

const LINK_FIELDS = { name: p.string().optional(), url: p.string().optional(), filepath: p.string().optional(), direct_asset_path: p.string().optional(), link_type: p.string().optional() };

/** The release asset link routes. */
export function releaseLinkRoutes(deps: ReleasesDeps): AnyRoute[] {
  const { store, baseUrl, clock } = deps.config;
  const base = "/projects/:id/releases/:tag_name/assets/links";
  /** The project and release, or 404 (`404 Not Found` for a missing release, as the reference). */
  const load = async (identity: Identity, id: string | undefined, tag: string, access: "read" | "write") => {
    const rp = await releaseProject(deps, identity, id, access);
    if (rp.isErr()) return err(rp.error);
    const release = await store.releases.find(rp.value.project.id, tag);
    return release === null ? err(errors.notFound()) : ok({ ...rp.value, release });
  };
  return [
    defineRoute({
      method: "GET",
      path: base,
      auth: READ,
      schema: z.object({ tag_name: p.string(), ...PAGINATION_PARAMS }),
      handler: ({ identity, pathParams, params, request }) =>
        respond(async () => {
          const found = await load(identity, pathParams["id"], params.tag_name, "read");
          if (found.isErr()) return err(found.error);
          const page = offsetOnly(readPage(params, null));
          if (page.isErr()) return err(page.error);
          const all = await store.releases.links([found.value.release.id]);
          const { page: n, perPage } = page.value;
          const items = all.slice((n - 1) * perPage, n * perPage);
          const body = items.map((l) => releaseLinkEntity(baseUrl, found.value.project, found.value.release, l));
          return ok({ body, headers: listHeaders(baseUrl, request, page.value, { items, total: all.length, hasNext: n * perPage < all.length }) });
        }),
    }),
    defineRoute({
      method: "GET",
      path: `${base}/:link_id`,
      auth: READ,
      schema: z.object({ tag_name: p.string(), link_id: p.recordId() }),
      handler: ({ identity, pathParams, params }) =>
        respond(async () => {
          const found = await load(identity, pathParams["id"], params.tag_name, "read");
          if (found.isErr()) return err(found.error);
          const link = (await store.releases.links([found.value.release.id])).find((l) => l.id === params.link_id);
          if (link === undefined) return err(errors.notFound());
          return ok({ body: releaseLinkEntity(baseUrl, found.value.project, found.value.release, link) });
        }),
    }),
    defineRoute({
      method: "POST",
      path: base,
      auth: WRITE,
      schema: z.object({ tag_name: p.string(), ...LINK_FIELDS }),
      handler: ({ identity, pathParams, params }) =>
        respond(async () => {
          const found = await load(identity, pathParams["id"], params.tag_name, "write");
          if (found.isErr()) return err(found.error);
          if (params.name === undefined) return err(errors.missingParam("name"));
          if (params.url === undefined) return err(errors.missingParam("url"));
          const input = newLink(params);
          if (input.isErr()) return err(input.error);
          const written = await store.releases.addLink(found.value.release.id, input.value, clock.now());
          if (written === null) return err(errors.notFound());
          if (!("link" in written)) return err(refusal(written));
          return ok({ status: 201, body: releaseLinkEntity(baseUrl, found.value.project, found.value.release, written.link) });
        }),
    }),
    defineRoute({
      method: "PUT",
      path: `${base}/:link_id`,
      auth: WRITE,
      schema: z.object({ tag_name: p.string(), link_id: p.recordId(), ...LINK_FIELDS }),
      handler: ({ identity, pathParams, params }) =>
        respond(async () => {
          const missing = noneGiven(params, ["name", "url", "filepath", "direct_asset_path", "link_type"]);
          if (missing !== null) return err(missing);
          const found = await load(identity, pathParams["id"], params.tag_name, "write");
          if (found.isErr()) return err(found.error);
          const patch = linkPatch(params);
          if (patch.isErr()) return err(patch.error);
          const written = await store.releases.updateLink(found.value.release.id, params.link_id, patch.value, clock.now());
          if (written === null) return err(errors.notFound());
          if (!("link" in written)) return err(refusal(written));
          return ok({ body: releaseLinkEntity(baseUrl, found.value.project, found.value.release, written.link) });
        }),
    }),
    defineRoute({
      method: "DELETE",
      path: `${base}/:link_id`,
      auth: WRITE,
      schema: z.object({ tag_name: p.string(), link_id: p.recordId() }),
      handler: ({ identity, pathParams, params }) =>
        respond(async () => {
          const found = await load(identity, pathParams["id"], params.tag_name, "write");
          if (found.isErr()) return err(found.error);
          const removed = await store.releases.removeLink(found.value.release.id, params.link_id);
          if (removed === null) return err(errors.notFound());
          return ok({ status: 200, body: releaseLinkEntity(baseUrl, found.value.project, found.value.release, removed) });
        }),
    }),
  ];
}
