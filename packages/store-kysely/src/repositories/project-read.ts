/**
 * `accessTokens.findByDigestWithProject` (ports/project-read-store.ts, issue 21): the token, its
 * user, the project, its namespace chain (one row per namespace of the chain, nearest first), the
 * owner of a user namespace, the user's direct and chain levels, the open-issue count and the import
 * status — one statement, compiled once per store (sql/compiled.ts). Portable SQL (left joins and
 * correlated scalar subqueries), the same text on SQLite, PostgreSQL and MySQL.
 */
import type { TokenProjectRead } from "@forgekit/core";
import type { Selectable } from "kysely";
import type { DbDate, NamespacesTable, ProjectsTable, UsersTable } from "../schema.js";
import { runCompiled } from "../sql/compiled.js";
import type { SqlContext } from "./context.js";
import { toNamespace, toProject, toToken, toUser } from "./rows.js";

/** The user columns {@link toUser} reads. */
export const USER_COLUMNS = [
  "id", "username", "username_lower", "name", "name_lower", "state", "admin", "bot", "two_factor_enabled",
  "private_profile", "avatar_url", "password_hash", "namespace_id", "external_id", "last_activity_on", "created_at", "updated_at",
] as const satisfies readonly (keyof UsersTable)[];
const PROJECT_COLUMNS = [
  "id", "namespace_id", "path", "path_lower", "name", "name_lower", "full_path", "full_path_lower", "description", "visibility",
  "creator_id", "repository_storage", "repository_read_only", "default_branch", "repository_empty", "readme_path",
  "issues_access_level", "merge_requests_access_level", "repository_access_level", "snippets_access_level",
  "only_allow_merge_if_pipeline_succeeds", "only_allow_merge_if_all_discussions_are_resolved", "created_at", "updated_at", "last_activity_at",
] as const satisfies readonly (keyof ProjectsTable)[];
const NAMESPACE_COLUMNS = [
  "id", "kind", "path", "path_lower", "name", "name_lower", "full_path", "full_path_lower", "parent_id", "owner_id",
  "visibility", "description", "created_at", "updated_at", "wiki_repository_storage", "wiki_repository_read_only",
] as const satisfies readonly (keyof NamespacesTable)[];

/** Every column of each table is listed above, so a column added there fails the type check until listed. */
type Missing<T, L extends readonly unknown[]> = Exclude<keyof T, L[number]>;
const everyColumnListed: [Missing<UsersTable, typeof USER_COLUMNS>, Missing<ProjectsTable, typeof PROJECT_COLUMNS>, Missing<NamespacesTable, typeof NAMESPACE_COLUMNS>] extends [never, never, never] ? true : never = true;
void everyColumnListed;

/** `alias.column as prefix_column` for each column (typed loosely: the row is read by {@link prefixedRow}). */
export function prefixedColumns(alias: string, prefix: string, columns: readonly string[]): "t.id"[] {
  return columns.map((column) => `${alias}.${column} as ${prefix}_${column}` as "t.id");
}

/** The `prefix_`-columns of a joined row; null when the left join found no row (its id is null). */
export function prefixedRow<T>(row: Record<string, unknown>, prefix: string, columns: readonly string[]): Selectable<T> | null {
  if (row[`${prefix}_id`] === null || row[`${prefix}_id`] === undefined) return null;
  const out: Record<string, unknown> = {};
  for (const column of columns) out[column] = row[`${prefix}_${column}`];
  return out as Selectable<T>;
}

type ImportStatus = NonNullable<NonNullable<TokenProjectRead["project"]>["importStatus"]>;
/** The Owner access level: what the owner of a user namespace has on it. */
const OWNER = 50;

const levelOf = (value: unknown) => (value === null || value === undefined ? 0 : Number(value));

