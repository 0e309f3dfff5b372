/**
 * Issue 21's goal table, printed by `pnpm bench` after every module ran: each row with the figure
 * this run measured, its goal and `met` / `MISSED` — or, when the module that measures it was not
 * run (or could not measure it here), what is missing.
 */
import { ANCHOR_KEYS } from "./anchor.js";

/** One row: which module's figure, under which key, and the goal (`min`: at least; `max`: at most). */
export interface GoalRow {
  row: string;
  module: string;
  key: string | null;
  goal: { min: number } | { max: number };
  unit: "×" | " ms";
  /** Why the row has no figure when `key` is null. */
  missing?: string;
}

const ID = "[no id_token]";

/** The rows of issue 21's table, in its order. */
export const GOAL_ROWS: readonly GoalRow[] = [
  { row: "authenticated GET /projects/:id, node handler / hand-written, SQLite", module: "anchor", key: ANCHOR_KEYS.projectSqlite, goal: { min: 0.8 }, unit: "×" },
  { row: "same, PostgreSQL", module: "anchor", key: ANCHOR_KEYS.projectPostgres, goal: { min: 0.8 }, unit: "×" },
  { row: "GET /projects/:id/events page of 20 at 1M events, node handler / hand-written, SQLite", module: "anchor", key: null, goal: { min: 0.6 }, unit: "×", missing: "no hand-written events handler yet" },
  { row: "same, PostgreSQL", module: "anchor", key: null, goal: { min: 0.6 }, unit: "×", missing: "no hand-written events handler yet" },
  { row: "adapter-express / express-static, authenticated project read, SQLite", module: "http-serving", key: "adapter-express / express-static (goal ≥ 0.8) [SQLite]", goal: { min: 0.6 }, unit: "×" },
  { row: "adapter-koa / koa-static, authenticated project read, SQLite", module: "http-serving", key: "adapter-koa / koa-static (goal ≥ 0.5) [SQLite]", goal: { min: 0.3 }, unit: "×" },
  { row: "feed p50 at 1M events (slowest of the 12 feed shapes), SQLite", module: "events", key: "SQLite slowest feed p50 at 1000000 (ms)", goal: { max: 0.25 }, unit: " ms" },
  { row: "feed p50 at 1M events (slowest of the 12 feed shapes), PostgreSQL", module: "events", key: "PostgreSQL slowest feed p50 at 1000000 (ms)", goal: { max: 1 }, unit: " ms" },
  { row: "refresh grant / oidc-provider, SQLite", module: "oauth-token", key: `refresh grant, forgekit on SQLite / oidc-provider in-memory ${ID} (goal ≥ 1.5)`, goal: { min: 1.5 }, unit: "×" },
  { row: "refresh grant / oidc-provider, PostgreSQL", module: "oauth-token", key: `refresh grant, forgekit on PostgreSQL / oidc-provider in-memory ${ID} (goal ≥ 1.5)`, goal: { min: 1 }, unit: "×" },
  { row: "refresh grant / oidc-provider, memory store", module: "oauth-token", key: `refresh grant, forgekit memory store / oidc-provider ${ID} (goal ≥ 3)`, goal: { min: 3 }, unit: "×" },
  { row: "route matching with 2,000 routes / with today's table", module: "anchor", key: ANCHOR_KEYS.routes, goal: { min: 0.95 }, unit: "×" },
  { row: "memory-store transaction cost with 100k stored tokens / with 100", module: "anchor", key: ANCHOR_KEYS.memoryTx, goal: { max: 1.1 }, unit: "×" },
];

/** The table's lines for the figures of this run (`figures[module][key]`). */
export function goalTable(figures: Record<string, Record<string, unknown>>, rows: readonly GoalRow[] = GOAL_ROWS): string[] {
  return rows.map(({ row, module, key, goal, unit, missing }) => {
    const bound = "min" in goal ? `≥ ${goal.min}${unit}` : `≤ ${goal.max}${unit}`;
    if (key === null) return `${row}: not measured — ${missing ?? "no figure"} (goal ${bound})`;
    const value = figures[module]?.[key];
    if (typeof value !== "number") {
      const why = figures[module] === undefined ? `\`pnpm bench ${module}\` was not run` : "not measured in this run (PostgreSQL not configured?)";
      return `${row}: ${why} (goal ${bound})`;
    }
    const met = "min" in goal ? value >= goal.min : value <= goal.max;
    return `${row}: ${value.toFixed(unit === "×" ? 2 : 3)}${unit} (goal ${bound}) ${met ? "met" : "MISSED"}`;
  });
}
