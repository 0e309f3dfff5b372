/**
 * What every import stage runs on: the import's counts and resume point, and `writePage`, which
 * writes one page of external items in one transaction — skipping those already mapped by external
 * id, mapping each new record, and storing the counts and the next resume point with them — only
 * while the import is still `started`. So a page is written whole or not at all, a re-run page
 * writes nothing twice, a worker killed between pages resumes at the next one, and once the import
 * is cancelled no further record appears.
 */
import type { ForgekitConfig } from "../config.js";
import type { JobContext } from "../jobs/types.js";
import type { ExternalKind, ProjectImport } from "../ports/imports-store.js";
import type { TransactionStore } from "../ports/store.js";
import type { Project } from "../accounts/types.js";
import { AuthorMap } from "./authors.js";

/** Counts per kind (`GET /projects/:id/import` shows them as `stats.fetched` / `stats.imported`). */
export type ImportStats = Record<string, { fetched: number; imported: number }>;

/** Where a resumed job continues: the stage, and its page (forge), start (server) or list page. */
export interface Checkpoint {
  stage: string;
  page?: number;
  start?: number;
}

/** Thrown when the import is no longer `started` (cancelled, or ended elsewhere): the run stops quietly. */
export class ImportStopped extends Error {
  constructor(readonly status: string) {
    super(`the import is ${status}`);
    this.name = "ImportStopped";
  }
}

export function parseStats(text: string): ImportStats {
  try {
    const value = JSON.parse(text) as unknown;
    return typeof value === "object" && value !== null ? (value as ImportStats) : {};
  } catch {
    return {};
  }
}

export function parseCheckpoint(text: string | null): Checkpoint | null {
  if (text === null) return null;
  try {
    const value = JSON.parse(text) as Checkpoint;
    return typeof value.stage === "string" ? value : null;
  } catch {
    return null;
  }
}

/** One running import. */
export class ImportRun {
  stats: ImportStats;
  checkpoint: Checkpoint | null;
  readonly authors: AuthorMap;

  constructor(
    readonly config: ForgekitConfig,
    readonly job: JobContext,
    readonly project: Project,
    readonly record: ProjectImport,
  ) {
    this.stats = parseStats(record.stats);
    this.checkpoint = parseCheckpoint(record.checkpoint);
    this.authors = new AuthorMap(record.userId);
  }

  get projectId(): number {
    return this.project.id;
  }

  /** Whether stage `name` is done already (the checkpoint is at a later stage of `order`). */
  passed(order: readonly string[], name: string): boolean {
    if (this.checkpoint === null) return false;
    return order.indexOf(this.checkpoint.stage) > order.indexOf(name);
  }

  /** Where stage `name` resumes: its checkpoint, when the checkpoint is in it. */
  resumeOf(name: string): Checkpoint | null {
    return this.checkpoint?.stage === name ? this.checkpoint : null;
  }

  /** Stores the next resume point (and the counts) while the import is started. */
  async advance(next: Checkpoint): Promise<void> {
    await this.job.step(`checkpoint ${next.stage}`, () =>
      this.config.store.transaction(async (tx) => {
        await this.#requireStarted(tx);
        await this.#save(tx, this.stats, next);
      }),
    );
    this.checkpoint = next;
  }

  /**
   * Writes one page: `write` returns the new record's id, or null when the item is not imported (it
   * still counts as fetched). `kind` names the counter and the external-id map.
   */
  async writePage<T>(
    label: string,
    kind: ExternalKind,
    items: readonly T[],
    externalId: (item: T) => string,
    write: (tx: TransactionStore, item: T) => Promise<number | null>,
    next: Checkpoint,
  ): Promise<void> {
    const stats = await this.job.step(label, () =>
      this.config.store.transaction(async (tx) => {
        await this.#requireStarted(tx);
        const stats = structuredClone(this.stats);
        const counter = (stats[kind] ??= { fetched: 0, imported: 0 });
        const mapped = await tx.imports.externalIds.find(this.projectId, kind, items.map(externalId));
        for (const item of items) {
          counter.fetched += 1;
          const id = externalId(item);
          if (mapped.has(id)) {
            counter.imported += 1;
            continue;
          }
          const recordId = await write(tx, item);
          if (recordId === null) continue;
          await tx.imports.externalIds.add(this.projectId, kind, id, recordId);
          mapped.set(id, recordId);
          counter.imported += 1;
        }
        await this.#save(tx, stats, next);
        return stats;
      }),
    );
    this.stats = stats;
    this.checkpoint = next;
    await this.job.progress(this.done());
  }

  /** Adds to a counter outside of pages (the repository stage's branches and tags). */
  count(kind: string, fetched: number, imported: number): void {
    const counter = (this.stats[kind] ??= { fetched: 0, imported: 0 });
    counter.fetched = fetched;
    counter.imported = imported;
  }

  /** Items imported so far, every kind together (the job's progress). */
  done(): number {
    return Object.values(this.stats).reduce((sum, c) => sum + c.imported, 0);
  }

  async #requireStarted(tx: TransactionStore): Promise<void> {
    const current = await tx.imports.projects.find(this.projectId);
    if (current === null) throw new ImportStopped("gone");
    if (current.status !== "started" || current.jobId !== this.job.job.id) throw new ImportStopped(current.status);
  }

  async #save(tx: TransactionStore, stats: ImportStats, next: Checkpoint): Promise<void> {
    const saved = await tx.imports.projects.update(this.projectId, ["started"], { stats: JSON.stringify(stats), checkpoint: JSON.stringify(next) }, this.config.clock.now());
    if (saved === null) throw new ImportStopped("no longer started");
  }
}
