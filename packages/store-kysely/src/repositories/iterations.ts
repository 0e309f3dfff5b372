/** SQL IterationRepository. */
import type { Iteration, IterationListFilter, IterationRepository, IterationState } from "@forgekit/core";
import type { ExpressionBuilder, Selectable, SelectQueryBuilder } from "kysely";
import type { Database, IterationsTable } from "../schema.js";
import { nothing } from "../sql/access.js";
import { checkPage, offsetPage } from "../sql/pagination.js";
import { containsFolded, fold } from "../sql/text.js";
import { atomic, type SqlContext } from "./context.js";

type Scope = Database & { i: IterationsTable };
type IterationQuery = SelectQueryBuilder<Scope, "i", object>;
type Row = Selectable<IterationsTable> & { earlier: number | string | bigint | null };

/** Rows of the group starting before this one: the sequence is that count + 1 (start dates never repeat: no overlaps). */
function earlier(eb: ExpressionBuilder<Scope, "i">) {
  return eb
    .selectFrom("forgekit_iterations as o")
    .select((o) => o.fn.countAll<number | string | bigint>().as("n"))
    .whereRef("o.group_id", "=", "i.group_id")
    .whereRef("o.start_date", "<", "i.start_date")
    .as("earlier");
}

/** The condition of one state on `today` (reference `compute_state`). */
function inState(eb: ExpressionBuilder<Scope, "i">, state: IterationState, today: string) {
  switch (state) {
    case "upcoming":
      return eb("i.start_date", ">", today);
    case "current":
      return eb.and([eb("i.start_date", "<=", today), eb("i.due_date", ">=", today)]);
    case "closed":
      return eb("i.due_date", "<", today);
  }
}

function filtered(ctx: SqlContext, filter: IterationListFilter): IterationQuery {
  const t = ctx.traits;
  let query: IterationQuery = ctx.db.selectFrom("forgekit_iterations as i");
  query = filter.groupIds.length === 0 ? query.where(nothing) : query.where("i.group_id", "in", [...filter.groupIds]);
  const { states, search, updatedBefore, updatedAfter } = filter;
  if (states !== undefined) query = states.length === 0 ? query.where(nothing) : query.where((eb) => eb.or(states.map((state) => inState(eb, state, filter.today))));
  if (search !== undefined) query = query.where(() => containsFolded("i.title_lower", search));
  if (updatedBefore !== undefined) query = query.where("i.updated_at", "<=", t.toDate(updatedBefore));
  if (updatedAfter !== undefined) query = query.where("i.updated_at", ">=", t.toDate(updatedAfter));
  return query;
}

export function sqlIterations(ctx: SqlContext): IterationRepository {
  const { db, traits: t } = ctx;
  const map = (row: Row): Iteration => ({
    id: Number(row.id),
    iid: Number(row.iid),
    sequence: Number(row.earlier ?? 0) + 1,
    groupId: Number(row.group_id),
    title: row.title,
    description: row.description,
    startDate: row.start_date,
    dueDate: row.due_date,
    createdAt: t.fromDate(row.created_at),
    updatedAt: t.fromDate(row.updated_at),
  });
  const findById = async (c: SqlContext, id: number) => {
    const row = await c.db.selectFrom("forgekit_iterations as i").selectAll("i").select(earlier).where("i.id", "=", id).executeTakeFirst();
    return row === undefined ? null : map(row);
  };
  return {
    create: (input, now) =>
      atomic(ctx, async (tx) => {
        // The group's row is the lock that serialises creates in one group (SQLite serialises writers
        // anyway); the checks after it see the previous holder's insert because store transactions run
        // READ COMMITTED (on MySQL's REPEATABLE READ they missed it: overlaps and duplicate iids).
        if (tx.traits.supportsForUpdate) await tx.db.selectFrom("forgekit_namespaces").select("id").where("id", "=", input.groupId).forUpdate().execute();
        const siblings = tx.db.selectFrom("forgekit_iterations").select("id").where("group_id", "=", input.groupId);
        const overlap = await siblings.where("start_date", "<=", input.dueDate).where("due_date", ">=", input.startDate).limit(1).executeTakeFirst();
        if (overlap !== undefined) return { refused: "dates_overlap" as const };
        if ((await siblings.where("title", "=", input.title).limit(1).executeTakeFirst()) !== undefined) return { refused: "title_taken" as const };
        const top = await tx.db.selectFrom("forgekit_iterations").select((eb) => eb.fn.max("iid").as("iid")).where("group_id", "=", input.groupId).executeTakeFirst();
        const id = await t.insert(tx.db, "forgekit_iterations", {
          group_id: input.groupId,
          iid: Number(top?.iid ?? 0) + 1,
          title: input.title,
          title_lower: fold(input.title),
          description: input.description,
          start_date: input.startDate,
          due_date: input.dueDate,
          created_at: t.toDate(now),
          updated_at: t.toDate(now),
        });
        const created = await findById(tx, id);
        if (created === null) throw new Error(`iteration ${id} vanished`);
        return { created };
      }),
    findById: (id) => findById(ctx, id),
    list: (filter, page) => {
      checkPage(page);
      return offsetPage(db, filtered(ctx, filter), (q) => q.selectAll("i").select(earlier).orderBy("i.due_date").orderBy("i.title").orderBy("i.id"), page, map);
    },
  };
}
