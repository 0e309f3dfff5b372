/**
 * Users mirrored from the host's own user table (issue 13 "Users"): the host keeps its users and
 * calls `fk.users.sync(...)` whenever one signs in or changes; forgekit keeps a user per
 * `externalId` (the host's id), so the host's session resolver can answer with the host's id and
 * no id map is needed anywhere.
 */
import { err, errAsync, ok, type ResultAsync } from "neverthrow";
import type { ForgekitConfig } from "../config.js";
import { errors, type ForgekitError } from "../errors.js";
import { isStorableText } from "../storable.js";
import type { UserPatch } from "../ports/store.js";
import { fromStore, inTransaction, Messages } from "./service-kit.js";
import type { User } from "./types.js";
import type { CreateUserInput } from "./create-user-input.js";
import { makePrimaryIn, renameIn } from "./user-changes.js";
import { checkEmail, checkName, checkPath } from "./validation.js";

/** Longest host id (the column is varchar(255)). */
export const EXTERNAL_ID_MAX = 255;

/** What the host knows about one of its users. */
export interface SyncUserInput {
  /** The host's id for the user: 1–255 characters, stable for the user's lifetime. */
  externalId: string;
  username: string;
  name: string;
  /** Primary e-mail (confirmed: the host vouches for it). */
  email: string;
  /** Default: unchanged for a known user, false for a new one. */
  admin?: boolean;
  /** `active` or `blocked` (default: unchanged for a known user, active for a new one). */
  state?: "active" | "blocked";
}

/** The methods `fk.users` gains for hosts with their own users. */
export interface UserSync {
  /**
   * Creates the user the host knows as `externalId`, or brings the existing one up to date
   * (username — with its personal namespace —, name, primary e-mail, admin flag, blocked or active)
   * and returns it. Idempotent: syncing the same data again changes nothing. A username or e-mail
   * another user holds is 409 (as `PUT /users/:id`), so is a rename while the user's personal
   * namespace holds projects; bad values are 400 with the messages map. For a known user a refusal
   * holds back only the refused field: the state (blocked or active), the admin flag and every other
   * valid field are applied first, in the same transaction, and the refusal is returned after they
   * committed. A host's block or demotion is never lost; correct the refused field and sync again.
   */
  sync(input: SyncUserInput): ResultAsync<User, ForgekitError>;
  /** The user the host knows as `externalId`; `not_found("User")` when there is none. */
  findByExternalId(externalId: string): ResultAsync<User, ForgekitError>;
}

const validExternalId = (value: unknown): value is string => typeof value === "string" && value.length >= 1 && value.length <= EXTERNAL_ID_MAX && isStorableText(value);

/** Builds the sync methods; `create` is the users service's own (validation, namespace, e-mail). */
export function userSync(config: ForgekitConfig, create: (input: CreateUserInput) => ResultAsync<User, ForgekitError>): UserSync {
  const { store } = config;

  const findByExternalId = (externalId: string): ResultAsync<User, ForgekitError> =>
    validExternalId(externalId)
      ? fromStore(store.users.findByExternalId(externalId)).andThen((u) => (u ? ok(u) : err(errors.notFound("User"))))
      : errAsync(errors.notFound("User"));

  /**
   * Brings a known user up to date in one transaction. The host's word on access (blocked or
   * active, admin) always applies; each other field that is invalid or cannot be applied (a taken
   * username or e-mail, a rename while the personal namespace holds projects) is refused on its own
   * and the rest still applies, so a refused field never keeps a blocked user active (issue #23).
   * The result is the user, or the refusal once the rest committed: a validation error naming every
   * invalid field, else the first 409.
   */
  function update(known: User, input: SyncUserInput): ResultAsync<User, ForgekitError> {
    const invalid = new Messages();
    checkPath(invalid, "username", input.username);
    checkName(invalid, "name", input.name);
    checkEmail(invalid, "email", input.email);
    return inTransaction(store, async (tx) => {
      const now = config.clock.now();
      const user = await tx.users.findById(known.id);
      if (!user) return err(errors.notFound("User"));
      const patch: UserPatch = {};
      if (input.state !== undefined && input.state !== user.state) patch.state = input.state;
      if (input.admin !== undefined && input.admin !== user.admin) patch.admin = input.admin;
      if (!invalid.has("name") && input.name !== user.name) patch.name = input.name;
      if (Object.keys(patch).length > 0 && !(await tx.users.update(user.id, { ...patch, updatedAt: now }))) return err(errors.notFound("User"));
      const conflicts = [
        invalid.has("username") ? null : await renameIn(tx, user, input.username, now),
        invalid.has("email") ? null : await makePrimaryIn(tx, user.id, input.email, now),
      ].filter((refusal) => refusal !== null);
      const updated = await tx.users.findById(user.id);
      if (!updated) return err(errors.notFound("User"));
      const refused = invalid.result(null).andThen(() => (conflicts[0] ? err(conflicts[0]) : ok(null)));
      return ok({ updated, refused });
    }).andThen(({ updated, refused }) => refused.map(() => updated));
  }

  return {
    findByExternalId,
    sync(input) {
      const messages = new Messages();
      if (!validExternalId(input.externalId)) messages.add("external_id", `must be 1 to ${EXTERNAL_ID_MAX} characters`);
      if (input.state !== undefined && input.state !== "active" && input.state !== "blocked") messages.add("state", "must be active or blocked");
      return messages
        .result(input)
        .asyncAndThen(() => fromStore(store.users.findByExternalId(input.externalId)))
        .andThen((existing) => {
          if (existing === null) {
            return create({
              externalId: input.externalId,
              username: input.username,
              name: input.name,
              email: input.email,
              admin: input.admin ?? false,
              state: input.state ?? "active",
            });
          }
          return update(existing, input);
        });
    },
  };
}
