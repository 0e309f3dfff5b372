/** In-memory UserRepository and EmailRepository. */
import type { Email, User } from "../accounts/types.js";
import type { EmailRepository, UserListFilter, UserRepository } from "../ports/store.js";
import { offsetPage } from "./pagination.js";
import { copy, type MemoryState, type Runner } from "./state.js";
import { compareText, contains, fold } from "./text.js";
import { removeUser, userHoldings } from "./user-removal.js";

function usernameTaken(state: MemoryState, username: string, exceptId: number | null): boolean {
  const owner = state.unique.usernames.get(fold(username));
  return owner !== undefined && owner !== exceptId;
}

/** The row registered under a unique key, or null. */
export function byKey<T>(rows: Map<number, T>, keys: Map<string, number>, key: string): T | null {
  const id = keys.get(key);
  return nullableCopy(id === undefined ? undefined : rows.get(id));
}

function primaryEmail(state: MemoryState, userId: number): Email | undefined {
  for (const email of state.emails.values()) {
    if (email.userId === userId && email.primary) return email;
  }
  return undefined;
}

/** Whether another user than `exceptId` has the host's id `externalId` (unique, like the SQL index). */
function externalIdTaken(state: MemoryState, externalId: string | null | undefined, exceptId: number | null): boolean {
  if (externalId === null || externalId === undefined) return false;
  for (const user of state.users.values()) if (user.externalId === externalId && user.id !== exceptId) return true;
  return false;
}

export function memoryUsers(run: Runner): UserRepository {
  return {
    create: (input, now) =>
      run((state) => {
        if (usernameTaken(state, input.username, null) || externalIdTaken(state, input.externalId, null)) return null;
        const user: User = {
          id: ++state.seq.users,
          username: input.username,
          name: input.name,
          state: input.state ?? "active",
          admin: input.admin ?? false,
          bot: input.bot ?? null,
          twoFactorEnabled: input.twoFactorEnabled ?? false,
          privateProfile: input.privateProfile ?? false,
          avatarUrl: input.avatarUrl ?? null,
          passwordHash: input.passwordHash ?? null,
          namespaceId: null,
          externalId: input.externalId ?? null,
          lastActivityOn: null,
          createdAt: new Date(now),
          updatedAt: new Date(now),
        };
        state.users.set(user.id, user);
        state.unique.usernames.set(fold(user.username), user.id);
        return copy(user);
      }),
    findById: (id) => run((state) => nullableCopy(state.users.get(id))),
    findByUsername: (username) =>
      run((state) => byKey(state.users, state.unique.usernames, fold(username))),
    findByExternalId: (externalId) =>
      run((state) => {
        for (const user of state.users.values()) if (user.externalId === externalId) return copy(user);
        return null;
      }),
    findByIds: (ids) =>
      run((state) =>
        [...new Set(ids)]
          .sort((a, b) => a - b)
          .flatMap((id) => {
            const user = state.users.get(id);
            return user === undefined ? [] : [copy(user)];
          }),
      ),
    update: (id, patch) =>
      run((state) => {
        const user = state.users.get(id);
        if (user === undefined) return null;
        if (patch.username !== undefined && usernameTaken(state, patch.username, id)) return null;
        if (externalIdTaken(state, patch.externalId, id)) return null;
        const updated: User = { ...user, ...copy(stripUndefined(patch)), id, createdAt: user.createdAt };
        state.users.set(id, updated);
        state.unique.usernames.delete(fold(user.username));
        state.unique.usernames.set(fold(updated.username), id);
        return copy(updated);
      }),
    list: (filter, page) =>
      run((state) => {
        const rows = [...state.users.values()]
          .filter((user) => {
            if (filter.state !== undefined && user.state !== filter.state) return false;
            if (filter.username !== undefined && fold(user.username) !== fold(filter.username)) return false;
            if (filter.includeBots !== true && user.bot !== null) return false;
            if (filter.activeSince !== undefined && (user.lastActivityOn === null || user.lastActivityOn < filter.activeSince)) return false;
            if (filter.search === undefined) return true;
            const email = primaryEmail(state, user.id)?.email ?? "";
            return contains(user.username, filter.search) || contains(user.name, filter.search) || contains(email, filter.search);
          })
          .sort(userOrder(filter));
        return offsetPage(rows, page, copy);
      }),
    rename: (id, username, now) =>
      run((state) => {
        const user = state.users.get(id);
        if (user === undefined) return "missing";
        const namespace = user.namespaceId === null ? undefined : state.namespaces.get(user.namespaceId);
        const pathOwner = state.unique.namespacePaths.get(fold(username));
        if (usernameTaken(state, username, id) || (namespace !== undefined && pathOwner !== undefined && pathOwner !== namespace.id)) return "taken";
        state.unique.usernames.delete(fold(user.username));
        state.users.set(id, { ...user, username, updatedAt: new Date(now) });
        state.unique.usernames.set(fold(username), id);
        if (namespace !== undefined) {
          state.unique.namespacePaths.delete(fold(namespace.fullPath));
          state.namespaces.set(namespace.id, { ...namespace, path: username, fullPath: username, updatedAt: new Date(now) });
          state.unique.namespacePaths.set(fold(username), namespace.id);
        }
        return "renamed";
      }),
    recordActivity: (id, day) =>
      run((state) => {
        const user = state.users.get(id);
        // `YYYY-MM-DD` days compare as text, as the SQL stores compare them.
        if (user === undefined || (user.lastActivityOn !== null && user.lastActivityOn >= day)) return false;
        const edited = state.users.edit(id);
        if (edited !== undefined) edited.lastActivityOn = day;
        return true;
      }),
    holdings: (id, now) => run((state) => userHoldings(state, id, now)),
    remove: (id) => run((state) => removeUser(state, id)),
  };
}

