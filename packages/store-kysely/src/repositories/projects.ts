/** SQL ProjectRepository. */
import { DEFAULT_MERGE_CHECKS, DEFAULT_PROJECT_FEATURES, FEATURE_LEVEL_NUMBERS, type KeysetPageResult, type OffsetPageResult, type Project, type ProjectFeatures, type ProjectListFilter, type ProjectPatch, type ProjectRepository } from "@forgekit/core";
import type { SelectQueryBuilder, Updateable } from "kysely";
import type { Database, ProjectsTable } from "../schema.js";
import { nothing, projectLevelAtLeast, projectVisible } from "../sql/access.js";
import { decodeIdCursor } from "@forgekit/core/internal";
import { checkPage, offsetPage } from "../sql/pagination.js";
import { containsFolded, fold } from "../sql/text.js";
import { runCompiled } from "../sql/compiled.js";
import type { SqlContext } from "./context.js";
import { toProject } from "./rows.js";
import { removeProject } from "./container-removal.js";

type ProjectQuery = SelectQueryBuilder<Database & { p: ProjectsTable }, "p", object>;

const ORDER_COLUMNS = {
  id: "p.id",
  name: "p.name_lower",
  path: "p.path_lower",
  created_at: "p.created_at",
  updated_at: "p.updated_at",
  last_activity_at: "p.last_activity_at",
} as const;

function filteredProjects(ctx: SqlContext, filter: ProjectListFilter): ProjectQuery {
  const { viewer, now } = filter;
  const t = ctx.traits;
  let query: ProjectQuery = ctx.db.selectFrom("forgekit_projects as p").where((eb) => projectVisible(eb, t, viewer, now));
  if (filter.visibility !== undefined) query = query.where("p.visibility", "=", filter.visibility);
  const { namespaceId } = filter;
  if (namespaceId !== undefined) {
    query =
      filter.includeSubgroups === true
        ? query.where((eb) =>
            eb.exists(eb.selectFrom("forgekit_namespace_ancestors as a").select("a.namespace_id").whereRef("a.namespace_id", "=", "p.namespace_id").where("a.ancestor_id", "=", namespaceId)),
          )
        : query.where("p.namespace_id", "=", namespaceId);
  }
  if (filter.repositoryStorage !== undefined) query = query.where("p.repository_storage", "=", filter.repositoryStorage);
  const { search } = filter;
  if (search !== undefined) query = query.where((eb) => eb.or([containsFolded("p.name_lower", search), containsFolded("p.path_lower", search)]));
  if (filter.owned === true) {
    query =
      viewer === null
        ? query.where(nothing)
        : query.where((eb) =>
            eb.exists(
              eb
                .selectFrom("forgekit_namespaces as n")
                .select("n.id")
                .whereRef("n.id", "=", "p.namespace_id")
                .where("n.kind", "=", "user")
                .where("n.owner_id", "=", viewer.userId),
            ),
          );
  }
  const levels = [filter.membership === true ? 1 : 0, filter.minAccessLevel ?? 0].filter((level) => level > 0);
  for (const level of levels) {
    query = viewer === null ? query.where(nothing) : query.where((eb) => projectLevelAtLeast(eb, t, viewer.userId, level, now));
  }
  return query;
}

/** The feature columns of the given features. */
function featureColumns(features: Partial<ProjectFeatures>): Updateable<ProjectsTable> {
  const set: Updateable<ProjectsTable> = {};
  if (features.issues !== undefined) set.issues_access_level = FEATURE_LEVEL_NUMBERS[features.issues];
  if (features.mergeRequests !== undefined) set.merge_requests_access_level = FEATURE_LEVEL_NUMBERS[features.mergeRequests];
  if (features.repository !== undefined) set.repository_access_level = FEATURE_LEVEL_NUMBERS[features.repository];
  if (features.snippets !== undefined) set.snippets_access_level = FEATURE_LEVEL_NUMBERS[features.snippets];
  return set;
}

/** `readme_path`: the path, `''` for none, `null` for not known. */
const readmeColumn = (path: string | false | null): string | null => (path === false ? "" : path);

function patchColumns(patch: ProjectPatch, ctx: SqlContext): Updateable<ProjectsTable> {
  const t = ctx.traits;
  const set: Updateable<ProjectsTable> = {};
  if (patch.name !== undefined) Object.assign(set, { name: patch.name, name_lower: fold(patch.name) });
  if (patch.description !== undefined) set.description = patch.description;
  if (patch.visibility !== undefined) set.visibility = patch.visibility;
  if (patch.repositoryStorage !== undefined) set.repository_storage = patch.repositoryStorage;
  if (patch.repositoryReadOnly !== undefined) set.repository_read_only = t.toBool(patch.repositoryReadOnly);
  if (patch.defaultBranch !== undefined) set.default_branch = patch.defaultBranch;
  if (patch.repositoryEmpty !== undefined) set.repository_empty = t.toBool(patch.repositoryEmpty);
  if (patch.readmePath !== undefined) set.readme_path = readmeColumn(patch.readmePath);
  Object.assign(set, featureColumns(patch.features ?? {}));
  const checks = patch.mergeChecks ?? {};
  if (checks.pipelineMustSucceed !== undefined) set.only_allow_merge_if_pipeline_succeeds = t.toBool(checks.pipelineMustSucceed);
  if (checks.discussionsMustBeResolved !== undefined) set.only_allow_merge_if_all_discussions_are_resolved = t.toBool(checks.discussionsMustBeResolved);
  if (patch.lastActivityAt !== undefined) set.last_activity_at = t.toDate(patch.lastActivityAt);
  if (patch.updatedAt !== undefined) set.updated_at = t.toDate(patch.updatedAt);
  return set;
}

