/**
 * SQL `projects.remove` and `namespaces.removeGroup`. Most rows that refer to a project go by the
 * schema's `on delete cascade` (issues, merge requests, milestones, notes, events, snippets, labels,
 * imports, error tracking); rows that name a project or group by `(source_type, source_id)` or
 * `(container_type, container_id)` have no foreign key and are deleted here, as are the bot users
 * of the container's access tokens (their tokens and memberships cascade with them).
 */
import type { RemovedRepository } from "@forgekit/core";
import { atomic, type SqlContext } from "./context.js";

type Source = { members: "project" | "namespace"; settings: "project" | "namespace"; tokens: "project" | "group"; moves: "project" | "group" };
const PROJECT: Source = { members: "project", settings: "project", tokens: "project", moves: "project" };
const GROUP: Source = { members: "namespace", settings: "namespace", tokens: "group", moves: "group" };

async function dropSourceRows(ctx: SqlContext, source: Source, ids: readonly number[]): Promise<void> {
  if (ids.length === 0) return;
  const { db } = ctx;
  await db.deleteFrom("forgekit_members").where("source_type", "=", source.members).where("source_id", "in", ids).execute();
  await db.deleteFrom("forgekit_notification_settings").where("source_type", "=", source.settings).where("source_id", "in", ids).execute();
  await db.deleteFrom("forgekit_repository_storage_moves").where("container_type", "=", source.moves).where("container_id", "in", ids).execute();
  const bots = await db
    .selectFrom("forgekit_access_tokens as t")
    .innerJoin("forgekit_users as u", "u.id", "t.user_id")
    .select("u.id")
    .distinct()
    .where("t.kind", "=", source.tokens)
    .where("t.resource_id", "in", ids)
    .where("u.bot", "is not", null)
    .execute();
  await db.deleteFrom("forgekit_access_tokens").where("kind", "=", source.tokens).where("resource_id", "in", ids).execute();
  // A bot authored only what its container held (gone by now); its e-mails, memberships, tokens and settings cascade.
  if (bots.length > 0) await db.deleteFrom("forgekit_users").where("id", "in", bots.map((b) => Number(b.id))).execute();
}

async function removeProjects(ctx: SqlContext, ids: readonly number[]): Promise<RemovedRepository[]> {
  if (ids.length === 0) return [];
  const { db } = ctx;
  const projects = await db.selectFrom("forgekit_projects").select(["id", "repository_storage"]).where("id", "in", ids).orderBy("id").execute();
  const snippets = await db.selectFrom("forgekit_snippets").select(["id", "repository_storage"]).where("project_id", "in", ids).orderBy("id").execute();
  const snippetIds = snippets.map((s) => Number(s.id));
  if (snippetIds.length > 0) await db.deleteFrom("forgekit_repository_storage_moves").where("container_type", "=", "snippet").where("container_id", "in", snippetIds).execute();
  // Error events carry the project id without a foreign key to it (they cascade from their error, but say it plainly).
  await db.deleteFrom("forgekit_error_tracking_events").where("project_id", "in", ids).execute();
  await dropSourceRows(ctx, PROJECT, ids);
  await db.deleteFrom("forgekit_projects").where("id", "in", ids).execute();
  return [
    ...projects.map((p): RemovedRepository => ({ kind: "project", id: Number(p.id), storage: p.repository_storage })),
    ...snippets.map((s): RemovedRepository => ({ kind: "snippet", id: Number(s.id), storage: s.repository_storage ?? null })),
  ];
}

/** See ProjectRepository.remove. */
export function removeProject(ctx: SqlContext, id: number): Promise<RemovedRepository[] | null> {
  return atomic(ctx, async (tx) => {
    const exists = await tx.db.selectFrom("forgekit_projects").select("id").where("id", "=", id).executeTakeFirst();
    return exists === undefined ? null : removeProjects(tx, [id]);
  });
}

/** See NamespaceRepository.removeGroup. */
export function removeGroup(ctx: SqlContext, id: number): Promise<RemovedRepository[] | null> {
  return atomic(ctx, async (tx) => {
    const { db } = tx;
    const group = await db.selectFrom("forgekit_namespaces").select("id").where("id", "=", id).where("kind", "=", "group").executeTakeFirst();
    if (group === undefined) return null;
    // The group and its descendants (the closure holds each namespace's link to itself at depth 0), deepest first.
    const tree = await db
      .selectFrom("forgekit_namespace_ancestors as a")
      .innerJoin("forgekit_namespaces as n", "n.id", "a.namespace_id")
      .select(["n.id", "n.wiki_repository_storage", "n.full_path"])
      .where("a.ancestor_id", "=", id)
      .execute();
    const ordered = tree
      .map((n) => ({ id: Number(n.id), storage: n.wiki_repository_storage ?? null, depth: n.full_path.split("/").length }))
      .sort((a, b) => b.depth - a.depth || b.id - a.id);
    const ids = ordered.map((n) => n.id);
    const projects = await db.selectFrom("forgekit_projects").select("id").where("namespace_id", "in", ids).orderBy("id").execute();
    const removed = await removeProjects(tx, projects.map((p) => Number(p.id)));
    await dropSourceRows(tx, GROUP, ids);
    // Iterations and ancestor links cascade; parents are referenced without cascade, so children go first.
    for (const namespace of ordered) await db.deleteFrom("forgekit_namespaces").where("id", "=", namespace.id).execute();
    return [...removed, ...ordered.map((n): RemovedRepository => ({ kind: "group-wiki", id: n.id, storage: n.storage }))];
  });
}
