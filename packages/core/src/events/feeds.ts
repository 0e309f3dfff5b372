/**
 * The three feeds behind `GET /events`, `GET /users/:id/events` and `GET /projects/:id/events`
 * (spec "Events"): filter checking in the reference's words, whole-day `before` / `after` bounds,
 * and who may see what. The store filters in its query, so pages are always full.
 */
import { err, ok, type Result } from "neverthrow";
import { visibleProject } from "../access/permissions.js";
import type { Project, User } from "../accounts/types.js";
import { errors, type ForgekitError } from "../errors.js";
import { paramError, REASONS, type ParamIssue } from "../http/params.js";
import { recordRef } from "../ids.js";
import type { EventFeed, EventListFilter } from "../ports/activity-store.js";
import type { OffsetPageRequest, OffsetPageResult } from "../ports/pagination.js";
import type { Store } from "../ports/store.js";
import { EVENT_ACTIONS, TARGET_TYPE_FILTERS, type Event, type EventAction, type TargetTypeFilter } from "./types.js";

/** Filters every feed takes (values as the API spells them). */
export interface EventQuery {
  action?: EventAction;
  /** Lowercase, as the spec lists them: `issue`, `milestone`, `merge_request`, `note`, `project`, `snippet`, `user`. */
  targetType?: TargetTypeFilter;
  /** `YYYY-MM-DD`: only events of earlier days (UTC). */
  before?: string;
  /** `YYYY-MM-DD`: only events of later days (UTC). */
  after?: string;
  /** By creation time, ties by id; default `desc`. */
  sort?: "asc" | "desc";
}

/** `GET /events` also takes `scope`: `all` lists the events of every project the user is authorised for. */
export interface OwnEventQuery extends EventQuery {
  scope?: string;
}

/** The first page of 20, when a caller names none. */
export const FIRST_PAGE: OffsetPageRequest = { kind: "offset", page: 1, perPage: 20 };

const DAY_MS = 86_400_000;

/** `YYYY-MM-DD` → UTC midnight of that day, or null when it is no calendar date. */
export function dayStart(text: string): Date | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (m === null) return null;
  const date = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return date.toISOString().slice(0, 10) === text ? date : null;
}

/**
 * The store filter for `query` (reference EventsFinder: `before=D` → created before D's first
 * instant, `after=D` → created after D's last instant; both exclude day D), or the reference's
 * 400 body naming every bad value.
 */
export function readQuery(query: EventQuery): Result<Omit<EventListFilter, "feed" | "viewer" | "now">, ForgekitError> {
  const issues: ParamIssue[] = [];
  if (query.action !== undefined && !(EVENT_ACTIONS as readonly string[]).includes(query.action)) issues.push({ param: "action", reason: REASONS.notValid });
  const targetType = query.targetType === undefined ? undefined : (TARGET_TYPE_FILTERS as Record<string, Event["targetType"]>)[query.targetType];
  if (query.targetType !== undefined && (targetType == null || !Object.hasOwn(TARGET_TYPE_FILTERS, query.targetType))) {
    issues.push({ param: "target_type", reason: REASONS.notValid });
  }
  const before = query.before === undefined ? undefined : dayStart(query.before);
  if (before === null) issues.push({ param: "before", reason: REASONS.invalid });
  const after = query.after === undefined ? undefined : dayStart(query.after);
  if (after === null) issues.push({ param: "after", reason: REASONS.invalid });
  if (query.sort !== undefined && query.sort !== "asc" && query.sort !== "desc") issues.push({ param: "sort", reason: REASONS.notValid });
  if (issues.length > 0) return err(paramError(issues));
  return ok({
    sort: query.sort ?? "desc",
    ...(query.action === undefined ? {} : { action: query.action }),
    ...(targetType == null ? {} : { targetType }),
    ...(before == null ? {} : { createdBefore: before }),
    ...(after == null ? {} : { createdAfter: new Date(after.getTime() + DAY_MS - 1) }),
  });
}

/** Checks a page request a programmatic caller built by hand (`page` ≥ 1, `perPage` 1…100): the 400, or null. */
export function checkPageRequest(page: OffsetPageRequest): ForgekitError | null {
  if (!Number.isSafeInteger(page.page) || page.page < 1) return paramError([{ param: "page", reason: REASONS.invalid }]);
  if (!Number.isSafeInteger(page.perPage) || page.perPage < 1 || page.perPage > 100) return paramError([{ param: "per_page", reason: REASONS.notValid }]);
  return null;
}

const viewerOf = (user: User | null) => (user === null ? null : { userId: user.id, admin: user.admin });
const EMPTY: OffsetPageResult<Event> = { items: [], total: 0, hasNext: false };

/** The feed queries over one store and clock. */
export function eventFeeds(store: Store, now: () => Date) {
  const list = async (viewer: User | null, feed: EventFeed, query: EventQuery, page: OffsetPageRequest): Promise<Result<OffsetPageResult<Event>, ForgekitError>> => {
    const filter = readQuery(query);
    if (filter.isErr()) return err(filter.error);
    const pageIssue = checkPageRequest(page);
    if (pageIssue !== null) return err(pageIssue);
    return ok(await store.activity.events.list({ ...filter.value, feed, viewer: viewerOf(viewer), now: now() }, page));
  };

  return {
    /** The user's own events; `scope: "all"` → events of every project the user is authorised for. */
    own(user: User, query: OwnEventQuery, page: OffsetPageRequest) {
      const feed: EventFeed = query.scope === "all" ? { kind: "authorized", userId: user.id } : { kind: "author", authorId: user.id };
      return list(user, feed, query, page);
    },

    /** Events the user authored; a private profile others may not read → an empty list (reference, not 404). */
    async ofUser(viewer: User | null, idOrUsername: number | string, query: EventQuery, page: OffsetPageRequest) {
      const user = await findUser(store, idOrUsername);
      if (user === null) return err(errors.notFound("User"));
      const filter = readQuery(query);
      if (filter.isErr()) return err(filter.error);
      const profileReadable = !user.privateProfile || viewer?.id === user.id || viewer?.admin === true;
      if (!profileReadable) return ok(EMPTY);
      return list(viewer, { kind: "author", authorId: user.id }, query, page);
    },

    /** The project's events; an unknown or invisible project → `404 Project Not Found`. */
    async ofProject(viewer: User | null, idOrPath: number | string, query: EventQuery, page: OffsetPageRequest) {
      const found = await findProject(store, idOrPath);
      const visible = await visibleProject(store, viewer, found, now());
      if (visible.isErr()) return err(visible.error);
      return list(viewer, { kind: "project", projectId: visible.value.id, visibility: visible.value.visibility, features: visible.value.features }, query, page);
    },
  };
}

/** Reference `find_project`: digits → id; a value with `/` → full path; anything else (or what names nothing, ids.ts `recordRef`) → none. */
async function findProject(store: Store, idOrPath: number | string): Promise<Project | null> {
  const ref = recordRef(idOrPath);
  if (typeof ref === "number") return store.projects.findById(ref);
  return ref !== null && ref.includes("/") ? store.projects.findByFullPath(ref) : null;
}

/** Digits → id (reference `find_user`); other text → username, case-insensitively; what names nothing → none. */
async function findUser(store: Store, idOrUsername: number | string): Promise<User | null> {
  const ref = recordRef(idOrUsername);
  if (ref === null) return null;
  return typeof ref === "number" ? store.users.findById(ref) : store.users.findByUsername(ref);
}
