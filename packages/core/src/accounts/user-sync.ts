/**
 * Users mirrored from the host's own user table (issue 13 "Users"): the host keeps its users and
 * calls `fk.users.sync(...)` whenever one signs in or changes; forgekit keeps a user per
 * `externalId` (the host's id), so the host's session resolver can answer with the host's id and
 * no id map is needed anywhere.
 */
import { err, errAsync, ok, okAsync, type ResultAsync } from "neverthrow";
import type { ForgekitConfig } from "../config.js";
import { errors, type ForgekitError } from "../errors.js";
import { isStorableText } from "../storable.js";
import { fromStore, Messages } from "./service-kit.js";
import type { User } from "./types.js";
import type { CreateUserInput } from "./users.js";
import { userChanges, type UpdateAccountInput } from "./user-changes.js";

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
   * another user holds is 409 (as `PUT /users/:id`); bad values are 400 with the messages map.
   */
  sync(input: SyncUserInput): ResultAsync<User, ForgekitError>;
  /** The user the host knows as `externalId`; `not_found("User")` when there is none. */
  findByExternalId(externalId: string): ResultAsync<User, ForgekitError>;
}

const validExternalId = (value: unknown): value is string => typeof value === "string" && value.length >= 1 && value.length <= EXTERNAL_ID_MAX && isStorableText(value);

/** Builds the sync methods; `create` is the users service's own (validation, namespace, e-mail). */
export function userSync(config: ForgekitConfig, create: (input: CreateUserInput) => ResultAsync<User, ForgekitError>): UserSync {
  const { store } = config;
  const changes = userChanges(config);

  const findByExternalId = (externalId: string): ResultAsync<User, ForgekitError> =>
    validExternalId(externalId)
      ? fromStore(store.users.findByExternalId(externalId)).andThen((u) => (u ? ok(u) : err(errors.notFound("User"))))
      : errAsync(errors.notFound("User"));

  /** The account changes that make `user` match `input` (only what differs). */
  async function differences(user: User, input: SyncUserInput): Promise<UpdateAccountInput> {
    const update: UpdateAccountInput = {};
    if (user.username !== input.username) update.username = input.username;
    if (user.name !== input.name) update.name = input.name;
    if (input.admin !== undefined && user.admin !== input.admin) update.admin = input.admin;
    const primary = await store.emails.primaryFor(user.id);
    if (primary?.email.toLowerCase() !== input.email.toLowerCase()) update.email = input.email;
    return update;
  }

  /** Blocks or unblocks as the host says (a deactivated user the host calls active is activated). */
  function applyState(user: User, state: SyncUserInput["state"]): ResultAsync<User, ForgekitError> {
    if (state === undefined || user.state === state) return okAsync(user);
    const patchState = (next: "active" | "blocked") => fromStore(store.users.update(user.id, { state: next, updatedAt: config.clock.now() })).andThen((u) => (u ? ok(u) : err(errors.notFound("User"))));
    return patchState(state);
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
          return fromStore(differences(existing, input))
            .andThen((update) => (Object.keys(update).length === 0 ? okAsync(existing) : changes.updateAccount(existing.id, update)))
            .andThen((user) => applyState(user, input.state));
        });
    },
  };
}
