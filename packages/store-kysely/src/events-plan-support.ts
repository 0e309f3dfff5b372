/**
 * Test support for the event feed query-plan tests: a seeded world, the feed requests of every
 * filter combination, and the index each statement must read. Statements are captured from the
 * driver as the store really runs them, then explained with their own parameters.
 */
import { AccessLevel, type EventAction, type EventListFilter, type EventTargetType, type Store, type Viewer } from "@forgekit/core";
import { EVENT_FEED_INDEXES } from "./migrations/0003-events.js";

/** A statement the store ran. */
export interface Captured {
  sql: string;
  params: readonly unknown[];
}

export const SEED_PROJECTS = 50;
export const SEED_USERS = 50;
export const ACTIONS: readonly EventAction[] = ["created", "updated", "closed", "reopened", "pushed", "commented", "merged", "joined", "left", "destroyed", "expired", "approved"];
export const TARGETS: readonly (EventTargetType | null)[] = ["Issue", "Milestone", "MergeRequest", "Note", "Project", "Snippet", "User", null];
/** First event time; event `i` is `i` minutes later. */
export const SEED_START = Date.UTC(2024, 0, 1);

/** The seeded ids the feed cases use. */
export interface PlanWorld {
  projectIds: number[];
  userIds: number[];
  /** Signed in, member of nothing: the project and author feeds' viewer. */
  outsider: NonNullable<Viewer>;
  /** Reporter of five projects (two private): the authorised feed's user. */
  member: NonNullable<Viewer>;
}

/** Users, one public group with public and private projects, memberships (no events: seeders add those). */
export async function seedWorld(store: Store): Promise<PlanWorld> {
  const now = new Date(SEED_START);
  const userIds: number[] = [];
  for (let i = 0; i < SEED_USERS; i++) userIds.push((await store.users.create({ username: `u${i}`, name: `U ${i}` }, now))!.id);
  const group = (await store.namespaces.create({ kind: "group", path: "plan", name: "plan", parentId: null, ownerId: null, visibility: "public" }, now))!;
  const projectIds: number[] = [];
  for (let i = 0; i < SEED_PROJECTS; i++) {
    const visibility = i % 10 === 9 ? "private" : "public";
    projectIds.push((await store.projects.create({ namespaceId: group.id, path: `p${i}`, name: `p${i}`, visibility, creatorId: null }, now))!.id);
  }
  const outsider = (await store.users.create({ username: "outsider", name: "Outsider" }, now))!;
  const member = (await store.users.create({ username: "member", name: "Member" }, now))!;
  for (const index of [1, 9, 19, 25, 33]) {
    await store.members.add({ sourceType: "project", sourceId: projectIds[index]!, userId: member.id, accessLevel: AccessLevel.Reporter }, now);
  }
  return { projectIds, userIds, outsider: { userId: outsider.id, admin: false }, member: { userId: member.id, admin: false } };
}

/** Column values of seeded event `i` (deterministic), as plain values a bulk insert binds. */
export function seededEvent(i: number, world: Pick<PlanWorld, "projectIds" | "userIds">) {
  const target = TARGETS[i % TARGETS.length] ?? null;
  return {
    project_id: world.projectIds[i % world.projectIds.length]!,
    author_id: world.userIds[(i * 7) % world.userIds.length]!,
    action: ACTIONS[(i * 5) % ACTIONS.length]!,
    target_type: target,
    target_id: target === null ? null : i,
    audience: i % 10 === 0 ? 3 : 0,
    created_at_ms: SEED_START + i * 60_000,
  };
}

/** One feed request and the indexes its statements must read. */
export interface FeedCase {
  name: string;
  filter: EventListFilter;
  page: number;
  /** The combination's index: what ordered (page) statements read, in feed order. */
  index: string;
  /** The feed key's indexes: any of them serves an unordered (bounded count) statement. */
  family: readonly string[];
}

/** The indexes a captured statement may read: the combination's for pages, the key's family for counts. */
export function allowedIndexes(c: FeedCase, sql: string): readonly string[] {
  return /order by/i.test(sql) ? [c.index] : c.family;
}

const FILTERS: readonly { name: string; filter: Partial<EventListFilter>; slot: number }[] = [
  { name: "no filter", filter: {}, slot: 0 },
  { name: "action", filter: { action: "closed" }, slot: 1 },
  { name: "target_type", filter: { targetType: "Issue" }, slot: 2 },
  { name: "action + target_type", filter: { action: "closed", targetType: "Issue" }, slot: 3 },
];

const BOUNDS: readonly { name: string; filter: Partial<EventListFilter> }[] = [
  { name: "", filter: {} },
  { name: ", before", filter: { createdBefore: new Date(SEED_START + 30 * 86_400_000) } },
  { name: ", after + before", filter: { createdAfter: new Date(SEED_START + 86_400_000), createdBefore: new Date(SEED_START + 30 * 86_400_000) } },
];

/** Every filter combination (filters × bounds × sort × first / deep page) of the three feeds. */
export function feedCases(world: PlanWorld): FeedCase[] {
  const feeds = [
    { label: "project", key: "project_id" as const, feed: { kind: "project", projectId: world.projectIds[3]! } as const, viewer: world.outsider },
    { label: "author", key: "author_id" as const, feed: { kind: "author", authorId: world.userIds[3]! } as const, viewer: world.outsider },
    { label: "authorised", key: "project_id" as const, feed: { kind: "authorized", userId: world.member.userId } as const, viewer: world.member },
  ];
  const cases: FeedCase[] = [];
  for (const { label, key, feed, viewer } of feeds) {
    for (const f of FILTERS) {
      for (const b of BOUNDS) {
        for (const sort of ["desc", "asc"] as const) {
          for (const page of [1, 5]) {
            cases.push({
              name: `${label} feed, ${f.name}${b.name}, ${sort}, page ${page}`,
              filter: { feed, viewer, now: new Date(SEED_START), sort, ...f.filter, ...b.filter },
              page,
              index: EVENT_FEED_INDEXES[key][f.slot]!,
              family: EVENT_FEED_INDEXES[key],
            });
          }
        }
      }
    }
  }
  return cases;
}

/** Runs one case through the store and returns the statements that read forgekit_events. */
export async function captureCase(store: Store, log: Captured[], c: FeedCase): Promise<Captured[]> {
  log.length = 0;
  await store.activity.events.list(c.filter, { kind: "offset", page: c.page, perPage: 20 });
  return log.filter((statement) => /forgekit_events/.test(statement.sql));
}
