/**
 * Storage ports of project imports (issue 10; DESIGN §5, §6): the import state of a project, the
 * map from external ids to the records an import wrote (what makes every import step idempotent:
 * a step re-run after a killed worker finds its records mapped and writes nothing twice), and
 * project labels with their links to issues and merge requests. The general contract of
 * ports/store.ts applies: "not found" is `null`, infrastructure failures reject, and the objects
 * `transaction` hands out run inside it.
 */

/** Life of an import: `scheduled` → `started` → `finished` | `failed` | `canceled` (spec "States and transitions"). */
export const IMPORT_STATUSES = ["scheduled", "started", "finished", "failed", "canceled"] as const;
/** The status of a project import: scheduled, started, finished, failed or canceled. */
export type ImportStatus = (typeof IMPORT_STATUSES)[number];

/** Where a project was imported from: the external forge or the external repository server. */
export type ImportSourceKind = "extforge" | "extserver";

/** The import state of one project (at most one per project). */
export interface ProjectImport {
  projectId: number;
  source: ImportSourceKind;
  /** What was imported: `owner/name` on the forge, `KEY/slug` on the repository server. */
  importSource: string;
  /** The API root or server URL the import reads, never with credentials. */
  url: string;
  status: ImportStatus;
  /** Why the import failed (shown as `import_error`); null otherwise. */
  error: string | null;
  /** The job running the import (a rate-limit wait re-schedules it as a new job). */
  jobId: number | null;
  /** The user who started the import. */
  userId: number;
  /** The import's options as JSON text (optional stages, the repository id …); never a token. */
  options: string;
  /**
   * The credentials the import job reads (token, user name) as stored text: sealed by the caller when
   * a key-encryption key is configured. Set while the import runs, null once it has ended.
   */
  credentials: string | null;
  /** Counts fetched / imported per kind as JSON text (`{"issue":{"fetched":3,"imported":3}}`). */
  stats: string;
  /** Where a resumed job continues, as JSON text; null before the first step. */
  checkpoint: string | null;
  createdAt: Date;
  updatedAt: Date;
}

/** What recording a project import takes: the project, where it imports from and how. */
export interface NewProjectImport {
  projectId: number;
  source: ImportSourceKind;
  importSource: string;
  url: string;
  userId: number;
  options: string;
  credentials: string | null;
  jobId?: number | null;
}

/** A change to a project import (status, error, job, statistics, checkpoint, credentials). */
export type ProjectImportPatch = Partial<Pick<ProjectImport, "status" | "error" | "jobId" | "stats" | "checkpoint" | "credentials">>;

/** The store's project imports: create, find by project, and update as the import runs. */
export interface ProjectImportRepository {
  /** Inserts a `scheduled` import with empty stats; `null` when the project already has one (nothing written). */
  create(input: NewProjectImport, now: Date): Promise<ProjectImport | null>;
  find(projectId: number): Promise<ProjectImport | null>;
  /**
   * Applies `patch` only while the import's status is one of `from` (a compare-and-set: of two racing
   * updates from one status, one wins and the other gets `null`). The updated import, or `null` when
   * there is none or its status is not in `from`.
   */
  update(projectId: number, from: readonly ImportStatus[], patch: ProjectImportPatch, now: Date): Promise<ProjectImport | null>;
}

/** What an external id maps to (ids are per kind: an issue and a pull request may share a number). */
export type ExternalKind = "label" | "milestone" | "issue" | "merge_request" | "note" | "event" | "attachment" | "snippet";

/**
 * The mapping of an external forge's ids to imported records, so a resumed import does not create a record
 * twice.
 */
export interface ExternalIdRepository {
  /** The record ids of those of `externalIds` already mapped in the project (unmapped ones are absent). */
  find(projectId: number, kind: ExternalKind, externalIds: readonly string[]): Promise<Map<string, number>>;
  /** Maps an external id to a record; `false` when it was mapped already (nothing written). */
  add(projectId: number, kind: ExternalKind, externalId: string, recordId: number): Promise<boolean>;
}

/** A project label, or a group label (labels API, ports/labels-store.ts): exactly one of `projectId` and `groupId` is set. */
export interface Label {
  id: number;
  projectId: number | null;
  groupId: number | null;
  /** Unique per project or group (compared exactly). */
  name: string;
  /** `#rrggbb`. */
  color: string;
  description: string;
  createdAt: Date;
  updatedAt: Date;
}

/** What creating a project label takes. */
export interface NewLabel {
  projectId: number;
  name: string;
  color: string;
  description: string;
}

/** What a label can be put on. */
export type LabelTargetType = "Issue" | "MergeRequest";

/**
 * The store's project labels: create, find by name, list per project, and link them to issues and merge
 * requests.
 */
export interface LabelRepository {
  /** `null` when the project already has a label of that name (nothing written). The project must exist. */
  create(input: NewLabel, now: Date): Promise<Label | null>;
  findByName(projectId: number, name: string): Promise<Label | null>;
  /** The project's labels, by name (code-point order). */
  listByProject(projectId: number): Promise<Label[]>;
  /** Puts the label on the issue or merge request; `false` when it was on it already. */
  link(labelId: number, targetType: LabelTargetType, targetId: number): Promise<boolean>;
  /** The labels on an issue or merge request, by name. */
  labelsOf(targetType: LabelTargetType, targetId: number): Promise<Label[]>;
}

/** The import repositories (`Store.imports`). */
export interface ImportsStore {
  projects: ProjectImportRepository;
  externalIds: ExternalIdRepository;
  labels: LabelRepository;
}
