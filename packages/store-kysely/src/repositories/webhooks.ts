/** SQL WebHookRepository: hook rows (switches as a comma-separated list) and their delivery log. */
import type { BranchFilterStrategy, HookDelivery, HookDeliveryState, HookEvent, HookLog, HookScope, WebHook, WebHookPatch, WebHookRepository } from "@forgekit/core";
import type { Selectable } from "kysely";
import type { WebHookDeliveriesTable, WebHookLogsTable, WebHooksTable } from "../schema-webhooks.js";
import { checkPage, offsetPage } from "../sql/pagination.js";
import type { SqlContext } from "./context.js";

const parseJson = <T>(text: string, fallback: T): T => {
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
};

export function sqlWebHooks(ctx: SqlContext): WebHookRepository {
  const { db, traits: t } = ctx;
  const toHook = (row: Selectable<WebHooksTable>): WebHook => ({
    id: row.id,
    scope: row.scope as HookScope,
    projectId: row.project_id,
    groupId: row.group_id,
    url: row.url,
    name: row.name,
    description: row.description,
    token: row.token,
    enableSslVerification: t.fromBool(row.enable_ssl_verification),
    branchFilter: row.branch_filter,
    branchFilterStrategy: row.branch_filter_strategy as BranchFilterStrategy,
    events: row.events === "" ? [] : (row.events.split(",") as HookEvent[]),
    recentFailures: row.recent_failures,
    backoffCount: row.backoff_count,
    disabledUntil: row.disabled_until === null ? null : t.fromDate(row.disabled_until),
    createdAt: t.fromDate(row.created_at),
  });
  const toLog = (row: Selectable<WebHookLogsTable>): HookLog => ({
    id: row.id,
    hookId: row.hook_id,
    trigger: row.trigger_name,
    url: row.url,
    requestHeaders: parseJson(row.request_headers, {}),
    requestData: parseJson(row.request_data, null),
    responseHeaders: parseJson(row.response_headers, {}),
    responseBody: row.response_body,
    responseStatus: row.response_status,
    executionDuration: Number(row.execution_micros) / 1e6,
    idempotencyKey: row.idempotency_key,
    createdAt: t.fromDate(row.created_at),
  });
  const toDelivery = (row: Selectable<WebHookDeliveriesTable>): HookDelivery => ({
    id: row.id,
    hookId: row.hook_id,
    eventId: row.event_id,
    trigger: row.trigger_name,
    idempotencyKey: row.idempotency_key,
    eventUuid: row.event_uuid,
    state: row.state as HookDeliveryState,
    payload: row.payload,
    createdAt: t.fromDate(row.created_at),
    finishedAt: row.finished_at === null ? null : t.fromDate(row.finished_at),
  });
  const findDelivery = async (id: number) => {
    const row = await db.selectFrom("forgekit_web_hook_deliveries").selectAll().where("id", "=", id).executeTakeFirst();
    return row === undefined ? null : toDelivery(row);
  };
  const findById = async (id: number) => {
    const row = await db.selectFrom("forgekit_web_hooks").selectAll().where("id", "=", id).executeTakeFirst();
    return row === undefined ? null : toHook(row);
  };
  const columns = (patch: WebHookPatch) => {
    const set: Record<string, unknown> = {};
    if (patch.url !== undefined) set["url"] = patch.url;
    if (patch.name !== undefined) set["name"] = patch.name;
    if (patch.description !== undefined) set["description"] = patch.description;
    if (patch.token !== undefined) set["token"] = patch.token;
    if (patch.enableSslVerification !== undefined) set["enable_ssl_verification"] = t.toBool(patch.enableSslVerification);
    if (patch.branchFilter !== undefined) set["branch_filter"] = patch.branchFilter;
    if (patch.branchFilterStrategy !== undefined) set["branch_filter_strategy"] = patch.branchFilterStrategy;
    if (patch.events !== undefined) set["events"] = patch.events.join(",");
    if (patch.recentFailures !== undefined) set["recent_failures"] = patch.recentFailures;
    if (patch.backoffCount !== undefined) set["backoff_count"] = patch.backoffCount;
    if (patch.disabledUntil !== undefined) set["disabled_until"] = patch.disabledUntil === null ? null : t.toDate(patch.disabledUntil);
    return set;
  };
  return {
    async create(input, now) {
      const id = await t.insert(db, "forgekit_web_hooks", {
        scope: input.scope,
        project_id: input.projectId,
        group_id: input.groupId,
        url: input.url,
        name: input.name,
        description: input.description,
        token: input.token,
        enable_ssl_verification: t.toBool(input.enableSslVerification),
        branch_filter: input.branchFilter,
        branch_filter_strategy: input.branchFilterStrategy,
        events: input.events.join(","),
        recent_failures: 0,
        backoff_count: 0,
        disabled_until: null,
        created_at: t.toDate(now),
      });
      const hook = await findById(id);
      if (hook === null) throw new Error(`web hook ${id} vanished after insert`);
      return hook;
    },
    findById,
    async list(owner) {
      let query = db.selectFrom("forgekit_web_hooks").selectAll().where("scope", "=", owner.scope);
      if (owner.scope === "project") query = query.where("project_id", "=", owner.projectId);
      if (owner.scope === "group") query = query.where("group_id", "=", owner.groupId);
      return (await query.orderBy("id").execute()).map(toHook);
    },
    async update(id, patch) {
      const set = columns(patch);
      if (Object.keys(set).length > 0) await db.updateTable("forgekit_web_hooks").set(set).where("id", "=", id).execute();
      return findById(id);
    },
    async remove(id) {
      await db.deleteFrom("forgekit_web_hook_logs").where("hook_id", "=", id).execute();
      await db.deleteFrom("forgekit_web_hook_deliveries").where("hook_id", "=", id).execute();
      const result = await db.deleteFrom("forgekit_web_hooks").where("id", "=", id).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
    async addLog(input) {
      const id = await t.insert(db, "forgekit_web_hook_logs", {
        hook_id: input.hookId,
        trigger_name: input.trigger,
        url: input.url,
        request_headers: JSON.stringify(input.requestHeaders),
        request_data: JSON.stringify(input.requestData),
        response_headers: JSON.stringify(input.responseHeaders),
        response_body: input.responseBody,
        response_status: input.responseStatus,
        execution_micros: Math.round(input.executionDuration * 1e6),
        idempotency_key: input.idempotencyKey,
        created_at: t.toDate(input.createdAt),
      });
      const row = await db.selectFrom("forgekit_web_hook_logs").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
      return toLog(row);
    },
    listLogs(hookId, filter, page) {
      checkPage(page);
      let query = db.selectFrom("forgekit_web_hook_logs").where("hook_id", "=", hookId).where("created_at", ">=", t.toDate(filter.since));
      // The status is stored as text ("200", "internal error"): a range lists the codes it holds.
      if (filter.status !== undefined) {
        const codes: string[] = [];
        for (let code = filter.status.from; code <= filter.status.to; code++) codes.push(String(code));
        query = query.where("response_status", "in", codes);
      }
      return offsetPage(db, query, (q) => q.selectAll().orderBy("id", "desc"), page, toLog);
    },
    async addDeliveries(rows, now) {
      const out: HookDelivery[] = [];
      for (const row of rows) {
        const id = await t.insert(db, "forgekit_web_hook_deliveries", {
          hook_id: row.hookId,
          event_id: row.eventId,
          trigger_name: row.trigger,
          idempotency_key: row.idempotencyKey,
          event_uuid: row.eventUuid,
          state: "pending",
          payload: row.payload ?? null,
          created_at: t.toDate(now),
          finished_at: null,
        });
        out.push({ ...row, payload: row.payload ?? null, id, state: "pending", createdAt: new Date(now), finishedAt: null });
      }
      return out;
    },
    findDelivery,
    async firstPending(hookId) {
      const row = await db.selectFrom("forgekit_web_hook_deliveries").selectAll().where("hook_id", "=", hookId).where("state", "=", "pending").orderBy("id").limit(1).executeTakeFirst();
      return row === undefined ? null : toDelivery(row);
    },
    async takeSending(hookId, owner, until, now) {
      const result = await db
        .updateTable("forgekit_web_hooks")
        .set({ sender: owner, sending_until: t.toDate(until) })
        .where("id", "=", hookId)
        .where((w) => w.or([w("sender", "is", null), w("sender", "=", owner), w("sending_until", "<=", t.toDate(now))]))
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
    async releaseSending(hookId, owner) {
      await db.updateTable("forgekit_web_hooks").set({ sender: null, sending_until: null }).where("id", "=", hookId).where("sender", "=", owner).execute();
    },
    async finishDelivery(id, state, now) {
      const result = await db.updateTable("forgekit_web_hook_deliveries").set({ state, finished_at: t.toDate(now) }).where("id", "=", id).where("state", "=", "pending").executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
  };
}
