/**
 * Discussions over REST (reference `lib/api/discussions.rb`, `NotesHelpers`): for issues, merge
 * requests and project snippets — list (paginated), show, start (`body`, `created_at` for
 * administrators and project owners; on merge requests `position[…]` makes a diff note checked
 * against the diff), reply, and show, edit (`body`, or `resolved` on merge requests), delete a note;
 * on merge requests also resolve a whole discussion. Every route needs a signed-in user (the
 * reference's `authenticate!`); the noteable must be readable (404 otherwise) and, as for notes,
 * anyone who can read it may comment. Only a note's author edits it; its author and Maintainers
 * delete it; the merge request's author and Developers resolve.
 */
import { err, ok, type Result } from "neverthrow";
import * as z from "zod";
import { AccessLevel, type User } from "../accounts/types.js";
import { commentRefused, noteUsers, readableNoteable, renderNotes, NOTEABLE_KINDS, type NoteableKind, type ReadableNoteable } from "../activity/routes/noteables.js";
import { isResolvable } from "../activity/note-fields.js";
import type { NotesService } from "../activity/notes.js";
import type { ForgekitConfig } from "../config.js";
import { errors, type ForgekitError } from "../errors.js";
import { p } from "../http/params.js";
import { defineRoute, listHeaders, offsetOnly, PAGINATION_PARAMS, readPage, respond } from "../http/route-kit.js";
import type { AnyRoute } from "../http/router.js";
import { checkSpam } from "../http/spam.js";
import type { Identity } from "../auth/identity.js";
import type { DiscussionRecord } from "../ports/discussions-store.js";
import { discussionEntity } from "./entities.js";
import { diffNotePosition } from "./diff-check.js";
import { discussionsService, type NoteableRef } from "./service.js";

const SIGNED_IN = { mode: "required" } as const;
const lineEnd = z.object({ line_code: p.string().optional(), type: p.string().optional(), old_line: p.int().optional(), new_line: p.int().optional() }).optional();
/** `position[…]` (merge requests): the reference requires the three shas and the type. */
const POSITION = z
  .object({
    base_sha: p.string(),
    start_sha: p.string(),
    head_sha: p.string(),
    position_type: p.enum(["text"]),
    new_path: p.string().optional(),
    old_path: p.string().optional(),
    new_line: p.int().optional(),
    old_line: p.int().optional(),
    line_range: z.object({ start: lineEnd, end: lineEnd }).optional(),
  })
  .optional();

const refOf = (n: ReadableNoteable): NoteableRef => ({ target: n.target, type: n.target.type, id: n.id });

