/**
 * Storage ports (DESIGN §5): one narrow repository per aggregate, with domain-shaped methods.
 * Contract for every method: "not found" is `null`; infrastructure failures reject the promise;
 * a unique-key conflict on create is reported as `null` from `create` (the row is not written).
 * All methods run inside the current transaction when called on the object `transaction` hands out.
 */
import type {
  AccessLevel,
  BotKind,
  Email,
  Namespace,
  Project,
  User,
  UserState,
  Visibility,
} from "../accounts/types.js";
import type { ProjectFeatures } from "../accounts/project-features.js";
import type { ProjectMergeChecks } from "../accounts/merge-checks.js";
import type { AccessTokenRepository } from "./access-tokens-store.js";
import type { MemberRepository } from "./members-store.js";
import type { NamespaceListing } from "./namespace-list.js";
import type { MigrateOptions, MigrationReport } from "./migrations.js";
import type { OAuthRepositories } from "./oauth-store.js";
import type { Logger } from "./runtime.js";
import type { ActivityStore } from "./activity-store.js";
import type { IterationRepository } from "./iterations-store.js";
import type { NotificationSettingRepository } from "./notification-settings-store.js";
import type { KeysetPageRequest, KeysetPageResult, OffsetPageRequest, OffsetPageResult, PageRequest } from "./pagination.js";
import type { Viewer } from "../domain/viewer.js";

export type { Viewer } from "../domain/viewer.js";

/** What creating a user takes; the store assigns the id and the namespace. */
export interface NewUser {
  username: string;
  name: string;
  state?: UserState;
  admin?: boolean;
  bot?: BotKind | null;
  twoFactorEnabled?: boolean;
  privateProfile?: boolean;
  avatarUrl?: string | null;
  passwordHash?: string | null;
  /** The host's id (unique); `create` answers null when another user has it. */
  externalId?: string | null;
}
/** A change to a user: the fields given are written, the others kept (the activity day has its own method). */
export type UserPatch = Partial<Omit<User, "id" | "createdAt" | "lastActivityOn">>;

/** Filters and order of the user list (search, username, state, bots). */
export interface UserListFilter {
  /** Case-insensitive substring of username, name or primary email. */
  search?: string;
  /** Exactly this username, compared case-insensitively. */
  username?: string;
  state?: UserState;
  /** Include bot users (default false). */
  includeBots?: boolean;
  /**
   * Only users whose activity day (`lastActivityOn`, `YYYY-MM-DD`) is this day or later; users
   * never active are left out.
   */
  activeSince?: string;
  /**
   * Sort key (default `id`); ties on other keys are broken by id in the same direction.
   * By `last_activity_on`, users never active count as earlier than any day (first ascending).
   */
  orderBy?: "id" | "name" | "username" | "created_at" | "updated_at" | "last_activity_on";
  /** Default `asc`. */
  sort?: "asc" | "desc";
}

/** What a user still holds, which keeps them from being deleted without losing records (users.holdings). */
export interface UserHoldings {
  /** Projects in the user's personal namespace. */
  projects: number;
  /**
   * Groups where the user is the only direct Owner. With `now` (see {@link UserRepository.holdings}),
   * only Owner memberships unexpired at `now` count, the user's and the others'.
   */
  soleOwnedGroups: number;
  /** Issues, merge requests, notes, snippets and events the user authored. */
  authoredRecords: number;
}

/** The store's users: create, find by id, ids, username or external id, update, rename, list and remove. */
export interface UserRepository {
  /** Inserts a user; `null` when the username is taken (case-insensitively). */
  create(input: NewUser, now: Date): Promise<User | null>;
  findById(id: number): Promise<User | null>;
  /** Case-insensitive lookup. */
  findByUsername(username: string): Promise<User | null>;
  /** The user the host knows by `externalId` (exact match). */
  findByExternalId(externalId: string): Promise<User | null>;
  findByIds(ids: readonly number[]): Promise<User[]>;
  /** Applies the patch and returns the updated row; `null` if missing or if a new username is taken. */
  update(id: number, patch: UserPatch): Promise<User | null>;
  /** Ordered by `filter.orderBy` (default id) in `filter.sort` order (default ascending). */
  list(filter: UserListFilter, page: OffsetPageRequest): Promise<OffsetPageResult<User>>;
  /**
   * Sets the user's activity day (`lastActivityOn`) to `day` (`YYYY-MM-DD`) when it is null or an
   * earlier day, in one conditional write; `true` when it wrote. A later or equal stored day is
   * kept (the day never moves back, so racing writers of the same or different days end on the
   * latest), an unknown id writes nothing (`false`). Nothing else of the user changes, not even
   * `updatedAt`: using the API is not an edit of the account.
   */
  recordActivity(id: number, day: string): Promise<boolean>;
  /**
   * Changes the username and, with it, the path (and full path) of the user's personal namespace,
   * in one step. `taken` when another user has the username or any namespace has the new full path
   * (case-insensitively; nothing is changed); `missing` for an unknown id. Callers make sure the
   * namespace holds no project first: project full paths are not rewritten.
   */
  rename(id: number, username: string, now: Date): Promise<"renamed" | "taken" | "missing">;
  /**
   * Counts of what the user holds (all zero for an unknown id). With `now`, an Owner membership
   * expired at `now` owns nothing (issue #23: expired memberships never count); without it every row.
   */
  holdings(id: number, now?: Date): Promise<UserHoldings>;
  /**
   * Deletes the user with their personal namespace (which must hold no project), e-mails,
   * memberships, access tokens, notification settings, and OAuth grants, tokens and applications
   * they own. `false` when the user did not exist. Callers check {@link holdings} first: authored
   * records would go with the user.
   */
  remove(id: number): Promise<boolean>;
}

