/** Shared state and fixtures of the store conformance suite. */
import type { AccessLevel, Membership, Namespace, Project, User, Visibility } from "../../accounts/types.js";
import type { NewUser, Store, Viewer } from "../../ports/store.js";

/** Options of `runStoreConformance`. */
export interface ConformanceOptions {
  /** Run the racing-caller tests (default true). */
  concurrency?: boolean;
}

/** What every test file of the suite receives: the store of the running test. */
export interface SuiteContext {
  /** The fresh store made for the current test. */
  readonly store: Store;
  readonly options: ConformanceOptions;
}

/** The suite's reference instant; every other time is an offset from it. */
export const T0 = new Date("2026-03-01T12:00:00.000Z");

/** `T0` plus `minutes`. */
export function at(minutes: number): Date {
  return new Date(T0.getTime() + minutes * 60_000);
}

let counter = 0;
/** A name no other fixture of this process uses. */
export function unique(prefix: string): string {
  counter += 1;
  return `${prefix}${counter}`;
}

/** Creates a user (unique username unless given); fails the test when the store refuses. */
export async function makeUser(store: Pick<Store, "users">, input: Partial<NewUser> = {}, now = T0): Promise<User> {
  const user = await store.users.create({ username: unique("user"), name: "Some One", ...input }, now);
  if (user === null) throw new Error(`fixture user ${input.username ?? ""} was refused`);
  return user;
}

/** A viewer signed in as `user`. */
export function viewerOf(user: User, admin = false): Viewer {
  return { userId: user.id, admin };
}

export interface GroupInput {
  path?: string;
  name?: string;
  parent?: Namespace | null;
  visibility?: Visibility;
  description?: string;
}

/** Creates a group namespace; fails the test when the store refuses. */
export async function makeGroup(store: Pick<Store, "namespaces">, input: GroupInput = {}, now = T0): Promise<Namespace> {
  const path = input.path ?? unique("group");
  const group = await store.namespaces.create(
    {
      kind: "group",
      path,
      name: input.name ?? path,
      parentId: input.parent?.id ?? null,
      ownerId: null,
      visibility: input.visibility ?? "private",
      ...(input.description === undefined ? {} : { description: input.description }),
    },
    now,
  );
  if (group === null) throw new Error(`fixture group ${path} was refused`);
  return group;
}

/** Creates the personal namespace of `user` and records it on the user. */
export async function makeUserNamespace(store: Pick<Store, "namespaces" | "users">, user: User, visibility: Visibility = "private"): Promise<Namespace> {
  const namespace = await store.namespaces.create(
    { kind: "user", path: user.username, name: user.name, parentId: null, ownerId: user.id, visibility },
    T0,
  );
  if (namespace === null) throw new Error(`fixture namespace ${user.username} was refused`);
  await store.users.update(user.id, { namespaceId: namespace.id });
  return namespace;
}

export interface ProjectInput {
  path?: string;
  name?: string;
  visibility?: Visibility;
  creator?: User | null;
  repositoryStorage?: string;
}

/** Creates a project in `namespace`; fails the test when the store refuses. */
export async function makeProject(store: Pick<Store, "projects">, namespace: Namespace, input: ProjectInput = {}, now = T0): Promise<Project> {
  const path = input.path ?? unique("project");
  const project = await store.projects.create(
    {
      namespaceId: namespace.id,
      path,
      name: input.name ?? path,
      visibility: input.visibility ?? "private",
      creatorId: input.creator?.id ?? null,
      ...(input.repositoryStorage === undefined ? {} : { repositoryStorage: input.repositoryStorage }),
    },
    now,
  );
  if (project === null) throw new Error(`fixture project ${path} was refused`);
  return project;
}

/** Adds a membership and returns it; fails the test when the store refuses. */
export async function addMember(
  store: Pick<Store, "members">,
  source: { kind: "namespace"; of: Namespace } | { kind: "project"; of: Project },
  user: User,
  accessLevel: AccessLevel,
  expiresAt: Date | null = null,
): Promise<Membership> {
  const member = await store.members.add({ sourceType: source.kind, sourceId: source.of.id, userId: user.id, accessLevel, expiresAt }, T0);
  if (member === null) throw new Error("fixture membership was refused");
  return member;
}

/** The ids of a list of records, in order. */
export function ids(rows: readonly { id: number }[]): number[] {
  return rows.map((row) => row.id);
}

/** A 64-hex-digit digest no other fixture uses. */
export function digest(): string {
  return unique("d").padStart(64, "0");
}
