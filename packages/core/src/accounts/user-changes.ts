/**
 * Changes to an existing user that the administrator API and the host make: password, primary
 * e-mail, secondary e-mail removal, and deletion (reference `Users::DestroyService`, without its
 * ghost user: a user who still holds records is refused instead, see {@link UserChanges.remove}).
 */
import { err, errAsync, ok, type Result, type ResultAsync } from "neverthrow";
import type { ForgekitConfig } from "../config.js";
import { errors, type ForgekitError } from "../errors.js";
import { isRecordId } from "../ids.js";
import type { TransactionStore, UserPatch } from "../ports/store.js";
import { attempt, fromStore, inTransaction, Messages, TAKEN, tooShort } from "./service-kit.js";
import type { Email, User } from "./types.js";
import { checkEmail, checkName, checkPath } from "./validation.js";

/** Shortest password accepted (reference default `password_minimum_length`). */
export const MIN_PASSWORD = 8;

/** The 409 message of a user who cannot be deleted, with the reason (reference wording for the sole-owner case). */
export const SOLE_OWNER_MESSAGE = "User cannot be removed while is the sole-owner of a group";
export const HAS_PROJECTS_MESSAGE = "User cannot be removed while their personal namespace holds projects";
export const HAS_RECORDS_MESSAGE =
  "User cannot be removed while they are the author of issues, merge requests, notes, snippets or events; block the user instead, or delete their contributions with hard_delete";

/** Input of {@link UserChanges.updateAccount}: every field optional. */
export interface UpdateAccountInput {
  username?: string;
  name?: string;
  /** The new primary address (confirmed). */
  email?: string;
  password?: string;
  admin?: boolean;
  privateProfile?: boolean;
}

/** 409 messages of `updateAccount` (reference wording for the taken ones). */
export const USERNAME_TAKEN_MESSAGE = "Username has already been taken";
export const EMAIL_TAKEN_MESSAGE = "Email has already been taken";
export const RENAME_WITH_PROJECTS_MESSAGE = "Username cannot be changed while the personal namespace holds projects";

/** The methods this file adds to the users service. */
export interface UserChanges {
  /**
   * The administrator's update (reference `PUT /users/:id`): validates every field (400 with the
   * messages map), hashes a new password, then applies all changes in one transaction. A username or
   * address of someone else → 409 `Username has already been taken` / `Email has already been
   * taken`; a rename while the personal namespace holds projects → 409 (project paths are not moved).
   */
  updateAccount(id: number, input: UpdateAccountInput): ResultAsync<User, ForgekitError>;
  /** Sets a new password (at least 8 characters; `{"password":["is too short …"]}` otherwise). */
  changePassword(id: number, password: string): ResultAsync<User, ForgekitError>;
  /** Clears the password: the user can no longer sign in with one (SSO only, or a host-side reset). */
  clearPassword(id: number): ResultAsync<User, ForgekitError>;
  /**
   * Makes `email` the primary address (confirmed). An address of this user becomes primary; an
   * address of another user is `{"email":["has already been taken"]}`.
   */
  changeEmail(id: number, email: string): ResultAsync<Email, ForgekitError>;
  /**
   * Removes one of the user's addresses: `not_found("Email")` when the user has no such address;
   * the primary address cannot be removed (`{"email":["cannot remove the primary email address"]}`).
   */
  removeEmail(userId: number, emailId: number): ResultAsync<void, ForgekitError>;
  /**
   * Marks one of the user's addresses confirmed (forgekit sends no confirmation mail: the host
   * confirms, e.g. after its own link was followed). `not_found("Email")` for another user's address.
   */
  confirmEmail(userId: number, emailId: number): ResultAsync<Email, ForgekitError>;
  /** Renames the user and their personal namespace (as `updateAccount` with only a username). */
  rename(id: number, username: string): ResultAsync<User, ForgekitError>;
  /**
   * Deletes the user, their personal namespace, e-mails, memberships and tokens. Refused with 409
   * while they are the only Owner of a group or have projects in their namespace, and while they
   * authored records unless `hardDelete` (reference `hard_delete`: their contributions are deleted
   * with them). forgekit keeps no ghost user to hand contributions to: block the user instead.
   */
  remove(id: number, options?: { hardDelete?: boolean }): ResultAsync<void, ForgekitError>;
}

/**
 * Renames `user` (and their personal namespace) inside `tx`: the 409 that refuses it (the personal
 * namespace holds projects, or the username is taken), `null` when renamed or unchanged. A refusal
 * writes nothing, so the transaction may go on with other changes.
 */
export async function renameIn(tx: TransactionStore, user: User, username: string, now: Date): Promise<ForgekitError | null> {
  if (username === user.username) return null;
  if ((await tx.users.holdings(user.id)).projects > 0) return errors.conflict(RENAME_WITH_PROJECTS_MESSAGE);
  const renamed = await tx.users.rename(user.id, username, now);
  return renamed === "renamed" ? null : renamed === "taken" ? errors.conflict(USERNAME_TAKEN_MESSAGE) : errors.notFound("User");
}

/**
 * Makes `email` the user's confirmed primary address inside `tx` (their own secondary address is
 * promoted): 409 when another user holds it, `null` when done or already primary.
 */
