/**
 * Credential checks for hosts that serve git over HTTPS or a container / package registry
 * (spec "Git over HTTPS"; issue 3 "Around the endpoints"):
 * - git: username `oauth2` with an OAuth access token, or any username with a personal,
 *   impersonation, project or group access token as the password; the token needs
 *   `read_repository` (clone/fetch) or `write_repository` (push; implies read) — or `api`; the user
 *   needs read access to the project (read) or Developer and a writable repository (write).
 * - registry: access tokens with `read_registry` / `write_registry` (or `api`); OAuth tokens never
 *   log in to a registry (spec).
 * Denials are values (`allowed: false` with a reason); only store failures are errors.
 */
import { errAsync, ok, type Result, type ResultAsync } from "neverthrow";
import { attempt } from "../accounts/service-kit.js";
import { tokenDigest } from "../accounts/token-string.js";
import { AccessLevel, type AccessTokenKind, type Project, type User } from "../accounts/types.js";
import { canReadProject, hasProjectAccess } from "../access/permissions.js";
import { IMPERSONATION_ENABLED } from "../accounts/settings.js";
import type { ForgekitConfig } from "../config.js";
import { errors, type ForgekitError } from "../errors.js";
import { isRecordId } from "../ids.js";
import type { OAuthTokenLookup } from "../auth/oauth-token-lookup.js";

/** The username that marks the password as an OAuth access token (spec). */
export const OAUTH_GIT_USERNAME = "oauth2";

export type GitAccess = "read" | "write";

/** Which project: by id or by full path (`group/project`, case-insensitive). */
export type GitProjectRef = { projectId: number } | { path: string };

export type GitCredentialsInput = { username: string; password: string; access: GitAccess } & GitProjectRef;

/** Why a credential check was refused. */
export type CredentialDenial =
  /** Unknown, expired or revoked token, wrong username for an OAuth token, or an inactive user. */
  | "bad_credentials"
  /** The token lacks the scope this access needs. */
  | "insufficient_scope"
  /** The project does not exist or the user cannot see it. */
  | "not_found"
  /** The user may see the project but not push to it. */
  | "forbidden"
  /** The repository is read-only (e.g. during a storage move). */
  | "read_only"
  /** OAuth tokens cannot log in to registries. */
  | "oauth_not_allowed";

/** How the password authenticated. */
export type CredentialSource = "oauth" | AccessTokenKind;

export type GitCredentialsResult =
  | { allowed: true; user: User; via: CredentialSource; project: Project; scopes: string[] }
  | { allowed: false; reason: CredentialDenial };

/** `fk.git`. */
export interface GitCredentialsService {
  /** Whether `password` (a token) lets `username` read or write the project's repository over HTTPS. */
  checkCredentials(input: GitCredentialsInput): ResultAsync<GitCredentialsResult, ForgekitError>;
}

export type RegistryAccess = "pull" | "push";

export type RegistryCredentialsResult =
  | { allowed: true; user: User; via: AccessTokenKind; scopes: string[] }
  | { allowed: false; reason: CredentialDenial };

/** `fk.registry`. */
export interface RegistryCredentialsService {
  /** Whether an access token lets the user pull from or push to the instance's registries; OAuth tokens are refused. */
  checkCredentials(input: { username: string; password: string; access: RegistryAccess }): ResultAsync<RegistryCredentialsResult, ForgekitError>;
}

/** A token that authenticated: its user, where it came from and its scopes. */
interface TokenOwner {
  user: User;
  via: CredentialSource;
  scopes: string[];
}

type Deps = Pick<ForgekitConfig, "store" | "clock" | "impersonationEnabled"> & { oauthTokens: OAuthTokenLookup };

const deny = (reason: CredentialDenial) => ({ allowed: false as const, reason });

const GIT_SCOPES: Record<GitAccess, readonly string[]> = { read: ["api", "read_repository", "write_repository"], write: ["api", "write_repository"] };
const REGISTRY_SCOPES: Record<RegistryAccess, readonly string[]> = { pull: ["api", "read_registry", "write_registry"], push: ["api", "write_registry"] };

async function activeUser(deps: Deps, userId: number): Promise<User | null> {
  const user = await deps.store.users.findById(userId);
  return user !== null && user.state === "active" ? user : null;
}