/** What adding an e-mail address to a user takes. */
export interface NewEmail {
  userId: number;
  email: string;
  primary: boolean;
  confirmedAt: Date | null;
}

/** The store's e-mail addresses of users: add, find, list per user, the primary ones, confirm and remove. */
export interface EmailRepository {
  /** `null` when the address (case-insensitive) already belongs to any user. Adding a primary demotes the old one. */
  add(input: NewEmail, now: Date): Promise<Email | null>;
  listByUser(userId: number): Promise<Email[]>;
  findByEmail(email: string): Promise<Email | null>;
  primaryFor(userId: number): Promise<Email | null>;
  /** The primary addresses of these users (one per user that has one, any order): one query for a page of users. */
  primaryForUsers(userIds: readonly number[]): Promise<Email[]>;
  /** Deletes the address; `false` when it did not exist. */
  remove(id: number): Promise<boolean>;
  /** Sets `confirmedAt` (when still unconfirmed) and returns the row; `null` when the id is unknown. */
  confirm(id: number, at: Date): Promise<Email | null>;
}

/** The repository of a container a removal deleted; `storage` is null when its row never recorded one (before 0009). */
export interface RemovedRepository {
  kind: import("./repository-storage.js").RepositoryKind;
  id: number;
  storage: string | null;
}

/** What creating a namespace (a group, or a user's personal namespace) takes. */
export interface NewNamespace {
  kind: "user" | "group";
  path: string;
  name: string;
  parentId: number | null;
  ownerId: number | null;
  visibility: Visibility;
  description?: string;
}

/** What {@link NamespaceRepository.updateGroup} changes. */
export type GroupPatch = Partial<Pick<Namespace, "name" | "description" | "visibility" | "updatedAt">>;

/**
 * Filters and order of the group list (search, the viewer's access, owned, top level, parent or ancestor).
 */
export interface GroupListFilter {
  viewer: Viewer;
  /** Memberships expired at this instant are ignored (visibility and access filters); without it every membership counts. */
  now?: Date;
  /** Case-insensitive substring of name or path. */
  search?: string;
  /** Only groups where the viewer is a direct or inherited member at this level or above. */
  minAccessLevel?: AccessLevel;
  /** Only groups the viewer owns (Owner, direct or inherited). */
  owned?: boolean;
  /** Only groups without a parent. */
  topLevelOnly?: boolean;
  /** Only groups whose parent is this id. */
  parentId?: number;
  /** Only descendants (at any depth, the group itself excluded) of this group. */
  ancestorId?: number;
  /** Offset: `name` | `path` | `id` (default `name`); keyset: `name` only. Names and paths order case-insensitively; ties by id. */
  orderBy?: "name" | "path" | "id";
  /** Default `asc`. */
  sort?: "asc" | "desc";
}

/**
 * The store's namespaces (users' and groups): create, find by id or full path, walk ancestors, update,
 * remove and list groups.
 */
export interface NamespaceRepository extends NamespaceListing {
  /** Creates a namespace (and its ancestor links); `null` when the full path is taken (case-insensitively). */
  create(input: NewNamespace, now: Date): Promise<Namespace | null>;
  findById(id: number): Promise<Namespace | null>;
  /** Case-insensitive. */
  findByFullPath(fullPath: string): Promise<Namespace | null>;
  /** The namespace's ancestors, nearest parent first (the namespace itself excluded). */
  ancestors(id: number): Promise<Namespace[]>;
  /**
   * The namespace itself, then its ancestors nearest parent first, in one lookup (what a project
   * or group entity renders); empty when the id names no namespace.
   */
  chain(id: number): Promise<Namespace[]>;
  /**
   * Changes a group's name, description or visibility (its path and full path never change here);
   * resolves the updated row, `null` when the id names no group.
   */
  updateGroup(id: number, patch: GroupPatch): Promise<Namespace | null>;
  /**
   * Removes a group with everything in it, in one step (inside the current transaction): its
   * subgroups at any depth, their projects with all they hold (as {@link ProjectRepository.remove}),
   * and for each group its memberships, notification settings, iterations, storage-move records and
   * the bot users of its group access tokens. Resolves the repositories of every removed container
   * (group wikis, projects, project snippets) for the caller to delete once this committed; `null`
   * when the id names no group.
   */
  removeGroup(id: number): Promise<RemovedRepository[] | null>;
  /** Groups visible to the viewer (public; internal when signed in; any where a member of it, an ancestor or a descendant; all for admins). */
  listGroups(filter: GroupListFilter, page: PageRequest): Promise<OffsetPageResult<Namespace> | KeysetPageResult<Namespace>>;
}

