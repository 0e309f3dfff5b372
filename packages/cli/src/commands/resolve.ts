/** Looks up the records commands name on the command line (ids, usernames, full paths). */
import { err, errAsync, ok, type ResultAsync } from "neverthrow";
import { errors, type Forgekit, type ForgekitError } from "@forgekit/core";

const notFoundNamespace: ForgekitError = errors.notFound("Namespace");

/**
 * The namespace id for `value`: a group (id or full path) or a user's personal namespace
 * (username). Neither → `not_found("Namespace")`.
 */
export function namespaceId(fk: Forgekit, value: string): ResultAsync<number, ForgekitError> {
  return fk.groups
    .findByIdOrPath(value)
    .map((group) => group.id)
    .orElse((e) => {
      if (e.code !== "not_found") return errAsync(e);
      if (/^\d+$/.test(value) || value.includes("/")) return errAsync(notFoundNamespace);
      return fk.users
        .findByUsername(value)
        .mapErr((e2) => (e2.code === "not_found" ? notFoundNamespace : e2))
        .andThen((user) => (user.namespaceId === null ? err(notFoundNamespace) : ok(user.namespaceId)));
    });
}
