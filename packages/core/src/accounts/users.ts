/**
 * Users: creation (with the personal namespace and e-mails in one transaction), state changes,
 * lookups and password checks. Every method returns `ResultAsync<T, ForgekitError>`.
 */
import { err, errAsync, ok, okAsync, type Result, type ResultAsync } from "neverthrow";
import { isRecordId, recordRef } from "../ids.js";
import { isStorableText } from "../storable.js";
import type { ForgekitConfig } from "../config.js";
import { errors, type ForgekitError } from "../errors.js";
import type { OffsetPageRequest, OffsetPageResult, TransactionStore, UserListFilter, UserPatch } from "../ports/store.js";
import { attempt, fromStore, inTransaction, Messages, TAKEN, tooShort } from "./service-kit.js";
import type { Email, User, UserState } from "./types.js";
import { userSync, type UserSync } from "./user-sync.js";
import { MIN_PASSWORD, userChanges, type UserChanges } from "./user-changes.js";
import { checkEmail, checkName, checkPath } from "./validation.js";
import type { CreateUserInput } from "./create-user-input.js";
import { queueUserSystemHook } from "../webhooks/system-events.js";

export type { CreateUserInput } from "./create-user-input.js";

/** Users service (host API: `fk.users`). */
export interface UsersService extends UserChanges, UserSync {
  /** Creates a user and, unless it is a bot, its personal namespace; all or nothing. */
  create(input: CreateUserInput): ResultAsync<User, ForgekitError>;
  /** `not_found("User")` when missing. */
  findById(id: number): ResultAsync<User, ForgekitError>;
  /** Case-insensitive; `not_found("User")` when missing. */
  findByUsername(username: string): ResultAsync<User, ForgekitError>;
  /** An all-digit value is an id, anything else a username (reference `find_user`). */
  findByIdOrUsername(value: string | number): ResultAsync<User, ForgekitError>;
  /** Blocks the user (any state → blocked). */
  block(id: number): ResultAsync<User, ForgekitError>;
  /** blocked → active; a deactivated user must be activated instead (403, reference wording). */
  unblock(id: number): ResultAsync<User, ForgekitError>;
  /** active → deactivated; a blocked user cannot be deactivated (403). */
  deactivate(id: number): ResultAsync<User, ForgekitError>;
  /** deactivated → active; a blocked user must be unblocked first (403). */
  activate(id: number): ResultAsync<User, ForgekitError>;
  setAdmin(id: number, admin: boolean): ResultAsync<User, ForgekitError>;
  /** Users by id ascending (store filter: search, state, bots). */
  list(filter: UserListFilter, page: OffsetPageRequest): ResultAsync<OffsetPageResult<User>, ForgekitError>;
  /** Updates profile flags (name, avatar, private profile, two-factor). */
  update(id: number, patch: Pick<UserPatch, "name" | "avatarUrl" | "privateProfile" | "twoFactorEnabled">): ResultAsync<User, ForgekitError>;
  /** Adds a secondary address (or a new primary, demoting the old one). */
  addEmail(userId: number, email: string, options?: { primary?: boolean; confirmed?: boolean }): ResultAsync<Email, ForgekitError>;
  emails(userId: number): ResultAsync<Email[], ForgekitError>;
  /** The primary address, or null when the user has none. */
  primaryEmail(userId: number): ResultAsync<string | null, ForgekitError>;
  /**
   * Checks a login (username or any confirmed e-mail) and password. `ok(null)` for a wrong pair,
   * an unknown login or a user without password; state checks are the caller's.
   */
  verifyPassword(login: string, password: string): ResultAsync<User | null, ForgekitError>;
}


