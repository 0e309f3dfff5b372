/**
 * What a command prints: a JSON value (for `--json`) and the same facts as text lines. Records are
 * rendered from the domain types with snake_case keys, as the REST API does, minus secrets
 * (password hashes and token digests never appear).
 */
import type { AccessToken, Membership, Namespace, Project, User } from "@forgekit/core";
import { accessLevelName } from "./values.js";

/** A command's result. */
export interface Output {
  json: unknown;
  text: string[];
}

const iso = (d: Date | null): string | null => (d === null ? null : d.toISOString());

/** A user as printed. */
export function userRecord(user: User): Record<string, unknown> {
  return {
    id: user.id,
    username: user.username,
    name: user.name,
    state: user.state,
    admin: user.admin,
    bot: user.bot,
    namespace_id: user.namespaceId,
    created_at: iso(user.createdAt),
  };
}

export function userLine(user: User): string {
  const flags = [user.state, user.admin ? "admin" : null, user.bot].filter((f) => f !== null).join(", ");
  return `user ${user.id} @${user.username} "${user.name}" (${flags})`;
}

export function groupRecord(group: Namespace): Record<string, unknown> {
  return {
    id: group.id,
    name: group.name,
    path: group.path,
    full_path: group.fullPath,
    parent_id: group.parentId,
    visibility: group.visibility,
    description: group.description,
    created_at: iso(group.createdAt),
  };
}

export function groupLine(group: Namespace): string {
  return `group ${group.id} ${group.fullPath} "${group.name}" (${group.visibility})`;
}

export function projectRecord(project: Project): Record<string, unknown> {
  return {
    id: project.id,
    name: project.name,
    path: project.path,
    path_with_namespace: project.fullPath,
    namespace_id: project.namespaceId,
    visibility: project.visibility,
    description: project.description,
    repository_storage: project.repositoryStorage,
    created_at: iso(project.createdAt),
  };
}

export function projectLine(project: Project): string {
  return `project ${project.id} ${project.fullPath} "${project.name}" (${project.visibility})`;
}

export function memberRecord(member: Membership): Record<string, unknown> {
  return {
    id: member.id,
    source_type: member.sourceType === "namespace" ? "group" : "project",
    source_id: member.sourceId,
    user_id: member.userId,
    access_level: member.accessLevel,
    access_level_name: accessLevelName(member.accessLevel),
    expires_at: iso(member.expiresAt),
  };
}

export function tokenRecord(token: AccessToken): Record<string, unknown> {
  return {
    id: token.id,
    kind: token.kind,
    name: token.name,
    user_id: token.userId,
    resource_id: token.resourceId,
    scopes: token.scopes,
    expires_at: token.expiresAt === null ? null : token.expiresAt.toISOString().slice(0, 10),
    revoked: token.revoked,
    created_at: iso(token.createdAt),
  };
}

export function tokenLine(token: AccessToken): string {
  const state = token.revoked ? "revoked" : "active";
  const expiry = token.expiresAt === null ? "never expires" : `expires ${token.expiresAt.toISOString().slice(0, 10)}`;
  return `token ${token.id} ${token.kind} "${token.name}" for user ${token.userId} [${token.scopes.join(", ")}] (${state}, ${expiry})`;
}

/** Writes `output` as JSON (one document) or as its text lines. */
export function render(output: Output, json: boolean): string {
  return json ? `${JSON.stringify(output.json, null, 2)}\n` : output.text.map((l) => `${l}\n`).join("");
}
