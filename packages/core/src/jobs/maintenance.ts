/**
 * The built-in recurring maintenance jobs: event retention (`events.prune`, daily; spec "Limits":
 * events older than 3 years go) and OAuth cleanup (`oauth.purge_expired`, hourly: codes and tokens
 * dead past the retention window). Both are idempotent: a repeat deletes what is left, if anything.
 */
import type { RecurringJob } from "./recurring.js";
import type { JobRegistry } from "./registry.js";

const HOUR = 60 * 60 * 1000;

/** What each maintenance job calls. */
export interface MaintenanceTasks {
  pruneEvents(): Promise<unknown>;
  purgeExpiredOAuth(): Promise<unknown>;
}

/** Kind names of the built-in maintenance jobs. */
export const MAINTENANCE_KINDS = { eventsPrune: "events.prune", oauthPurge: "oauth.purge_expired" } as const;

/** Defines the maintenance kinds on `registry`; returns their default schedules. */
export function defineMaintenance(registry: JobRegistry, tasks: MaintenanceTasks): RecurringJob[] {
  const define = (kind: string, run: () => Promise<unknown>) => {
    const defined = registry.define(kind, (ctx) => ctx.step(kind, run).then(() => undefined), { maxAttempts: 3, backoff: { baseMs: 60_000, maxMs: HOUR } });
    // Fixed, valid names on a fresh registry: a failure here is a bug in this file.
    if (defined.isErr()) throw new Error(`cannot define ${kind}: ${JSON.stringify(defined.error)}`);
  };
  define(MAINTENANCE_KINDS.eventsPrune, () => tasks.pruneEvents());
  define(MAINTENANCE_KINDS.oauthPurge, () => tasks.purgeExpiredOAuth());
  return [
    { kind: MAINTENANCE_KINDS.eventsPrune, everyMs: 24 * HOUR },
    { kind: MAINTENANCE_KINDS.oauthPurge, everyMs: HOUR },
  ];
}