export async function findByDigestWithProject(ctx: SqlContext, digest: string, projectId: number, now: Date): Promise<TokenProjectRead | null> {
  const { db, traits: t } = ctx;
  const rows = (await runCompiled(ctx, "accessTokens.findByDigestWithProject", [digest, projectId, t.toDate(now)], (arg) => {
    const at = arg<DbDate>(2);
    return db
      .selectFrom("forgekit_access_tokens as t")
      .leftJoin("forgekit_users as u", "u.id", "t.user_id")
      .leftJoin("forgekit_projects as p", (join) => join.on("p.id", "=", arg<number>(1)))
      .leftJoin("forgekit_namespace_ancestors as a", "a.namespace_id", "p.namespace_id")
      .leftJoin("forgekit_namespaces as n", "n.id", "a.ancestor_id")
      .leftJoin("forgekit_users as o", (join) => join.onRef("o.id", "=", "n.owner_id").on("n.kind", "=", "user"))
      .selectAll("t")
      .select(prefixedColumns("u", "u", USER_COLUMNS))
      .select(prefixedColumns("p", "p", PROJECT_COLUMNS))
      .select(prefixedColumns("n", "n", NAMESPACE_COLUMNS))
      .select(prefixedColumns("o", "o", USER_COLUMNS))
      .select((eb) => [
        eb
          .selectFrom("forgekit_members as m")
          .select((inner) => inner.fn.max("m.access_level").as("level"))
          .where("m.source_type", "=", "project")
          .whereRef("m.source_id", "=", "p.id")
          .whereRef("m.user_id", "=", "u.id")
          .where((inner) => inner.or([inner("m.expires_at", "is", null), inner("m.expires_at", ">", at)]))
          .as("direct_level"),
        eb
          .selectFrom("forgekit_namespace_ancestors as ca")
          .innerJoin("forgekit_members as cm", (join) => join.onRef("cm.source_id", "=", "ca.ancestor_id").on("cm.source_type", "=", "namespace"))
          .select((inner) => inner.fn.max("cm.access_level").as("level"))
          .whereRef("ca.namespace_id", "=", "p.namespace_id")
          .whereRef("cm.user_id", "=", "u.id")
          .where((inner) => inner.or([inner("cm.expires_at", "is", null), inner("cm.expires_at", ">", at)]))
          .as("chain_level"),
        eb.selectFrom("forgekit_issues as i").select((inner) => inner.fn.countAll().as("n")).whereRef("i.project_id", "=", "p.id").where("i.state", "=", "opened").as("open_issues"),
        eb.selectFrom("forgekit_project_imports as s").select("s.status").whereRef("s.project_id", "=", "p.id").as("import_status"),
      ])
      .where("t.digest", "=", arg<string>(0))
      .orderBy("a.depth");
  })) as unknown as Record<string, unknown>[];
  const first = rows[0];
  if (first === undefined) return null;
  const token = toToken(first as never, t);
  const userRow = prefixedRow<UsersTable>(first, "u", USER_COLUMNS);
  const user = userRow === null ? null : toUser(userRow, t);
  const projectRow = prefixedRow<ProjectsTable>(first, "p", PROJECT_COLUMNS);
  if (user === null || projectRow === null) return { token, user, project: null };
  const chain = rows.flatMap((row) => {
    const namespace = prefixedRow<NamespacesTable>(row, "n", NAMESPACE_COLUMNS);
    return namespace === null ? [] : [toNamespace(namespace, t)];
  });
  const ownerRow = prefixedRow<UsersTable>(first, "o", USER_COLUMNS);
  const owns = chain.some((namespace) => namespace.kind === "user" && namespace.ownerId === user.id);
  const status = first["import_status"];
  return {
    token,
    user,
    project: {
      project: toProject(projectRow, t),
      chain,
      owner: ownerRow === null ? null : toUser(ownerRow, t),
      direct: levelOf(first["direct_level"]),
      chainLevel: Math.max(levelOf(first["chain_level"]), owns ? OWNER : 0),
      openIssues: levelOf(first["open_issues"]),
      importStatus: typeof status === "string" ? (status as ImportStatus) : null,
    },
  };
}
