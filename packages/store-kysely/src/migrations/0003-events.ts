/**
 * 0003_events: the activity domain (issues, merge requests, milestones, snippets, notes) and events.
 *
 * Event indexes serve every filter combination of the three feeds with an index range read in
 * feed order, so a page costs the same at ten thousand or a million events. For each feed key
 * (`project_id` for a project's feed and for `scope=all`, which reads each authorised project's
 * range; `author_id` for the user feeds), four indexes cover no filter, `action`, `target_type`,
 * and both; every one ends with `created_at, id`, the feed order (asc or desc), so `before` /
 * `after` become range bounds and no sort step is needed. `(created_at, id)` serves retention;
 * `(target_type, target_id)` re-audiences an issue's events when its confidentiality changes.
 */
import type { Migration } from "kysely";
import type { AnyDb, DialectTraits } from "../dialects/traits.js";

const NAME = 255;

/** Feed keys and the filter columns between the key and the order columns. */
const FEED_INDEXES: readonly (readonly [string, readonly string[]])[] = [
  ["", []],
  ["_action", ["action"]],
  ["_target", ["target_type"]],
  ["_target_action", ["target_type", "action"]],
];

/**
 * Columns after the order columns: they do not change the order, but carry what the visibility
 * conditions read (audience, and the project for the author feed), so the bounded count of a feed
 * (up to 10,001 rows) is answered from the index alone, without a table read per row.
 */
const COVERED = { project_id: ["audience", "audience_user_id"], author_id: ["project_id", "audience", "audience_user_id"] } as const;

/** Names of the event feed indexes, per feed key column (query-plan tests check them). */
export const EVENT_FEED_INDEXES = {
  project_id: FEED_INDEXES.map(([suffix]) => `forgekit_events_project${suffix}`),
  author_id: FEED_INDEXES.map(([suffix]) => `forgekit_events_author${suffix}`),
} as const;

/** Every index on forgekit_events besides the primary key: name → columns. */
export const EVENT_INDEX_COLUMNS: Readonly<Record<string, readonly string[]>> = Object.freeze({
  ...Object.fromEntries(
    (["project_id", "author_id"] as const).flatMap((key) =>
      FEED_INDEXES.map(([suffix, filters]) => [`forgekit_events_${key === "project_id" ? "project" : "author"}${suffix}`, [key, ...filters, "created_at", "id", ...COVERED[key]]]),
    ),
  ),
  forgekit_events_created: ["created_at", "id"],
  forgekit_events_target: ["target_type", "target_id"],
});

/** Names of every index on forgekit_events besides the primary key. */
export const EVENT_INDEXES: readonly string[] = Object.keys(EVENT_INDEX_COLUMNS);

/** Creates the event indexes (also used by bulk loaders that drop and rebuild them). */
export async function createEventIndexes(db: AnyDb): Promise<void> {
  for (const [name, columns] of Object.entries(EVENT_INDEX_COLUMNS)) {
    await db.schema.createIndex(name).on("forgekit_events").columns([...columns]).execute();
  }
}

