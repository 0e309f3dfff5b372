/** In-memory WebHookRepository: hooks by id and their delivery log. */
import type { HookDelivery, HookLog, WebHookRepository } from "../ports/webhooks-store.js";
import type { WebHook } from "../webhooks/types.js";
import { checkPage, offsetPage } from "./pagination.js";
import { copy, type MemoryState, type Runner } from "./state.js";

const dropHook = (state: MemoryState, id: number) => {
  state.webHooks.rows.delete(id);
  for (const [key, log] of state.webHooks.logs) if (log.hookId === id) state.webHooks.logs.delete(key);
  for (const [key, delivery] of state.webHooks.deliveries) if (delivery.hookId === id) state.webHooks.deliveries.delete(key);
  state.webHooks.senders.delete(id);
};

/** What removing a project or a group takes (the SQL store's cascades): their hooks and logs. */
export function dropWebHooks(state: MemoryState, gone: { projectId?: number; groupId?: number }): void {
  for (const hook of [...state.webHooks.rows.values()]) {
    if ((gone.projectId !== undefined && hook.projectId === gone.projectId) || (gone.groupId !== undefined && hook.groupId === gone.groupId)) dropHook(state, hook.id);
  }
}

/** The webhooks repository over the memory store's journaled tables. */
export function memoryWebHooks(run: Runner): WebHookRepository {
  return {
    create: (input, now) =>
      run((state) => {
        if (input.projectId !== null && !state.projects.has(input.projectId)) throw new Error(`project ${input.projectId} does not exist`);
        if (input.groupId !== null && !state.namespaces.has(input.groupId)) throw new Error(`group ${input.groupId} does not exist`);
        const hook: WebHook = { ...input, events: [...input.events], id: ++state.webHooks.seq, recentFailures: 0, backoffCount: 0, disabledUntil: null, createdAt: new Date(now) };
        state.webHooks.rows.set(hook.id, hook);
        return copy(hook);
      }),
    findById: (id) => run((state) => copy(state.webHooks.rows.get(id) ?? null)),
    list: (owner) =>
      run((state) =>
        [...state.webHooks.rows.values()]
          .filter((hook) => hook.scope === owner.scope && (owner.scope !== "project" || hook.projectId === owner.projectId) && (owner.scope !== "group" || hook.groupId === owner.groupId))
          .sort((a, b) => a.id - b.id)
          .map(copy),
      ),
    update: (id, patch) =>
      run((state) => {
        const hook = state.webHooks.rows.edit(id);
        if (hook === undefined) return null;
        for (const [key, value] of Object.entries(patch)) if (value !== undefined) (hook as unknown as Record<string, unknown>)[key] = copy(value);
        return copy(hook);
      }),
    remove: (id) =>
      run((state) => {
        if (!state.webHooks.rows.has(id)) return false;
        dropHook(state, id);
        return true;
      }),
    addLog: (input) =>
      run((state) => {
        if (!state.webHooks.rows.has(input.hookId)) throw new Error(`hook ${input.hookId} does not exist`);
        const log: HookLog = { ...copy(input), id: ++state.webHooks.logSeq, createdAt: new Date(input.createdAt) };
        state.webHooks.logs.set(log.id, log);
        return copy(log);
      }),
    listLogs: (hookId, filter, page) =>
      run((state) => {
        checkPage(page);
        const rows = [...state.webHooks.logs.values()]
          .filter((log) => log.hookId === hookId && log.createdAt.getTime() >= filter.since.getTime())
          .filter((log) => {
            if (filter.status === undefined) return true;
            const code = Number(log.responseStatus);
            return Number.isInteger(code) && code >= filter.status.from && code <= filter.status.to;
          })
          .sort((a, b) => b.id - a.id);
        return offsetPage(rows, page, copy);
      }),
    addDeliveries: (rows, now) =>
      run((state) => {
        for (const row of rows) if (!state.webHooks.rows.has(row.hookId)) throw new Error(`hook ${row.hookId} does not exist`);
        return rows.map((row) => {
          const delivery: HookDelivery = { ...row, payload: row.payload ?? null, id: ++state.webHooks.deliverySeq, state: "pending", createdAt: new Date(now), finishedAt: null };
          state.webHooks.deliveries.set(delivery.id, delivery);
          return copy(delivery);
        });
      }),
    findDelivery: (id) => run((state) => copy(state.webHooks.deliveries.get(id) ?? null)),
    firstPending: (hookId) =>
      run((state) => {
        let first: HookDelivery | null = null;
        for (const d of state.webHooks.deliveries.values()) if (d.hookId === hookId && d.state === "pending" && (first === null || d.id < first.id)) first = d;
        return copy(first);
      }),
    takeSending: (hookId, owner, until, now) =>
      run((state) => {
        if (!state.webHooks.rows.has(hookId)) return false;
        const held = state.webHooks.senders.get(hookId);
        if (held !== undefined && held.owner !== owner && held.until.getTime() > now.getTime()) return false;
        state.webHooks.senders.set(hookId, { owner, until: new Date(until) });
        return true;
      }),
    releaseSending: (hookId, owner) =>
      run((state) => {
        if (state.webHooks.senders.get(hookId)?.owner === owner) state.webHooks.senders.delete(hookId);
      }),
    finishDelivery: (id, outcome, now) =>
      run((state) => {
        const delivery = state.webHooks.deliveries.get(id);
        if (delivery === undefined || delivery.state !== "pending") return false;
        state.webHooks.deliveries.set(id, { ...delivery, state: outcome, finishedAt: new Date(now) });
        return true;
      }),
  };
}
