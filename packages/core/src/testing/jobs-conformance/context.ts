/** What every jobs conformance test runs against, and small helpers they share. */
import type { JobRepository, NewJobRecord } from "../../ports/jobs-store.js";
import type { Store } from "../../ports/store.js";

/** One database under test: a store, and a second store on the same database (another process). */
export interface JobsTarget {
  store: Store;
  /**
   * Another store over the same database, as a second process would open it (its own connections);
   * the memory store passes the same object.
   */
  rival: Store;
  /**
   * A jobs repository that is not the store's (a queue on another engine, passed to
   * `createForgekit({ jobs })`), and a second one over the same queue with its own connections.
   * Default: `store.jobs` and `rival.jobs`.
   */
  jobs?: { store: JobRepository; rival: JobRepository };
  /** Called after the test, after both stores are closed (closes the jobs repositories, deletes their data). */
  close?: () => Promise<void>;
}

/** Options of the jobs store conformance suite. */
export interface JobsConformanceOptions {
  /** Jobs in each racing test (default 40). */
  races?: number;
  /**
   * `false`: the target has no worker registry (`heartbeat`), so its dead workers' jobs wait for
   * their leases, and the registry cases are skipped. Default: the registry is required.
   */
  workerRegistry?: boolean;
}

export interface JobsSuiteContext {
  /** The suite's name, for the figures it prints. */
  readonly name: string;
  readonly target: JobsTarget;
  /** The jobs repository under test, and the rival one (another process on the same queue). */
  readonly jobs: JobRepository;
  readonly rivalJobs: JobRepository;
  readonly options: JobsConformanceOptions;
  /** True for a repository whose due times and leases elapse in real time (`clock: "real"`). */
  readonly real: boolean;
  /**
   * Lets `ms` pass in real time (plus a margin) for a `"real"` target, whose due times and leases
   * are durations from the call that set them; nothing for a `"caller"` clock, where the test
   * passes the later instant (`at(ms)`) instead.
   */
  pass(ms: number): Promise<void>;
}

/** Real-time margin past a due time or lease end before a `"real"` target is asked about it. */
export const REAL_SLACK_MS = 150;

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export const T0 = new Date("2030-01-01T00:00:00.000Z");
export const at = (ms: number): Date => new Date(T0.getTime() + ms);

/** A job record input with defaults. */
export function newJob(overrides: Partial<NewJobRecord> = {}): NewJobRecord {
  return { kind: "test.work", payload: "{}", maxAttempts: 3, runAfter: T0, ...overrides };
}

/** Resolves once `check` holds, polling every few ms; rejects after `timeoutMs` (generous: a loaded machine only makes it slower). */
export async function until(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** A promise with its resolver, for handlers the test lets go on. */
export function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve: () => void = () => {};
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}
