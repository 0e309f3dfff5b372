/** SQL EmailRepository. */
import type { EmailRepository } from "@forgekit/core";
import { fold } from "../sql/text.js";
import { atomic, lockUser, type SqlContext } from "./context.js";
import { toEmail } from "./rows.js";

export function sqlEmails(ctx: SqlContext): EmailRepository {
  const { db, traits: t } = ctx;
  return {
    add: (input, now) =>
      atomic(ctx, async (tx) => {
        // Holding the user's row makes "one primary per user" hold under racing adds (SQLite serialises
        // writers anyway). Every add takes it, primary or not, before its insert: an insert checks the
        // user foreign key under a share lock, and a primary add waiting for the user's row behind
        // such a check while that insert waits for the primary add's row deadlocked (PostgreSQL, 50 racers).
        await lockUser(tx, input.userId);
        const id = await t.insertOrIgnore(tx.db, "forgekit_emails", {
          user_id: input.userId,
          email: input.email,
          email_lower: fold(input.email),
          is_primary: t.toBool(input.primary),
          confirmed_at: input.confirmedAt === null ? null : t.toDate(input.confirmedAt),
          created_at: t.toDate(now),
        });
        if (id === null) return null;
        if (input.primary) {
          await tx.db
            .updateTable("forgekit_emails")
            .set({ is_primary: t.toBool(false) })
            .where("user_id", "=", input.userId)
            .where("id", "<>", id)
            .where("is_primary", "=", t.toBool(true))
            .execute();
        }
        return {
          id,
          userId: input.userId,
          email: input.email,
          primary: input.primary,
          confirmedAt: input.confirmedAt === null ? null : new Date(input.confirmedAt),
          createdAt: new Date(now),
        };
      }),
    async listByUser(userId) {
      const rows = await db.selectFrom("forgekit_emails").selectAll().where("user_id", "=", userId).orderBy("id").execute();
      return rows.map((row) => toEmail(row, t));
    },
    async findByEmail(email) {
      const row = await db.selectFrom("forgekit_emails").selectAll().where("email_lower", "=", fold(email)).executeTakeFirst();
      return row === undefined ? null : toEmail(row, t);
    },
    async primaryFor(userId) {
      const row = await db
        .selectFrom("forgekit_emails")
        .selectAll()
        .where("user_id", "=", userId)
        .where("is_primary", "=", t.toBool(true))
        .orderBy("id", "desc")
        .executeTakeFirst();
      return row === undefined ? null : toEmail(row, t);
    },
    async primaryForUsers(userIds) {
      if (userIds.length === 0) return [];
      const rows = await db
        .selectFrom("forgekit_emails")
        .selectAll()
        .where("user_id", "in", [...new Set(userIds)])
        .where("is_primary", "=", t.toBool(true))
        .execute();
      return rows.map((row) => toEmail(row, t));
    },
    async confirm(id, at) {
      await db.updateTable("forgekit_emails").set({ confirmed_at: t.toDate(at) }).where("id", "=", id).where("confirmed_at", "is", null).execute();
      const row = await db.selectFrom("forgekit_emails").selectAll().where("id", "=", id).executeTakeFirst();
      return row === undefined ? null : toEmail(row, t);
    },
    async remove(id) {
      const deleted = await db.deleteFrom("forgekit_emails").where("id", "=", id).executeTakeFirst();
      return Number(deleted.numDeletedRows) > 0;
    },
  };
}
