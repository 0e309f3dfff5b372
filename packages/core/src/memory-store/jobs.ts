/** In-memory JobRepository: the rules of ports/jobs-store.ts over a Map (the store's lock serialises claims). */
import type { JobRecord, JobRepository, LeaseStatus, NewJobRecord } from "../ports/jobs-store.js";
import { offsetPage } from "./pagination.js";
import { copy, type MemoryState, type Runner } from "./state.js";

/** Whether `row` is running under a lease another worker may take over at `now`: expired, or its worker's heartbeat stopped. */
function orphaned(state: MemoryState, row: JobRecord, now: number, claimer: string): boolean {
  if (row.state !== "running" || row.leaseOwner === claimer) return false;
  if (row.leaseExpiresAt !== null && row.leaseExpiresAt.getTime() <= now) return true;
  const aliveUntil = row.leaseOwner === null ? undefined : state.jobs.workers.get(row.leaseOwner);
  return aliveUntil !== undefined && aliveUntil.getTime() <= now;
}

const LOST: LeaseStatus = { held: false, cancelRequested: false };

function held(state: MemoryState, id: number, owner: string): JobRecord | undefined {
  const row = state.jobs.rows.get(id);
  return row?.state === "running" && row.leaseOwner === owner ? state.jobs.rows.edit(id) : undefined;
}

/** Ends a job: state, finish time, lease and unique key released. */
function finish(row: JobRecord, to: "succeeded" | "failed" | "cancelled", now: Date): void {
  row.state = to;
  row.finishedAt = new Date(now);
  row.updatedAt = new Date(now);
  row.leaseOwner = null;
  row.leaseExpiresAt = null;
  row.uniqueKey = null;
}

function insert(state: MemoryState, input: NewJobRecord, now: Date): JobRecord | null {
  const key = input.uniqueKey ?? null;
  if (key !== null && [...state.jobs.rows.values()].some((row) => row.uniqueKey === key)) return null;
  const row: JobRecord = {
    id: ++state.jobs.seq,
    kind: input.kind,
    payload: input.payload,
    state: "queued",
    attempts: 0,
    maxAttempts: input.maxAttempts,
    runAfter: new Date(input.runAfter),
    leaseOwner: null,
    leaseExpiresAt: null,
    lastError: null,
    progressDone: null,
    progressTotal: null,
    cancelRequested: false,
    uniqueKey: key,
    createdAt: new Date(now),
    updatedAt: new Date(now),
    finishedAt: null,
  };
  state.jobs.rows.set(row.id, row);
  return copy(row);
}

export function memoryJobs(run: Runner): JobRepository {
  return {
    clock: "caller",
    enqueue: (input, now) => run((state) => insert(state, input, now)),
    claim: (claim) =>
      run((state) => {
        const now = claim.now.getTime();
        const expired = (row: JobRecord) => orphaned(state, row, now, claim.owner);
        for (const stored of [...state.jobs.rows.values()]) {
          if (expired(stored) && stored.attempts >= stored.maxAttempts) {
            const row = state.jobs.rows.edit(stored.id)!;
            row.lastError = "the worker running the last attempt stopped without finishing it (lease expired)";
            finish(row, "failed", claim.now);
          }
        }
        if (claim.limit < 1 || claim.kinds.length === 0) return [];
        const due = [...state.jobs.rows.values()]
          .filter((row) => claim.kinds.includes(row.kind) && ((row.state === "queued" && row.runAfter.getTime() <= now) || expired(row)))
          .sort((a, b) => a.runAfter.getTime() - b.runAfter.getTime() || a.id - b.id)
          .slice(0, claim.limit);
        return due.map((found) => {
          const row = state.jobs.rows.edit(found.id)!;
          row.state = "running";
          row.attempts += 1;
          row.leaseOwner = claim.owner;
          row.leaseExpiresAt = new Date(claim.leaseUntil);
          row.updatedAt = new Date(claim.now);
          return copy(row);
        });
      }),
    heartbeat: (owner, aliveUntil, now) =>
      run((state) => {
        const workers = state.jobs.workers;
        workers.set(owner, new Date(aliveUntil));
        const holding = new Set([...state.jobs.rows.values()].filter((row) => row.state === "running").map((row) => row.leaseOwner));
        for (const [other, until] of workers) if (until.getTime() <= now.getTime() && !holding.has(other)) workers.delete(other);
      }),
    retire: (owner) => run((state) => void state.jobs.workers.delete(owner)),
    extendLease: (id, owner, leaseUntil, now) =>
      run((state) => {
        const row = held(state, id, owner);
        if (row === undefined) return LOST;
        row.leaseExpiresAt = new Date(leaseUntil);
        row.updatedAt = new Date(now);
        return { held: true, cancelRequested: row.cancelRequested };
      }),
    progress: (id, owner, done, total, now) =>
      run((state) => {
        const row = held(state, id, owner);
        if (row === undefined) return LOST;
        row.progressDone = done;
        row.progressTotal = total;
        row.updatedAt = new Date(now);
        return { held: true, cancelRequested: row.cancelRequested };
      }),
    complete: (id, owner, now, next) =>
      run((state) => {
        const row = held(state, id, owner);
        if (row === undefined) return false;
        finish(row, "succeeded", now);
        if (next !== undefined) insert(state, next, now);
        return true;
      }),
    fail: (id, owner, error, retryAt, now, next) =>
      run((state) => {
        const row = held(state, id, owner);
        if (row === undefined) return false;
        row.lastError = error;
        if (retryAt === null) {
          finish(row, "failed", now);
          if (next !== undefined) insert(state, next, now);
        } else {
          row.state = "queued";
          row.runAfter = new Date(retryAt);
          row.leaseOwner = null;
          row.leaseExpiresAt = null;
          row.updatedAt = new Date(now);
        }
        return true;
      }),
    release: (id, owner, now) =>
      run((state) => {
        const row = held(state, id, owner);
        if (row === undefined) return false;
        row.state = "queued";
        row.attempts = Math.max(0, row.attempts - 1);
        row.runAfter = new Date(now);
        row.leaseOwner = null;
        row.leaseExpiresAt = null;
        row.updatedAt = new Date(now);
        return true;
      }),
    acknowledgeCancel: (id, owner, now) =>
      run((state) => {
        const row = held(state, id, owner);
        if (row === undefined) return false;
        finish(row, "cancelled", now);
        return true;
      }),
    cancel: (id, now) =>
      run((state) => {
        const row = state.jobs.rows.edit(id);
        if (row === undefined) return null;
        if (row.state === "queued") finish(row, "cancelled", now);
        else if (row.state === "running" && !row.cancelRequested) {
          row.cancelRequested = true;
          row.updatedAt = new Date(now);
        }
        return copy(row);
      }),
    findById: (id) =>
      run((state) => {
        const row = state.jobs.rows.get(id);
        return row === undefined ? null : copy(row);
      }),
    list: (filter, page) =>
      run((state) => {
        const rows = [...state.jobs.rows.values()]
          .filter((row) => (filter.kind === undefined || row.kind === filter.kind) && (filter.states === undefined || filter.states.includes(row.state)))
          .sort((a, b) => b.id - a.id);
        return offsetPage(rows, page, copy);
      }),
  };
}