export function sqlProjects(ctx: SqlContext): ProjectRepository {
  const { db, traits: t } = ctx;
  const map = (row: Parameters<typeof toProject>[0]) => toProject(row, t);
  const findById = async (id: number) => {
    const [row] = await runCompiled(ctx, "projects.findById", [id], (arg) => db.selectFrom("forgekit_projects").selectAll().where("id", "=", arg<number>(0)));
    return row === undefined ? null : map(row);
  };
  return {
    async create(input, now) {
      const namespace = await db.selectFrom("forgekit_namespaces").select("full_path").where("id", "=", input.namespaceId).executeTakeFirst();
      if (namespace === undefined) throw new Error(`namespace ${input.namespaceId} does not exist`);
      const project: Omit<Project, "id"> = {
        namespaceId: input.namespaceId,
        path: input.path,
        name: input.name,
        fullPath: `${namespace.full_path}/${input.path}`,
        description: input.description ?? "",
        visibility: input.visibility,
        creatorId: input.creatorId,
        repositoryStorage: input.repositoryStorage ?? "default",
        repositoryReadOnly: false,
        defaultBranch: input.defaultBranch ?? null,
        repositoryEmpty: input.repositoryEmpty ?? true,
        readmePath: input.readmePath === undefined ? false : input.readmePath,
        features: { ...(input.features ?? DEFAULT_PROJECT_FEATURES) },
        mergeChecks: { ...(input.mergeChecks ?? DEFAULT_MERGE_CHECKS) },
        createdAt: new Date(now),
        updatedAt: new Date(now),
        lastActivityAt: new Date(now),
      };
      const id = await t.insertOrIgnore(db, "forgekit_projects", {
        namespace_id: project.namespaceId,
        path: project.path,
        path_lower: fold(project.path),
        name: project.name,
        name_lower: fold(project.name),
        full_path: project.fullPath,
        full_path_lower: fold(project.fullPath),
        description: project.description,
        visibility: project.visibility,
        creator_id: project.creatorId,
        repository_storage: project.repositoryStorage,
        repository_read_only: t.toBool(false),
        default_branch: project.defaultBranch,
        repository_empty: t.toBool(project.repositoryEmpty === true),
        readme_path: readmeColumn(project.readmePath),
        ...featureColumns(project.features),
        only_allow_merge_if_pipeline_succeeds: t.toBool(project.mergeChecks.pipelineMustSucceed),
        only_allow_merge_if_all_discussions_are_resolved: t.toBool(project.mergeChecks.discussionsMustBeResolved),
        created_at: t.toDate(now),
        updated_at: t.toDate(now),
        last_activity_at: t.toDate(now),
      });
      return id === null ? null : { id, ...project };
    },
    findById,
    async findByFullPath(fullPath) {
      const row = await db.selectFrom("forgekit_projects").selectAll().where("full_path_lower", "=", fold(fullPath)).executeTakeFirst();
      return row === undefined ? null : map(row);
    },
    async update(id, patch) {
      const set = patchColumns(patch, ctx);
      if (Object.keys(set).length > 0) await db.updateTable("forgekit_projects").set(set).where("id", "=", id).execute();
      return findById(id);
    },
    remove: (id) => removeProject(ctx, id),
    async list(filter, page): Promise<OffsetPageResult<Project> | KeysetPageResult<Project>> {
      const direction = filter.sort === "asc" ? "asc" : "desc";
      if (page.kind === "offset") {
        const column = ORDER_COLUMNS[filter.orderBy ?? "created_at"];
        return offsetPage(db, filteredProjects(ctx, filter), (q) => q.selectAll("p").orderBy(column, direction).orderBy("p.id", direction), page, map);
      }
      if (filter.orderBy !== undefined && filter.orderBy !== "id") {
        throw new RangeError(`keyset pagination of projects orders by id only, not ${filter.orderBy}`);
      }
      checkPage(page);
      let query = filteredProjects(ctx, filter);
      if (page.after !== undefined) query = query.where("p.id", direction === "asc" ? ">" : "<", decodeIdCursor(page.after));
      const rows = await query.selectAll("p").orderBy("p.id", direction).limit(page.perPage + 1).execute();
      const items = rows.slice(0, page.perPage);
      const last = items.at(-1);
      return { items: items.map(map), nextCursor: rows.length > page.perPage && last !== undefined ? String(last.id) : null };
    },
  };
}