/** What creating a project takes: its namespace, name, path, visibility and repository settings. */
export interface NewProject {
  namespaceId: number;
  path: string;
  name: string;
  description?: string;
  visibility: Visibility;
  creatorId: number | null;
  repositoryStorage?: string;
  defaultBranch?: string | null;
  /** Default `true` (a new repository has no branch). */
  repositoryEmpty?: boolean;
  /** Default `false` (no README: a new repository has no branch). */
  readmePath?: string | false | null;
  /** Default {@link DEFAULT_PROJECT_FEATURES} (all enabled). */
  features?: ProjectFeatures;
  /** Default {@link DEFAULT_MERGE_CHECKS} (none). */
  mergeChecks?: ProjectMergeChecks;
}
/** A change to a project: the fields given are written, the others kept. */
export type ProjectPatch = Partial<Pick<Project, "name" | "description" | "visibility" | "repositoryStorage" | "repositoryReadOnly" | "defaultBranch" | "lastActivityAt" | "updatedAt">> & {
  repositoryEmpty?: boolean;
  /** `null` forgets it (to be learnt again from the repository). */
  readmePath?: string | false | null;
  /** The features given are set, the others kept. */
  features?: Partial<ProjectFeatures>;
  /** The merge checks given are set, the others kept. */
  mergeChecks?: Partial<ProjectMergeChecks>;
};

/**
 * Filters and order of the project list (search, membership, visibility, access level, storage,
 * namespace).
 */
export interface ProjectListFilter {
  viewer: Viewer;
  /** Memberships expired at this instant are ignored (visibility and access filters); without it every membership counts. */
  now?: Date;
  /** Case-insensitive substring of name or path (and namespace path with `searchNamespaces`). */
  search?: string;
  /** Only projects the viewer is a member of (directly or through the group hierarchy). */
  membership?: boolean;
  /** Only projects in the viewer's personal namespace. */
  owned?: boolean;
  visibility?: Visibility;
  minAccessLevel?: AccessLevel;
  repositoryStorage?: string;
  namespaceId?: number;
  /** With `namespaceId`: also projects in the descendant groups of that namespace. */
  includeSubgroups?: boolean;
  /** Offset: any (default `created_at`); keyset: `id` only (default `id`). Names and paths order case-insensitively; ties by id. */
  orderBy?: "id" | "name" | "path" | "created_at" | "updated_at" | "last_activity_at";
  /** Default `desc`. */
  sort?: "asc" | "desc";
}

/** The store's projects: create, find by id or full path, update, remove and list. */
export interface ProjectRepository {
  /** `null` when `namespace/path` is taken (case-insensitively). */
  create(input: NewProject, now: Date): Promise<Project | null>;
  findById(id: number): Promise<Project | null>;
  /** Case-insensitive on the full path. */
  findByFullPath(fullPath: string): Promise<Project | null>;
  update(id: number, patch: ProjectPatch): Promise<Project | null>;
  /**
   * Removes the project and every row that refers to it, in one step (inside the current
   * transaction): issues, merge requests, milestones, notes, events, snippets, labels, imports,
   * error-tracking records, memberships, notification settings, storage-move records, and the bot
   * users (with their tokens) of its project access tokens. Resolves the repositories of the removed
   * containers (the project's, its snippets') for the caller to delete once this committed; `null`
   * when there is no such project.
   */
  remove(id: number): Promise<RemovedRepository[] | null>;
  list(filter: ProjectListFilter, page: PageRequest): Promise<OffsetPageResult<Project> | KeysetPageResult<Project>>;
}

/** Instance-wide settings (e.g. `impersonation_enabled`), string values; absent = default. */
export interface SettingsRepository {
  get(key: string): Promise<string | null>;
  /** `null` removes the setting. */
  set(key: string, value: string | null): Promise<void>;
}

