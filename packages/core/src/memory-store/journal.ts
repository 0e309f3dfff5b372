/**
 * The memory store's undo log. Its tables are {@link JournalMap}s and {@link JournalSet}s: while an
 * operation runs (see {@link runJournaled}), each write records its inverse (an insert → delete, a
 * replaced row → the old row, a delete → re-insert), so an operation that throws and a transaction
 * that rejects are undone at a cost proportional to what they changed, never to what is stored.
 *
 * Rows are replaced, never changed in place: a stored row (and a stored array) is frozen once the
 * operation that wrote it ends, so a write that forgot the rule throws instead of escaping the log.
 * To change a row, take a journaled copy with {@link JournalMap.edit} (or `set` a new object).
 */

/** One recorded write: the collection, the key, and what the key held before (if anything). */
interface Entry {
  target: JournalMap<unknown, unknown> | JournalSet<unknown>;
  key: unknown;
  had: boolean;
  old: unknown;
}

/**
 * The inverse writes of one operation or one transaction, in the order they happened, and the
 * values written since the last freeze.
 */
export class UndoLog {
  readonly #entries: Entry[] = [];
  #written: object[] = [];

  /** How many writes the log holds. */
  get size(): number {
    return this.#entries.length;
  }

  /** Records that `key` of `target` held `old` (`had`) or nothing before a write. */
  record(target: Entry["target"], key: unknown, had: boolean, old: unknown): void {
    this.#entries.push({ target, key, had, old });
  }

  /** Remembers a value just stored, frozen by {@link UndoLog.freezeWritten}. */
  written(value: unknown): void {
    if (typeof value === "object" && value !== null) this.#written.push(value);
  }

  /** Freezes the plain objects and arrays stored since the last call (the operation has ended). */
  freezeWritten(): void {
    for (const value of this.#written) freezeRow(value);
    this.#written = [];
  }

  /** Moves `other`'s entries after this log's (a finished operation joins its transaction). */
  append(other: UndoLog): void {
    for (const entry of other.#entries) this.#entries.push(entry);
  }

  /** Undoes every recorded write, newest first, and empties the log. */
  undo(): void {
    for (let i = this.#entries.length - 1; i >= 0; i--) {
      const { target, key, had, old } = this.#entries[i]!;
      if (target instanceof JournalMap) {
        if (had) Map.prototype.set.call(target, key, old);
        else Map.prototype.delete.call(target, key);
      } else if (had) Set.prototype.add.call(target, key);
      else Set.prototype.delete.call(target, key);
    }
    this.#entries.length = 0;
    this.#written = [];
  }
}

/** The log of the operation running now (operations are synchronous), or null outside one. */
let current: UndoLog | null = null;

/**
 * Runs one synchronous operation with its own undo log: when it throws, its writes are undone
 * before the error goes on; when it returns, the values it stored are frozen and its log is handed
 * to `into` (the transaction's log), or dropped outside a transaction.
 */
export function runJournaled<T>(op: () => T, into: UndoLog | null): T {
  const log = new UndoLog();
  const outer = current;
  current = log;
  let result: T;
  try {
    result = op();
  } catch (error) {
    log.undo();
    throw error;
  } finally {
    current = outer;
  }
  log.freezeWritten();
  if (into !== null) into.append(log);
  return result;
}

function isPlainRow(value: unknown): value is object {
  if (typeof value !== "object" || value === null) return false;
  if (Array.isArray(value)) return true;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** Freezes a stored row (a plain object or an array; Dates, Maps and Sets are left as they are). */
function freezeRow(value: object): void {
  if (isPlainRow(value)) Object.freeze(value);
}

/** A Map whose writes are journaled while an operation runs; rows stored in it are frozen. */
export class JournalMap<K, V> extends Map<K, V> {
  override set(key: K, value: V): this {
    const log = current;
    if (log === null) {
      if (typeof value === "object" && value !== null) freezeRow(value);
    } else {
      log.record(this, key, super.has(key), super.get(key));
      log.written(value);
    }
    return super.set(key, value);
  }

  override delete(key: K): boolean {
    if (!super.has(key)) return false;
    current?.record(this, key, true, super.get(key));
    return super.delete(key);
  }

  override clear(): void {
    const log = current;
    if (log !== null) for (const [key, value] of super.entries()) log.record(this, key, true, value);
    super.clear();
  }

  /**
   * Replaces the row under `key` by a shallow copy and returns the copy, to be changed in place
   * until the operation ends (then it is frozen too); undefined when the key holds nothing.
   */
  edit(key: K): V | undefined {
    const row = super.get(key);
    if (row === undefined) return undefined;
    const next = (Array.isArray(row) ? [...(row as unknown[])] : { ...(row as object) }) as V;
    if (current === null) super.set(key, next);
    else this.set(key, next);
    return next;
  }
}

/** A Set whose additions and deletions are journaled while an operation runs. */
export class JournalSet<T> extends Set<T> {
  override add(value: T): this {
    if (!super.has(value)) current?.record(this, value, false, undefined);
    return super.add(value);
  }

  override delete(value: T): boolean {
    if (!super.has(value)) return false;
    current?.record(this, value, true, undefined);
    return super.delete(value);
  }

  override clear(): void {
    const log = current;
    if (log !== null) for (const value of super.values()) log.record(this, value, true, undefined);
    super.clear();
  }
}

/** The plain-object skeleton of a state (sequence counters, table holders), to restore on rollback. */
export interface SkeletonSnapshot {
  objects: { target: Record<string, unknown>; entries: [string, unknown][] }[];
}

/**
 * Records every own property of the state's plain objects (sequences, lazily added tables),
 * descending through plain objects only: its size is that of the schema, not of the data.
 */
export function snapshotSkeleton(root: object): SkeletonSnapshot {
  const objects: SkeletonSnapshot["objects"] = [];
  const visit = (target: Record<string, unknown>): void => {
    const entries = Object.entries(target);
    objects.push({ target, entries });
    for (const [, value] of entries) if (isSkeleton(value)) visit(value);
  };
  visit(root as Record<string, unknown>);
  return { objects };
}

function isSkeleton(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value) && Object.getPrototypeOf(value) === Object.prototype && !Object.isFrozen(value);
}

/** Puts every recorded property back and removes properties added since the snapshot. */
export function restoreSkeleton(snapshot: SkeletonSnapshot): void {
  for (const { target, entries } of snapshot.objects) {
    const kept = new Set(entries.map(([key]) => key));
    for (const key of Object.keys(target)) if (!kept.has(key)) delete target[key];
    for (const [key, value] of entries) target[key] = value;
  }
}
