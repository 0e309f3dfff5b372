/**
 * Notes over REST (reference `lib/api/notes.rb`, NotePolicy): `/projects/:id/issues/:issue_iid/notes`,
 * `/projects/:id/merge_requests/:merge_request_iid/notes` and `/projects/:id/snippets/:snippet_id/notes`
 * (issues and merge requests by iid, snippets by id): list (`order_by`, `sort`), show, create,
 * update, delete. The noteable must be readable (a confidential issue's notes follow the issue,
 * all notes follow their project feature — issues, merge requests, snippets: 404 otherwise); anyone who can read it may comment; only the author edits a note; the author,
 * Maintainers and administrators delete it; system notes are read-only (403).
 */
import { err, ok } from "neverthrow";
import * as z from "zod";
import { AccessLevel, type User } from "../../accounts/types.js";
import type { ForgekitConfig } from "../../config.js";
import { errors } from "../../errors.js";
import { p } from "../../http/params.js";
import { defineRoute, listHeaders, offsetOnly, PAGINATION_PARAMS, readPage, respond } from "../../http/route-kit.js";
import type { AnyRoute } from "../../http/router.js";
import { checkSpam } from "../../http/spam.js";
import type { NotesService } from "../notes.js";
import type { Note } from "../types.js";
import { commentRefused, NOTEABLE_KINDS, readableNoteable, renderNotes, type NoteableKind } from "./noteables.js";

/** What the note routes are built from. */
export interface NoteRouteDeps {
  config: ForgekitConfig;
  notes: NotesService;
}

/** Builds the note routes of the three noteable kinds. */
export function noteRoutes({ config, notes }: NoteRouteDeps): AnyRoute[] {
  const { baseUrl } = config;

  const noteable = (user: User | null, kind: NoteableKind, projectRef: number | string, noteableId: number) => readableNoteable(config, user, kind, projectRef, noteableId);
  const render = (items: readonly Note[], iid: number | null) => renderNotes(config, items, iid);

  return NOTEABLE_KINDS.flatMap((kind): AnyRoute[] => {
    // The router wants one placeholder name per position, so each kind uses its resource's own
    // (`:issue_iid`, `:merge_request_iid`, `:snippet_id`).
    const base = { id: p.id(), [kind.param]: p.recordId() } as { id: ReturnType<typeof p.id>; noteable_id: ReturnType<typeof p.recordId> };
    const noteableId = (params: object): number => (params as Record<string, number>)[kind.param] ?? 0;
    const path = `/projects/:id/${kind.segment}/:${kind.param}/notes`;
    return [
      defineRoute({
        method: "GET",
        path,
        auth: { mode: "optional" },
        schema: z.object({ ...PAGINATION_PARAMS, ...base, order_by: p.enum(["created_at", "updated_at"]).optional(), sort: p.enum(["asc", "desc"]).optional() }),
        handler: ({ identity, params, request }) =>
          respond(async () => {
            const page = offsetOnly(readPage(params, null));
            if (page.isErr()) return err(page.error);
            const found = await noteable(identity.user, kind, params.id, noteableId(params));
            if (found.isErr()) return err(found.error);
            const listed = await notes.page(found.value.target, { orderBy: params.order_by ?? "created_at", sort: params.sort ?? "desc" }, page.value);
            if (listed.isErr()) return err(listed.error);
            return ok({ body: await render(listed.value.items, found.value.iid), headers: listHeaders(baseUrl, request, page.value, listed.value) });
          }),
      }),
      defineRoute({
        method: "GET",
        path: `${path}/:note_id`,
        auth: { mode: "optional" },
        schema: z.object({ ...base, note_id: p.recordId() }),
        handler: ({ identity, params }) =>
          respond(async () => {
            const found = await noteable(identity.user, kind, params.id, noteableId(params));
            if (found.isErr()) return err(found.error);
            const note = await notes.find(found.value.target, params.note_id);
            if (note.isErr()) return err(note.error);
            return ok({ body: (await render([note.value], found.value.iid))[0] });
          }),
      }),
      defineRoute({
        method: "POST",
        path,
        auth: { mode: "required" },
        schema: z.object({ ...base, body: p.string() }),
        handler: ({ identity, params, request }) =>
          respond(async () => {
            const user = identity.user;
            if (user === null) return err(errors.unauthorized());
            const found = await noteable(user, kind, params.id, noteableId(params));
            if (found.isErr()) return err(found.error);
            const refused = commentRefused(found.value);
            if (refused !== null) return err(refused);
            const spam = await checkSpam(config.spamChecker, request, { userId: user.id, target: "note", text: params.body });
            if (spam.isErr()) return err(spam.error);
            const created = await notes.create({ on: found.value.target, authorId: user.id, body: params.body });
            if (created.isErr()) return err(created.error);
            return ok({ status: 201, body: (await render([created.value], found.value.iid))[0] });
          }),
      }),
      defineRoute({
        method: "PUT",
        path: `${path}/:note_id`,
        auth: { mode: "required" },
        schema: z.object({ ...base, note_id: p.recordId(), body: p.string() }),
        handler: ({ identity, params, request }) =>
          respond(async () => {
            const user = identity.user;
            if (user === null) return err(errors.unauthorized());
            const found = await noteable(user, kind, params.id, noteableId(params));
            if (found.isErr()) return err(found.error);
            const note = await notes.find(found.value.target, params.note_id);
            if (note.isErr()) return err(note.error);
            // Reference NotePolicy: only the author (or an administrator) edits; system notes never.
            if (note.value.authorId !== user.id && !user.admin) return err(errors.forbidden());
            const spam = await checkSpam(config.spamChecker, request, { userId: user.id, target: "note", text: params.body });
            if (spam.isErr()) return err(spam.error);
            const updated = await notes.update(found.value.target, params.note_id, params.body);
            if (updated.isErr()) return err(updated.error);
            return ok({ body: (await render([updated.value], found.value.iid))[0] });
          }),
      }),
      defineRoute({
        method: "DELETE",
        path: `${path}/:note_id`,
        auth: { mode: "required" },
        schema: z.object({ ...base, note_id: p.recordId() }),
        handler: ({ identity, params }) =>
          respond(async () => {
            const user = identity.user;
            if (user === null) return err(errors.unauthorized());
            const found = await noteable(user, kind, params.id, noteableId(params));
            if (found.isErr()) return err(found.error);
            const note = await notes.find(found.value.target, params.note_id);
            if (note.isErr()) return err(note.error);
            if (note.value.authorId !== user.id && found.value.level < AccessLevel.Maintainer) return err(errors.forbidden());
            const removed = await notes.remove(found.value.target, params.note_id);
            return removed.map(() => ({ status: 204 }));
          }),
      }),
    ];
  });
}