/** Every repository; `transaction` hands `fn` the same repositories bound to one transaction. */
export interface Store {
  users: UserRepository;
  emails: EmailRepository;
  namespaces: NamespaceRepository;
  projects: ProjectRepository;
  members: MemberRepository;
  accessTokens: AccessTokenRepository;
  settings: SettingsRepository;
  /** Users' notification settings (ports/notification-settings-store.ts). */
  notificationSettings: NotificationSettingRepository;
  /** Group iterations (ports/iterations-store.ts). */
  iterations: IterationRepository;
  /** Issues, merge requests, milestones, snippets, notes and their events (ports/activity-store.ts). */
  activity: ActivityStore;
  /** Error-tracking settings, client keys and received errors (ports/error-tracking-store.ts). */
  errorTracking: import("./error-tracking-store.js").ErrorTrackingStore;
  /** OAuth applications, codes, token pairs and keys (ports/oauth-store.ts). */
  oauth: OAuthRepositories;
  /** Durable background jobs (ports/jobs-store.ts). */
  jobs: import("./jobs-store.js").JobRepository;
  /** Project imports: import state, external-id maps and project labels (ports/imports-store.ts). */
  imports: import("./imports-store.js").ImportsStore;
  /** Label lists, edits, priorities, subscriptions and counts (ports/labels-store.ts). */
  labels: import("./labels-store.js").LabelsStore;
  /** Repository storage moves and where each container's repository lives (ports/storage-moves-store.ts). */
  storageMoves: import("./storage-moves-store.js").StorageMovesStore;
  /** Project releases and their asset links (ports/releases-store.ts). */
  releases: import("./releases-store.js").ReleaseRepository;
  /** Project Markdown uploads (ports/uploads-store.ts). */
  uploads: import("./uploads-store.js").UploadRepository;
  /** What the REST merge-request and snippet resources add (ports/review-store.ts). */
  reviews: import("./review-store.js").ReviewRepository;
  /** Commit statuses and the external pipelines they make (ports/statuses-store.ts). */
  statuses: import("./statuses-store.js").CommitStatusRepository;
  /** Assignees, reviewers and automatic merges of merge requests (ports/merge-request-extras-store.ts). */
  mergeRequestExtras: import("./merge-request-extras-store.js").MergeRequestExtrasRepository;
  /** Versions of merge requests: one per distinct source head (ports/merge-request-versions-store.ts). */
  mergeRequestVersions: import("./merge-request-versions-store.js").MergeRequestVersionRepository;
  /** The issues each merge request closes (ports/merge-request-closing-issues-store.ts). */
  mergeRequestClosingIssues: import("./merge-request-closing-issues-store.js").MergeRequestClosingIssuesRepository;
  /** Approvals, approval settings and approval rules (ports/approvals-store.ts). */
  approvals: import("./approvals-store.js").ApprovalRepository;
  /** Protected branch and tag rules (ports/protected-refs-store.ts). */
  protectedRefs: import("./protected-refs-store.js").ProtectedRefRepository;
  /** Project, group and system webhooks and their delivery log (ports/webhooks-store.ts). */
  webHooks: import("./webhooks-store.js").WebHookRepository;
  /** Notes grouped into discussions, and their resolution (ports/discussions-store.ts). */
  discussions: import("./discussions-store.js").DiscussionRepository;
  /**
   * Runs `fn` in one transaction: commits when it resolves, rolls back when it rejects. A store may
   * run `fn` again, in a fresh transaction, when the database aborted the first one for a conflict
   * with a concurrent transaction (deadlock, serialization failure): keep `fn` to store calls and
   * computation, with no effect outside the store.
   */
  transaction<T>(fn: (tx: TransactionStore) => Promise<T>): Promise<T>;
  /**
   * Creates or upgrades the schema (idempotent). A store that tracks named migrations resolves
   * which it applied now, in order (empty when the schema was up to date); others resolve nothing.
   * `options.onProgress`, when the store supports it, hears each migration start and finish.
   */
  migrate(options?: MigrateOptions): Promise<MigrationReport | void>;
  /** Releases connections. */
  close(): Promise<void>;
  /**
   * Optional: receives the host's logger (createForgekit calls it with `config.logger`), for what
   * the store sees outside any call, such as a pooled database connection the server dropped.
   */
  useLogger?(logger: Logger): void;
}

/**
 * The repositories of a {@link Store} inside one transaction (no nested transactions, migrations or
 * close).
 */
export type TransactionStore = Omit<Store, "transaction" | "migrate" | "close" | "useLogger">;

export type { KeysetPageRequest, KeysetPageResult, OffsetPageRequest, OffsetPageResult, PageRequest };
export type { AccessTokenRepository, NewAccessToken, TokenListFilter } from "./access-tokens-store.js";
export type { MemberRepository, NewMembership, ProjectReadFacts } from "./members-store.js";
export type { ProjectReadView, TokenProjectRead } from "./project-read-store.js";
export type { MigrateOptions, MigrationProgress, MigrationReport } from "./migrations.js";