export async function makePrimaryIn(tx: TransactionStore, userId: number, email: string, now: Date): Promise<ForgekitError | null> {
  const existing = await tx.emails.findByEmail(email);
  if (existing && existing.userId !== userId) return errors.conflict(EMAIL_TAKEN_MESSAGE);
  if (existing?.primary) return null;
  if (existing) await tx.emails.remove(existing.id);
  return (await tx.emails.add({ userId, email, primary: true, confirmedAt: now }, now)) ? null : errors.conflict(EMAIL_TAKEN_MESSAGE);
}

/** Builds the user changes over the configured store. */
export function userChanges(config: ForgekitConfig): UserChanges {
  const { store, clock, passwordHasher } = config;
  const exists = (id: number): ResultAsync<User, ForgekitError> =>
    isRecordId(id) ? fromStore(store.users.findById(id)).andThen((u) => (u ? ok(u) : err(errors.notFound("User")))) : errAsync(errors.notFound("User"));
  const setHash = (id: number, passwordHash: string | null) =>
    fromStore(store.users.update(id, { passwordHash, updatedAt: clock.now() })).andThen((u) => (u ? ok(u) : err(errors.notFound("User"))));

  const changes: UserChanges = {
    updateAccount(id, input) {
      const messages = new Messages();
      if (input.username !== undefined) checkPath(messages, "username", input.username);
      if (input.name !== undefined) checkName(messages, "name", input.name);
      if (input.email !== undefined) checkEmail(messages, "email", input.email);
      if (input.password !== undefined && input.password.length < MIN_PASSWORD) messages.add("password", tooShort(MIN_PASSWORD));
      return messages
        .result(input)
        .asyncAndThen(() => exists(id))
        .andThen(() => attempt(async () => ok(input.password === undefined ? undefined : await passwordHasher.hash(input.password))))
        .andThen((passwordHash) =>
          inTransaction(store, async (tx): Promise<Result<User, ForgekitError>> => {
            const now = clock.now();
            const user = await tx.users.findById(id);
            if (!user) return err(errors.notFound("User"));
            const refused = (input.username === undefined ? null : await renameIn(tx, user, input.username, now)) ?? (input.email === undefined ? null : await makePrimaryIn(tx, id, input.email, now));
            if (refused) return err(refused);
            const patch: UserPatch = { updatedAt: now };
            if (input.name !== undefined) patch.name = input.name;
            if (input.admin !== undefined) patch.admin = input.admin;
            if (input.privateProfile !== undefined) patch.privateProfile = input.privateProfile;
            if (passwordHash !== undefined) patch.passwordHash = passwordHash;
            const updated = await tx.users.update(id, patch);
            return updated ? ok(updated) : err(errors.notFound("User"));
          }),
        );
    },
    changePassword(id, password) {
      const messages = new Messages();
      if (password.length < MIN_PASSWORD) messages.add("password", tooShort(MIN_PASSWORD));
      return messages
        .result(password)
        .asyncAndThen(() => exists(id))
        // Hash outside any transaction: scrypt is slow.
        .andThen(() => attempt(async () => ok(await passwordHasher.hash(password))))
        .andThen((hash) => setHash(id, hash));
    },
    clearPassword: (id) => exists(id).andThen(() => setHash(id, null)),
    changeEmail(id, email) {
      const messages = new Messages();
      checkEmail(messages, "email", email);
      return messages.result(email).asyncAndThen(() =>
        inTransaction(store, async (tx) => {
          const now = clock.now();
          if (!(await tx.users.findById(id))) return err(errors.notFound("User"));
          const existing = await tx.emails.findByEmail(email);
          if (existing && existing.userId !== id) return err(errors.validation({ email: [TAKEN] }));
          if (existing?.primary) return ok(existing);
          // The user's own secondary address is promoted: removed and added again as the primary.
          if (existing) await tx.emails.remove(existing.id);
          const row = await tx.emails.add({ userId: id, email, primary: true, confirmedAt: now }, now);
          return row ? ok(row) : err(errors.validation({ email: [TAKEN] }));
        }),
      );
    },
    removeEmail: (userId, emailId) =>
      inTransaction(store, async (tx) => {
        const email = (await tx.emails.listByUser(userId)).find((e) => e.id === emailId);
        if (!email) return err(errors.notFound("Email"));
        if (email.primary) return err(errors.validation({ email: ["cannot remove the primary email address"] }));
        await tx.emails.remove(email.id);
        return ok(undefined);
      }),
    confirmEmail: (userId, emailId) =>
      attempt(async () => {
        const owned = (await store.emails.listByUser(userId)).some((e) => e.id === emailId);
        const email = owned ? await store.emails.confirm(emailId, clock.now()) : null;
        return email ? ok(email) : err(errors.notFound("Email"));
      }),
    rename: (id, username) => changes.updateAccount(id, { username }),
    remove: (id, options = {}) =>
      inTransaction(store, async (tx) => {
        if (!(await tx.users.findById(id))) return err(errors.notFound("User"));
        const holdings = await tx.users.holdings(id, clock.now());
        if (holdings.soleOwnedGroups > 0) return err(errors.conflict(SOLE_OWNER_MESSAGE));
        if (holdings.projects > 0) return err(errors.conflict(HAS_PROJECTS_MESSAGE));
        if (holdings.authoredRecords > 0 && options.hardDelete !== true) return err(errors.conflict(HAS_RECORDS_MESSAGE));
        await tx.users.remove(id);
        return ok(undefined);
      }),
  };
  return changes;
}