export function memoryEmails(run: Runner): EmailRepository {
  return {
    add: (input, now) =>
      run((state) => {
        requireUser(state, input.userId);
        if (state.unique.emails.has(fold(input.email))) return null;
        if (input.primary) {
          for (const email of [...state.emails.values()]) {
            if (email.userId === input.userId && email.primary) state.emails.set(email.id, { ...email, primary: false });
          }
        }
        const email: Email = {
          id: ++state.seq.emails,
          userId: input.userId,
          email: input.email,
          primary: input.primary,
          confirmedAt: input.confirmedAt === null ? null : new Date(input.confirmedAt),
          createdAt: new Date(now),
        };
        state.emails.set(email.id, email);
        state.unique.emails.set(fold(email.email), email.id);
        return copy(email);
      }),
    listByUser: (userId) =>
      run((state) =>
        [...state.emails.values()]
          .filter((email) => email.userId === userId)
          .sort((a, b) => a.id - b.id)
          .map(copy),
      ),
    findByEmail: (address) =>
      run((state) => byKey(state.emails, state.unique.emails, fold(address))),
    primaryFor: (userId) => run((state) => nullableCopy(primaryEmail(state, userId))),
    primaryForUsers: (userIds) =>
      run((state) => {
        const wanted = new Set(userIds);
        return [...state.emails.values()].filter((email) => email.primary && wanted.has(email.userId)).map(copy);
      }),
    confirm: (id, at) =>
      run((state) => {
        const email = state.emails.edit(id);
        if (email === undefined) return null;
        email.confirmedAt ??= new Date(at);
        return copy(email);
      }),
    remove: (id) =>
      run((state) => {
        const email = state.emails.get(id);
        if (email === undefined) return false;
        state.emails.delete(id);
        state.unique.emails.delete(fold(email.email));
        return true;
      }),
  };
}

/** The list order of a user filter: the key, then id, both in the filter's direction. */
function userOrder(filter: UserListFilter): (a: User, b: User) => number {
  const direction = filter.sort === "desc" ? -1 : 1;
  const key = (user: User): string | number => {
    switch (filter.orderBy ?? "id") {
      case "name":
        return fold(user.name);
      case "username":
        return fold(user.username);
      case "created_at":
        return user.createdAt.getTime();
      case "updated_at":
        return user.updatedAt.getTime();
      case "last_activity_on":
        // Never active sorts before every day, as `coalesce(last_activity_on, '')` does in SQL.
        return user.lastActivityOn ?? "";
      case "id":
        return user.id;
    }
  };
  return (a, b) => {
    const ka = key(a);
    const kb = key(b);
    const byKey = typeof ka === "string" && typeof kb === "string" ? compareText(ka, kb) : Number(ka) - Number(kb);
    return direction * (byKey !== 0 ? byKey : a.id - b.id);
  };
}

/** A copy of the record, or null when missing. */
export function nullableCopy<T>(record: T | undefined): T | null {
  return record === undefined ? null : copy(record);
}

/** Drops keys whose value is `undefined`, so a patch never erases a field it does not name. */
export function stripUndefined<T extends object>(patch: T): Partial<T> {
  return Object.fromEntries(Object.entries(patch).filter(([, value]) => value !== undefined)) as Partial<T>;
}

/** Mirrors the SQL store's foreign key: writing a row for a missing user rejects. */
export function requireUser(state: MemoryState, userId: number): void {
  if (!state.users.has(userId)) throw new Error(`user ${userId} does not exist`);
}
