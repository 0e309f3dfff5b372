/** Fixtures of the event conformance tests: a small world of users, projects and events. */
import { AccessLevel, type Namespace, type Project, type User } from "../../accounts/types.js";
import type { Event } from "../../events/types.js";
import type { EventListFilter, NewEvent } from "../../ports/activity-store.js";
import type { OffsetPageRequest } from "../../ports/pagination.js";
import type { Store, Viewer } from "../../ports/store.js";
import { addMember, at, makeGroup, makeProject, makeUser } from "./context.js";

/** A plain event of `action` at `minutes` after T0; override any field. */
export function newEvent(projectId: number | null, authorId: number, minutes: number, extra: Partial<NewEvent> = {}): NewEvent {
  return {
    projectId,
    authorId,
    action: "created",
    targetType: null,
    targetId: null,
    targetIid: null,
    targetTitle: null,
    audience: "project",
    audienceUserId: null,
    push: null,
    note: null,
    createdAt: at(minutes),
    ...extra,
  };
}

/** Inserts events; returns them in insertion order. */
export async function insertAll(store: Store, events: readonly NewEvent[]): Promise<Event[]> {
  const out: Event[] = [];
  for (const event of events) out.push(await store.activity.events.insert(event));
  return out;
}

/**
 * Users `author`, `member` (Guest of the private project and Reporter of the public one), `outsider`
 * and `admin`; projects `pub` (public), `int` (internal) and `priv` (private) in one public group.
 */
export interface EventWorld {
  author: User;
  member: User;
  outsider: User;
  admin: User;
  group: Namespace;
  pub: Project;
  int: Project;
  priv: Project;
}

export async function eventWorld(store: Store): Promise<EventWorld> {
  const [author, member, outsider] = [await makeUser(store), await makeUser(store), await makeUser(store)];
  const admin = await makeUser(store, { admin: true });
  const group = await makeGroup(store, { visibility: "public" });
  const pub = await makeProject(store, group, { visibility: "public" });
  const int = await makeProject(store, group, { visibility: "internal" });
  const priv = await makeProject(store, group, { visibility: "private" });
  await addMember(store, { kind: "project", of: priv }, member, AccessLevel.Guest);
  await addMember(store, { kind: "project", of: pub }, member, AccessLevel.Reporter);
  await addMember(store, { kind: "project", of: priv }, author, AccessLevel.Developer);
  return { author, member, outsider, admin, group, pub, int, priv };
}

/** A viewer record for a user (admin flag from the user). */
export const as = (user: User | null): Viewer => (user === null ? null : { userId: user.id, admin: user.admin });

/** The ids of one feed page. */
export async function feedIds(store: Store, filter: Partial<EventListFilter> & Pick<EventListFilter, "feed" | "viewer">, page: OffsetPageRequest = { kind: "offset", page: 1, perPage: 100 }): Promise<number[]> {
  const result = await store.activity.events.list({ now: at(0), sort: "desc", ...filter }, page);
  return result.items.map((event) => event.id);
}