export function eventsMigration(traits: DialectTraits): Migration {
  const table = (db: AnyDb, name: string) => traits.tableOptions(db.schema.createTable(name)).addColumn("id", "integer", (column) => traits.idColumn(column));
  const ts = traits.timestampType;
  const bool = traits.booleanType;
  const projectFk = (name: string): [string, ["project_id"], string, string[]] => [`${name}_project_fk`, ["project_id"], "forgekit_projects", ["id"]];
  return {
    async up(db: AnyDb) {
      for (const [name, extra] of [["forgekit_issues", "issue"], ["forgekit_merge_requests", "merge_request"]] as const) {
        let builder = table(db, name)
          .addColumn("project_id", "integer", (c) => c.notNull())
          .addForeignKeyConstraint(...projectFk(name), (fk) => fk.onDelete("cascade"))
          .addColumn("iid", "integer", (c) => c.notNull())
          .addColumn("title", `varchar(${NAME})`, (c) => c.notNull())
          .addColumn("description", "text", (c) => c.notNull())
          .addColumn("state", "varchar(16)", (c) => c.notNull())
          .addColumn("author_id", "integer", (c) => c.notNull())
          .addForeignKeyConstraint(`${name}_author_fk`, ["author_id"], "forgekit_users", ["id"], (fk) => fk.onDelete("cascade"));
        builder =
          extra === "issue"
            ? builder.addColumn("confidential", bool, (c) => c.notNull())
            : builder
                .addColumn("source_branch", `varchar(${NAME})`, (c) => c.notNull())
                .addColumn("target_branch", `varchar(${NAME})`, (c) => c.notNull())
                .addColumn("merged_at", ts);
        await builder
          .addColumn("created_at", ts, (c) => c.notNull())
          .addColumn("updated_at", ts, (c) => c.notNull())
          .addColumn("closed_at", ts)
          .addUniqueConstraint(`${name}_project_iid`, ["project_id", "iid"])
          .execute();
        await db.schema.createIndex(`${name}_author`).on(name).columns(["author_id"]).execute();
      }

      await table(db, "forgekit_milestones")
        .addColumn("project_id", "integer", (c) => c.notNull())
        .addForeignKeyConstraint(...projectFk("forgekit_milestones"), (fk) => fk.onDelete("cascade"))
        .addColumn("iid", "integer", (c) => c.notNull())
        .addColumn("title", `varchar(${NAME})`, (c) => c.notNull())
        .addColumn("description", "text", (c) => c.notNull())
        .addColumn("state", "varchar(16)", (c) => c.notNull())
        .addColumn("created_at", ts, (c) => c.notNull())
        .addColumn("updated_at", ts, (c) => c.notNull())
        .addUniqueConstraint("forgekit_milestones_project_iid", ["project_id", "iid"])
        .addUniqueConstraint("forgekit_milestones_project_title", ["project_id", "title"])
        .execute();

      await table(db, "forgekit_snippets")
        .addColumn("project_id", "integer")
        .addForeignKeyConstraint(...projectFk("forgekit_snippets"), (fk) => fk.onDelete("cascade"))
        .addColumn("author_id", "integer", (c) => c.notNull())
        .addForeignKeyConstraint("forgekit_snippets_author_fk", ["author_id"], "forgekit_users", ["id"], (fk) => fk.onDelete("cascade"))
        .addColumn("title", `varchar(${NAME})`, (c) => c.notNull())
        .addColumn("file_name", `varchar(${NAME})`, (c) => c.notNull())
        .addColumn("content", "text", (c) => c.notNull())
        .addColumn("visibility", "varchar(16)", (c) => c.notNull())
        .addColumn("created_at", ts, (c) => c.notNull())
        .addColumn("updated_at", ts, (c) => c.notNull())
        .execute();
      await db.schema.createIndex("forgekit_snippets_project").on("forgekit_snippets").columns(["project_id"]).execute();
      await db.schema.createIndex("forgekit_snippets_author").on("forgekit_snippets").columns(["author_id"]).execute();

      await table(db, "forgekit_notes")
        .addColumn("project_id", "integer")
        .addForeignKeyConstraint(...projectFk("forgekit_notes"), (fk) => fk.onDelete("cascade"))
        .addColumn("noteable_type", "varchar(32)", (c) => c.notNull())
        .addColumn("noteable_id", "integer", (c) => c.notNull())
        .addColumn("author_id", "integer", (c) => c.notNull())
        .addForeignKeyConstraint("forgekit_notes_author_fk", ["author_id"], "forgekit_users", ["id"], (fk) => fk.onDelete("cascade"))
        .addColumn("body", "text", (c) => c.notNull())
        .addColumn("system", bool, (c) => c.notNull())
        .addColumn("created_at", ts, (c) => c.notNull())
        .addColumn("updated_at", ts, (c) => c.notNull())
        .execute();
      await db.schema.createIndex("forgekit_notes_noteable").on("forgekit_notes").columns(["noteable_type", "noteable_id", "id"]).execute();
      await db.schema.createIndex("forgekit_notes_project").on("forgekit_notes").columns(["project_id"]).execute();
      await db.schema.createIndex("forgekit_notes_author").on("forgekit_notes").columns(["author_id"]).execute();

      await table(db, "forgekit_events")
        .addColumn("project_id", "integer")
        .addForeignKeyConstraint(...projectFk("forgekit_events"), (fk) => fk.onDelete("cascade"))
        .addColumn("author_id", "integer", (c) => c.notNull())
        .addForeignKeyConstraint("forgekit_events_author_fk", ["author_id"], "forgekit_users", ["id"], (fk) => fk.onDelete("cascade"))
        .addColumn("action", "varchar(16)", (c) => c.notNull())
        .addColumn("target_type", "varchar(32)")
        .addColumn("target_id", "integer")
        .addColumn("target_iid", "integer")
        .addColumn("target_title", `varchar(${NAME})`)
        .addColumn("audience", "smallint", (c) => c.notNull())
        .addColumn("audience_user_id", "integer")
        .addColumn("payload", "text")
        .addColumn("created_at", ts, (c) => c.notNull())
        .execute();
      await createEventIndexes(db);
    },
    async down(db: AnyDb) {
      for (const name of ["forgekit_events", "forgekit_notes", "forgekit_snippets", "forgekit_milestones", "forgekit_merge_requests", "forgekit_issues"]) {
        await db.schema.dropTable(name).execute();
      }
    },
  };
}