/** The owner of an OAuth access token that is neither expired nor revoked. */
async function oauthOwner(deps: Deps, raw: string, now: Date): Promise<TokenOwner | null> {
  const token = await deps.oauthTokens.find(raw);
  if (token === null || token.revokedAt !== null || (token.expiresAt !== null && token.expiresAt.getTime() <= now.getTime())) return null;
  const user = await activeUser(deps, token.userId);
  return user === null ? null : { user, via: "oauth", scopes: token.scopes };
}

/** The owner of a personal, impersonation, project or group access token that is still valid. */
async function accessTokenOwner(deps: Deps, raw: string, now: Date): Promise<(TokenOwner & { via: AccessTokenKind }) | null> {
  const token = await deps.store.accessTokens.findByDigest(tokenDigest(raw));
  if (token === null || token.revoked || (token.expiresAt !== null && token.expiresAt.getTime() <= now.getTime())) return null;
  if (token.kind === "impersonation") {
    const setting = await deps.store.settings.get(IMPERSONATION_ENABLED);
    if (!(setting === null ? deps.impersonationEnabled : setting !== "false")) return null;
  }
  const user = await activeUser(deps, token.userId);
  return user === null ? null : { user, via: token.kind, scopes: token.scopes };
}

async function findProject(deps: Deps, ref: GitProjectRef): Promise<Project | null> {
  return "projectId" in ref ? deps.store.projects.findById(ref.projectId) : deps.store.projects.findByFullPath(ref.path);
}

function validRef(input: GitProjectRef): boolean {
  return "projectId" in input ? Number.isSafeInteger(input.projectId) && input.projectId > 0 : typeof input.path === "string" && input.path !== "";
}

/** Ids outside the id range name no project (and never reach the store). */
const storableRef = (input: GitProjectRef): boolean => !("projectId" in input) || isRecordId(input.projectId);

/** Builds `fk.git`. */
export function gitCredentialsService(deps: Deps): GitCredentialsService {
  return {
    checkCredentials(input) {
      if (!validRef(input)) return errAsync(errors.invalidParam("project", "must be a project id or a full path"));
      if (input.access !== "read" && input.access !== "write") return errAsync(errors.invalidParam("access", "must be read or write"));
      return attempt(async (): Promise<Result<GitCredentialsResult, ForgekitError>> => {
        const now = deps.clock.now();
        // `oauth2` marks an OAuth token (spec); any other username means an access token.
        const owner = input.username === OAUTH_GIT_USERNAME ? await oauthOwner(deps, input.password, now) : await accessTokenOwner(deps, input.password, now);
        if (owner === null) return ok(deny("bad_credentials"));
        const project = storableRef(input) ? await findProject(deps, input) : null;
        if (project === null || !(await canReadProject(deps.store, owner.user, project, now))) return ok(deny("not_found"));
        if (!owner.scopes.some((s) => GIT_SCOPES[input.access].includes(s))) return ok(deny("insufficient_scope"));
        if (input.access === "write") {
          if (!(await hasProjectAccess(deps.store, owner.user, project, AccessLevel.Developer, now))) return ok(deny("forbidden"));
          if (project.repositoryReadOnly) return ok(deny("read_only"));
        }
        return ok({ allowed: true as const, user: owner.user, via: owner.via, project, scopes: owner.scopes });
      });
    },
  };
}

/** Builds `fk.registry`. */
export function registryCredentialsService(deps: Deps): RegistryCredentialsService {
  return {
    checkCredentials(input) {
      if (input.access !== "pull" && input.access !== "push") return errAsync(errors.invalidParam("access", "must be pull or push"));
      return attempt(async (): Promise<Result<RegistryCredentialsResult, ForgekitError>> => {
        const now = deps.clock.now();
        // Spec: OAuth tokens cannot log in to the container or package registry.
        if (input.username === OAUTH_GIT_USERNAME || (await deps.oauthTokens.find(input.password)) !== null) return ok(deny("oauth_not_allowed"));
        const owner = await accessTokenOwner(deps, input.password, now);
        if (owner === null) return ok(deny("bad_credentials"));
        if (!owner.scopes.some((s) => REGISTRY_SCOPES[input.access].includes(s))) return ok(deny("insufficient_scope"));
        return ok({ allowed: true as const, user: owner.user, via: owner.via, scopes: owner.scopes });
      });
    },
  };
}