/** Builds the discussion routes of the three noteable kinds over the notes service. */
export function discussionRoutes(config: ForgekitConfig, notes: NotesService): AnyRoute[] {
  const { baseUrl } = config;
  const discussions = discussionsService(config, notes);

  const signedIn = (identity: Identity): Result<User, ForgekitError> => (identity.user === null ? err(errors.unauthorized()) : ok(identity.user));
  const render = async (items: readonly DiscussionRecord[], iid: number | null) => {
    const users = await noteUsers(config, items.flatMap((d) => d.notes));
    return items.map((d) => discussionEntity(d, users, iid, baseUrl));
  };
  /** Reference `set_note_created_at`: administrators and the project's owners may date a note. */
  const createdAt = (user: User, found: ReadableNoteable, value: string | undefined) => (value !== undefined && (user.admin || found.level >= AccessLevel.Owner) ? { createdAt: new Date(value) } : {});
  /** Reference `Discussion#can_resolve?`: the merge request's author, Developers and above. */
  const canResolve = (user: User, found: ReadableNoteable) => user.admin || found.authorId === user.id || found.level >= AccessLevel.Developer;

  return NOTEABLE_KINDS.flatMap((kind: NoteableKind): AnyRoute[] => {
    const base = { id: p.id(), [kind.param]: p.recordId() } as { id: ReturnType<typeof p.id>; noteable_id: ReturnType<typeof p.recordId> };
    const noteableId = (params: object): number => (params as Record<string, number>)[kind.param] ?? 0;
    const path = `/projects/:id/${kind.segment}/:${kind.param}/discussions`;
    const isMr = kind.segment === "merge_requests";
    const notePath = `${path}/:discussion_id/notes/:note_id`;
    const noteSchema = z.object({ ...base, discussion_id: p.string(), note_id: p.recordId() });
    const lookup = async (identity: Identity, params: { id: number | string }) => {
      const user = signedIn(identity);
      if (user.isErr()) return err(user.error);
      const found = await readableNoteable(config, user.value, kind, params.id, noteableId(params));
      return found.map((n) => ({ user: user.value, found: n, ref: refOf(n) }));
    };
    /** The readable noteable and its note `note_id` (reference: any note of the noteable, whatever the discussion). */
    const lookupNote = async (identity: Identity, params: { id: number | string; note_id: number }) => {
      const o = await lookup(identity, params);
      if (o.isErr()) return err(o.error);
      const note = await notes.find(o.value.ref.target, params.note_id);
      return note.map((n) => ({ ...o.value, note: n }));
    };

    const routes: AnyRoute[] = [
      defineRoute({
        method: "GET",
        path,
        auth: SIGNED_IN,
        schema: z.object({ ...PAGINATION_PARAMS, ...base }),
        handler: ({ identity, params, request }) =>
          respond(async () => {
            const page = offsetOnly(readPage(params, null));
            if (page.isErr()) return err(page.error);
            const o = await lookup(identity, params);
            if (o.isErr()) return err(o.error);
            const listed = await discussions.page(o.value.ref, page.value);
            if (listed.isErr()) return err(listed.error);
            return ok({ body: await render(listed.value.items, o.value.found.iid), headers: listHeaders(baseUrl, request, page.value, listed.value) });
          }),
      }),
      defineRoute({
        method: "GET",
        path: `${path}/:discussion_id`,
        auth: SIGNED_IN,
        schema: z.object({ ...base, discussion_id: p.string() }),
        handler: ({ identity, params }) =>
          respond(async () => {
            const o = await lookup(identity, params);
            if (o.isErr()) return err(o.error);
            const found = await discussions.find(o.value.ref, params.discussion_id);
            if (found.isErr()) return err(found.error);
            return ok({ body: (await render([found.value], o.value.found.iid))[0] });
          }),
      }),
      defineRoute({
        method: "POST",
        path,
        auth: SIGNED_IN,
        schema: z.object({ ...base, body: p.string(), created_at: p.datetime().optional(), ...(isMr ? { position: POSITION } : {}) }),
        handler: ({ identity, params, pathParams, request }) =>
          respond(async () => {
            const o = await lookup(identity, params);
            if (o.isErr()) return err(o.error);
            const { user, found, ref } = o.value;
            const refused = commentRefused(found);
            if (refused !== null) return err(refused);
            const spam = await checkSpam(config.spamChecker, request, { userId: user.id, target: "note", text: params.body });
            if (spam.isErr()) return err(spam.error);
            const positionParams = (params as { position?: Parameters<typeof diffNotePosition>[2] }).position;
            const position = positionParams === undefined ? undefined : await diffNotePosition(config, identity, positionParams, pathParams["id"]);
            if (position !== undefined && position.isErr()) return err(position.error);
            const started = await discussions.start(ref, { authorId: user.id, body: params.body, ...createdAt(user, found, params.created_at), ...(position === undefined ? {} : { position: position.value }) });
            if (started.isErr()) return err(started.error);
            return ok({ status: 201, body: (await render([started.value], found.iid))[0] });
          }),
      }),
      defineRoute({
        method: "GET",
        path: `${path}/:discussion_id/notes`,
        auth: SIGNED_IN,
        schema: z.object({ ...base, discussion_id: p.string() }),
        handler: ({ identity, params }) =>
          respond(async () => {
            const o = await lookup(identity, params);
            if (o.isErr()) return err(o.error);
            const found = await discussions.find(o.value.ref, params.discussion_id);
            // Reference: an empty discussion here is `404 Notes Not Found`.
            if (found.isErr()) return err(errors.notFound("Notes"));
            return ok({ body: await renderNotes(config, found.value.notes, o.value.found.iid) });
          }),
      }),
      defineRoute({
        method: "POST",
        path: `${path}/:discussion_id/notes`,
        auth: SIGNED_IN,
        schema: z.object({ ...base, discussion_id: p.string(), body: p.string(), created_at: p.datetime().optional() }),
        handler: ({ identity, params, request }) =>
          respond(async () => {
            const o = await lookup(identity, params);
            if (o.isErr()) return err(o.error);
            const { user, found, ref } = o.value;
            const refused = commentRefused(found);
            if (refused !== null) return err(refused);
            const spam = await checkSpam(config.spamChecker, request, { userId: user.id, target: "note", text: params.body });
            if (spam.isErr()) return err(spam.error);
            const note = await discussions.reply(ref, params.discussion_id, { authorId: user.id, body: params.body, ...createdAt(user, found, params.created_at) });
            if (note.isErr()) return err(note.error);
            return ok({ status: 201, body: (await renderNotes(config, [note.value], found.iid))[0] });
          }),
      }),
      defineRoute({
        method: "GET",
        path: notePath,
        auth: SIGNED_IN,
        schema: noteSchema,
        handler: ({ identity, params }) =>
          respond(async () => {
            const o = await lookupNote(identity, params);
            if (o.isErr()) return err(o.error);
            return ok({ body: (await renderNotes(config, [o.value.note], o.value.found.iid))[0] });
          }),
      }),
      defineRoute({
        method: "PUT",
        path: notePath,
        auth: SIGNED_IN,
        schema: noteSchema.extend({ body: p.string().optional(), resolved: p.bool().optional() }),
        handler: ({ identity, params, request }) =>
          respond(async () => {
            // Grape `exactly_one_of :body, :resolved`.
            if (params.body !== undefined && params.resolved !== undefined) return err(errors.invalidParam("body, resolved", "are mutually exclusive"));
            if (params.body === undefined && params.resolved === undefined) return err(errors.invalidParam("body, resolved", "are missing, exactly one parameter must be provided"));
            const o = await lookupNote(identity, params);
            if (o.isErr()) return err(o.error);
            const { user, found, ref, note } = o.value;
            if (params.resolved !== undefined) {
              if (!canResolve(user, found)) return err(errors.forbidden());
              const resolved = await discussions.resolveNote(note, params.resolved, user.id);
              if (resolved.isErr()) return err(resolved.error);
              return ok({ body: (await renderNotes(config, [resolved.value], found.iid))[0] });
            }
            const body = params.body ?? "";
            if (note.authorId !== user.id && !user.admin) return err(errors.forbidden());
            const spam = await checkSpam(config.spamChecker, request, { userId: user.id, target: "note", text: body });
            if (spam.isErr()) return err(spam.error);
            const updated = await notes.update(ref.target, params.note_id, body);
            if (updated.isErr()) return err(updated.error);
            return ok({ body: (await renderNotes(config, [updated.value], found.iid))[0] });
          }),
      }),
      defineRoute({
        method: "DELETE",
        path: notePath,
        auth: SIGNED_IN,
        schema: noteSchema,
        handler: ({ identity, params }) =>
          respond(async () => {
            const o = await lookupNote(identity, params);
            if (o.isErr()) return err(o.error);
            const { user, found, ref, note } = o.value;
            if (note.authorId !== user.id && found.level < AccessLevel.Maintainer) return err(errors.forbidden());
            const removed = await notes.remove(ref.target, params.note_id);
            return removed.map(() => ({ status: 204 }));
          }),
      }),
    ];
    if (!isMr) return routes;
    return [
      ...routes,
      defineRoute({
        method: "PUT",
        path: `${path}/:discussion_id`,
        auth: SIGNED_IN,
        schema: z.object({ ...base, discussion_id: p.string(), resolved: p.bool() }),
        handler: ({ identity, params }) =>
          respond(async () => {
            const o = await lookup(identity, params);
            if (o.isErr()) return err(o.error);
            const { user, found, ref } = o.value;
            const discussion = await discussions.find(ref, params.discussion_id);
            if (discussion.isErr()) return err(discussion.error);
            // Reference `resolve_discussion`: `forbidden!` unless `can_resolve?` (resolvable and allowed).
            if (!discussion.value.notes.some(isResolvable) || !canResolve(user, found)) return err(errors.forbidden());
            const resolved = await discussions.resolveDiscussion(ref, discussion.value, params.resolved, user.id);
            if (resolved.isErr()) return err(resolved.error);
            return ok({ body: (await render([resolved.value], found.iid))[0] });
          }),
      }),
    ];
  });
}
