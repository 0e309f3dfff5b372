/** In-memory `users.holdings` and `users.remove`, mirroring the SQL store's foreign-key cascades. */
import { dropProtectedRefs } from "./protected-refs.js";
import type { UserHoldings } from "../ports/store.js";
import { isActive } from "./access.js";
import type { MemoryState } from "./state.js";
import { fold } from "./text.js";
import { forgetMergeRequestPerson } from "./merge-request-extras.js";
import { forgetStatusAuthor } from "./statuses.js";
import { forgetReleaseAuthor } from "./releases.js";
import { forgetUploader } from "./uploads.js";
import { forgetResolver } from "./discussions.js";

/** What the user still holds (see UserRepository.holdings). */
export function userHoldings(state: MemoryState, id: number, now?: Date): UserHoldings {
  const user = state.users.get(id);
  const namespaceId = user?.namespaceId ?? null;
  const projects = namespaceId === null ? 0 : [...state.projects.values()].filter((p) => p.namespaceId === namespaceId).length;
  let soleOwnedGroups = 0;
  for (const member of state.members.values()) {
    if (member.userId !== id || member.sourceType !== "namespace" || member.accessLevel !== 50 || !isActive(member.expiresAt, now)) continue;
    const otherOwner = [...state.members.values()].some(
      (m) => m.sourceType === "namespace" && m.sourceId === member.sourceId && m.userId !== id && m.accessLevel === 50 && isActive(m.expiresAt, now),
    );
    if (!otherOwner) soleOwnedGroups += 1;
  }
  const { issues, mergeRequests, notes, snippets, events } = state.activity;
  const authoredRecords = [issues, mergeRequests, notes, snippets, events].reduce(
    (sum, table) => sum + [...table.values()].filter((row) => row.authorId === id).length,
    0,
  );
  return { projects, soleOwnedGroups, authoredRecords };
}

/** Deletes the user and everything the SQL store's cascades delete with them. */
export function removeUser(state: MemoryState, id: number): boolean {
  const user = state.users.get(id);
  if (user === undefined) return false;
  for (const [key, email] of state.emails) {
    if (email.userId !== id) continue;
    state.emails.delete(key);
    state.unique.emails.delete(fold(email.email));
  }
  for (const [key, member] of state.members) if (member.userId === id) state.members.delete(key);
  for (const [key, token] of state.tokens) {
    if (token.userId !== id) continue;
    state.tokens.delete(key);
    state.unique.digests.delete(token.digest);
    state.tokenPrevious.delete(key);
  }
  for (const [key, row] of state.notificationSettings.rows) if (row.userId === id) state.notificationSettings.rows.delete(key);
  const { issues, mergeRequests, notes, snippets, events } = state.activity;
  for (const table of [issues, mergeRequests, notes, snippets, events] as Map<number, { authorId: number }>[]) {
    for (const [key, row] of table) if (row.authorId === id) table.delete(key);
  }
  forgetReleaseAuthor(state, id);
  forgetUploader(state, id);
  removeOAuth(state, id);
  forgetStatusAuthor(state, id);
  forgetMergeRequestPerson(state, id);
  forgetResolver(state, id);
  if (user.namespaceId !== null) {
    const namespace = state.namespaces.get(user.namespaceId);
    if (namespace !== undefined) {
      state.namespaces.delete(namespace.id);
      state.unique.namespacePaths.delete(fold(namespace.fullPath));
    }
  }
  dropProtectedRefs(state, { userId: id });
  state.users.delete(id);
  state.unique.usernames.delete(fold(user.username));
  return true;
}

/** The user's OAuth codes and tokens, and the applications they own with those applications' codes and tokens. */
function removeOAuth(state: MemoryState, id: number): void {
  const o = state.oauth;
  const ownedApps = new Set<number>();
  for (const [key, app] of o.applications) {
    if (app.ownerId !== id) continue;
    ownedApps.add(key);
    o.applications.delete(key);
    o.unique.uids.delete(app.uid);
  }
  for (const [key, code] of o.codes) {
    if (code.userId !== id && !ownedApps.has(code.applicationId)) continue;
    o.codes.delete(key);
    o.unique.codes.delete(code.digest);
  }
  for (const [key, token] of o.tokens) {
    if (token.userId !== id && (token.applicationId === null || !ownedApps.has(token.applicationId))) continue;
    o.tokens.delete(key);
    o.unique.access.delete(token.accessDigest);
    if (token.refreshDigest !== null) o.unique.refresh.delete(token.refreshDigest);
  }
}
