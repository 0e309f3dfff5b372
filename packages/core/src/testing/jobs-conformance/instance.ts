/** A forgekit instance over a store under test, with a clock the test moves and the log it wrote. */
import { createForgekit, type Forgekit } from "../../forgekit.js";
import type { LogLevel } from "../../ports/runtime.js";
import type { Store } from "../../ports/store.js";
import { fixedClock, type FixedClock } from "../fixtures.js";
import { T0 } from "./context.js";

export interface JobsInstance {
  fk: Forgekit;
  clock: FixedClock;
  logs: { level: LogLevel; event: string; fields?: Record<string, unknown> }[];
}

/** An instance on `store` whose clock stands at T0 until the test moves it. */
export function instance(store: Store, clock: FixedClock = fixedClock(T0)): JobsInstance {
  const logs: JobsInstance["logs"] = [];
  const fk = createForgekit({
    baseUrl: "https://forge.example.com",
    store,
    clock,
    logger: { log: (level, event, fields) => void logs.push(fields === undefined ? { level, event } : { level, event, fields }) },
  });
  return { fk, clock, logs };
}

/** Worker options for tests: quick polls, no recurring maintenance jobs. */
export const FAST = { pollIntervalMs: 5, recurring: false } as const;

/** The job's state now. */
export async function stateOf(t: JobsInstance, id: number): Promise<string> {
  return (await t.fk.jobs.find(id))._unsafeUnwrap().state;
}