/** Builds the users service over the configured store. */
export function usersService(config: ForgekitConfig): UsersService {
  const { store, clock, passwordHasher } = config;

  // An id or name no store can hold names no user: "not found" without asking the store (ids.ts).
  const findById = (id: number): ResultAsync<User, ForgekitError> =>
    isRecordId(id) ? fromStore(store.users.findById(id)).andThen((u) => (u ? ok(u) : err(errors.notFound("User")))) : errAsync(errors.notFound("User"));

  const findByUsername = (username: string): ResultAsync<User, ForgekitError> =>
    isStorableText(username)
      ? fromStore(store.users.findByUsername(username)).andThen((u) => (u ? ok(u) : err(errors.notFound("User"))))
      : errAsync(errors.notFound("User"));

  const patch = (id: number, p: UserPatch): ResultAsync<User, ForgekitError> =>
    fromStore(store.users.update(id, { ...p, updatedAt: clock.now() })).andThen((u) => (u ? ok(u) : err(errors.notFound("User"))));

  /** Loads the user, decides the transition, applies it. */
  const transition = (id: number, decide: (u: User) => ForgekitError | UserState | null): ResultAsync<User, ForgekitError> =>
    findById(id).andThen((user) => {
      const next = decide(user);
      if (next === null) return okAsync(user);
      if (typeof next === "object") return errAsync(next);
      return patch(id, { state: next });
    });

  const service: UsersService = {
    ...userChanges(config),
    ...userSync(config, (input) => service.create(input)),
    create(input) {
      return attempt(async () => {
        const messages = new Messages();
        checkPath(messages, "username", input.username);
        checkName(messages, "name", input.name);
        const isBot = input.bot != null;
        if (!isBot || input.email !== undefined) checkEmail(messages, "email", input.email);
        for (const extra of input.secondaryEmails ?? []) checkEmail(messages, "emails", extra);
        if (input.password != null && input.password.length < MIN_PASSWORD) messages.add("password", tooShort(MIN_PASSWORD));
        const valid = messages.result(undefined);
        if (valid.isErr()) return err(valid.error);
        // Hash outside the transaction: scrypt is slow and must not hold a database transaction open.
        const passwordHash = input.password != null ? await passwordHasher.hash(input.password) : null;
        return inTransaction(store, (tx) => insertUser(tx, input, passwordHash, clock.now()));
      });
    },
    findById,
    findByUsername,
    findByIdOrUsername(value) {
      const ref = recordRef(value);
      if (ref === null) return errAsync(errors.notFound("User"));
      return typeof ref === "number" ? findById(ref) : findByUsername(ref);
    },
    block: (id) => transition(id, (u) => (u.state === "blocked" ? null : "blocked")),
    unblock: (id) =>
      transition(id, (u) => {
        if (u.state === "deactivated") return errors.forbidden("Deactivated users cannot be unblocked by the API");
        return u.state === "blocked" ? "active" : null;
      }),
    deactivate: (id) =>
      transition(id, (u) => {
        if (u.state === "blocked") return errors.forbidden("A blocked user cannot be deactivated by the API");
        return u.state === "deactivated" ? null : "deactivated";
      }),
    activate: (id) =>
      transition(id, (u) => {
        if (u.state === "blocked") return errors.forbidden("A blocked user must be unblocked to be activated");
        return u.state === "deactivated" ? "active" : null;
      }),
    list: (filter, page) => fromStore(store.users.list(filter, page)),
    setAdmin: (id, admin) => findById(id).andThen(() => patch(id, { admin })),
    update(id, p) {
      const messages = new Messages();
      if (p.name !== undefined) checkName(messages, "name", p.name);
      return messages.result(p).asyncAndThen(() => findById(id)).andThen(() => patch(id, p));
    },
    addEmail(userId, email, options = {}) {
      const messages = new Messages();
      checkEmail(messages, "email", email);
      const now = clock.now();
      return messages
        .result(email)
        .asyncAndThen(() => findById(userId))
        .andThen(() =>
          fromStore(
            store.emails.add({ userId, email, primary: options.primary ?? false, confirmedAt: options.confirmed === false ? null : now }, now),
          ),
        )
        .andThen((row) => (row ? ok(row) : err(errors.validation({ email: [TAKEN] }))));
    },
    emails: (userId) => findById(userId).andThen(() => fromStore(store.emails.listByUser(userId))),
    primaryEmail: (userId) => fromStore(store.emails.primaryFor(userId)).map((e) => e?.email ?? null),
    verifyPassword(login, password) {
      return attempt(async () => {
        let user = await store.users.findByUsername(login);
        if (!user && login.includes("@")) {
          const email = await store.emails.findByEmail(login);
          if (email?.confirmedAt) user = await store.users.findById(email.userId);
        }
        if (!user?.passwordHash) return ok(null);
        return ok((await passwordHasher.verify(user.passwordHash, password)) ? user : null);
      });
    },
  };
  return service;
}

/** The transactional part of `create`: user row, personal namespace, e-mails. */
async function insertUser(
  tx: TransactionStore,
  input: CreateUserInput,
  passwordHash: string | null,
  now: Date,
): Promise<Result<User, ForgekitError>> {
  const user = await tx.users.create(
    {
      username: input.username,
      name: input.name,
      state: input.state ?? "active",
      admin: input.admin ?? false,
      bot: input.bot ?? null,
      twoFactorEnabled: input.twoFactorEnabled ?? false,
      privateProfile: input.privateProfile ?? false,
      avatarUrl: input.avatarUrl ?? null,
      passwordHash,
      externalId: input.externalId ?? null,
    },
    now,
  );
  if (!user) return err(errors.validation(input.externalId != null && (await tx.users.findByExternalId(input.externalId)) !== null ? { external_id: [TAKEN] } : { username: [TAKEN] }));
  let created = user;
  if (input.bot == null) {
    // The personal namespace shares the username's path space with groups (reference: routes).
    const namespace = await tx.namespaces.create(
      { kind: "user", path: input.username, name: input.name, parentId: null, ownerId: user.id, visibility: "public" },
      now,
    );
    if (!namespace) return err(errors.validation({ username: [TAKEN] }));
    const updated = await tx.users.update(user.id, { namespaceId: namespace.id });
    if (!updated) return err(errors.internal(new Error("user vanished inside its own transaction")));
    created = updated;
  }
  const addresses = [
    ...(input.email !== undefined ? [{ email: input.email, primary: true, confirmed: input.emailConfirmed ?? true }] : []),
    ...(input.secondaryEmails ?? []).map((email) => ({ email, primary: false, confirmed: true })),
  ];
  for (const address of addresses) {
    const row = await tx.emails.add({ userId: user.id, email: address.email, primary: address.primary, confirmedAt: address.confirmed ? now : null }, now);
    if (!row) return err(errors.validation({ email: [TAKEN] }));
  }
  // Reference `SystemHooksService` on user create (with the primary e-mail just stored).
  await queueUserSystemHook(tx, created, now);
  return ok(created);
}
