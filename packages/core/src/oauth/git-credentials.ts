/**
 * Credential checks for hosts that serve git over HTTPS or a container / package registry
 * (spec "Git over HTTPS"; issue 3 "Around the endpoints"; issue 9 §2). The git HTTP capability
 * (`git-http/`) asks this service and nothing else.
 * - git: username `oauth2` with an OAuth access token, or any username with a personal,
 *   impersonation, project or group access token as the password (the reference ignores the
 *   username for access tokens: the token names its user), or a username (or e-mail) and password
 *   when `passwordAuthenticationForGit` is on (reference `password_authentication_enabled_for_git`,
 *   default on; tried last, throttled like the OAuth password grant, refused for two-factor users).
 *   Tokens need `read_repository` (clone/fetch) or `write_repository` (push; implies read) — or
 *   `api`; a password has every scope. Reading needs Reporter on a private project (any signed-in
 *   user on an internal one, anyone on a public one); writing needs Developer and a writable
 *   repository. Without credentials (no username and password) only public projects can be read.
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
import { isStorableText } from "../storable.js";
import type { OAuthTokenLookup } from "../auth/oauth-token-lookup.js";
import { rateLimitKeys, type RateLimiter } from "./rate-limiter.js";

/** The username that marks the password as an OAuth access token (spec). */
export const OAUTH_GIT_USERNAME = "oauth2";

/** Whether a git request reads (clone, fetch) or writes (push) the repository. */
export type GitAccess = "read" | "write";

/** Which project: by id or by full path (`group/project`, case-insensitive). */
export type GitProjectRef = { projectId: number } | { path: string };

/**
 * What to check. `username` and `password` absent (both) = an anonymous request. `remoteAddress`
 * keys the password throttle (per username + address and per address, as the password grant).
 */
export type GitCredentialsInput = { username?: string; password?: string; access: GitAccess; remoteAddress?: string } & GitProjectRef;

/** Why a credential check was refused. */
export type CredentialDenial =
  /**
   * Unknown, expired or revoked token, wrong username for an OAuth token, wrong password (or
   * password auth for git off, or a two-factor user's password), or an inactive user.
   */
  | "bad_credentials"
  /** No credentials were given and the request needs them (a push, or a project that is not public or does not exist). */
  | "credentials_required"
  /** Too many failed password attempts for this username or address: try again in `retryAfter` seconds. */
  | "rate_limited"
  /** The token lacks the scope this access needs. */
  | "insufficient_scope"
  /** The project does not exist or the user cannot see it. */
  | "not_found"
  /** The user may see the project but not read its code (Guest of a private project) or not push to it. */
  | "forbidden"
  /** The repository is read-only (e.g. during a storage move). */
  | "read_only"
  /** OAuth tokens cannot log in to registries. */
  | "oauth_not_allowed";

/** How the password authenticated: an OAuth token, an access token of a kind, or the user's own password. */
export type CredentialSource = "oauth" | AccessTokenKind | "password";

/**
 * The answer of `fk.git.checkCredentials`: allowed (with the user, how they authenticated, the project and
 * scopes) or refused with a reason.
 */
export type GitCredentialsResult =
  | { allowed: true; user: User; via: CredentialSource; project: Project; scopes: string[] }
  /** An anonymous read of a public project. */
  | { allowed: true; user: null; via: "anonymous"; project: Project; scopes: [] }
  | { allowed: false; reason: CredentialDenial; retryAfter?: number };

/** `fk.git`. */
export interface GitCredentialsService {
  /**
   * Whether `username` + `password` (a token, or the user's password) — or no credentials at all —
   * let the caller read or write the project's repository over HTTPS.
   */
  checkCredentials(input: GitCredentialsInput): ResultAsync<GitCredentialsResult, ForgekitError>;
}

/** Whether a registry request pulls or pushes. */
export type RegistryAccess = "pull" | "push";

/**
 * The answer of `fk.registry.checkCredentials`: allowed (with the user, the token kind and scopes) or
 * refused with a reason.
 */
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

/** What password logins for git need besides {@link Deps} (absent: passwords are never accepted). */
export interface GitPasswordDeps {
  /** `passwordAuthenticationForGit` of the configuration. */
  enabled: boolean;
  /** The OAuth password grant's verifier: same timing for unknown users and wrong passwords. */
  verifyPassword(login: string, password: string): Promise<Pick<User, "id" | "state" | "twoFactorEnabled"> | null>;
  /** The OAuth password grant's failure counter, shared so that both count one attacker once. */
  rateLimiter: RateLimiter;
  /** Failures allowed per address (`oauth.rateLimit.maxFailuresPerAddress`). */
  maxFailuresPerAddress: number;
}

const deny = (reason: CredentialDenial) => ({ allowed: false as const, reason });

const GIT_SCOPES: Record<GitAccess, readonly string[]> = { read: ["api", "read_repository", "write_repository"], write: ["api", "write_repository"] };
/** A password stands for the user, with every ability (reference `full_authentication_abilities`). */
const PASSWORD_SCOPES = ["api"];
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

/** Ids outside the id range and paths no store can hold (a NUL byte) name no project, and never reach the store. */
const storableRef = (input: GitProjectRef): boolean => ("projectId" in input ? isRecordId(input.projectId) : isStorableText(input.path));

/** The owner of the user's own password, throttled per username + address and per address (as the password grant). */
async function passwordOwner(deps: Deps, password: GitPasswordDeps, input: { username: string; password: string; remoteAddress?: string }, now: Date): Promise<TokenOwner | { retryAfter: number } | null> {
  if (!password.enabled || input.username === "" || input.password === "") return null;
  const userKey = rateLimitKeys.password(input.username, input.remoteAddress);
  const addressKey = input.remoteAddress === undefined ? null : rateLimitKeys.address(input.remoteAddress);
  const waits = await Promise.all([
    password.rateLimiter.retryAfter(userKey, now),
    addressKey === null ? 0 : password.rateLimiter.retryAfter(addressKey, now, password.maxFailuresPerAddress),
  ]);
  const wait = Math.max(...waits);
  if (wait > 0) return { retryAfter: wait };
  const verified = await password.verifyPassword(input.username, input.password);
  // Reference: a two-factor user must use a token (MissingPersonalAccessTokenError → 401).
  const user = verified === null || verified.twoFactorEnabled ? null : await activeUser(deps, verified.id);
  if (user === null) {
    await Promise.all([userKey, ...(addressKey === null ? [] : [addressKey])].map((k) => password.rateLimiter.recordFailure(k, now)));
    return null;
  }
  // Only the user's own count (see grants/password.ts: a success must not wipe an address's record).
  await password.rateLimiter.reset(userKey);
  return { user, via: "password", scopes: PASSWORD_SCOPES };
}

/**
 * Who the credentials name, in the reference's order (`Gitlab::Auth.find_for_git_client`): an
 * OAuth token (username `oauth2` only, spec), an access token (any username), the password last.
 */
async function credentialOwner(deps: Deps, password: GitPasswordDeps | undefined, input: { username: string; password: string; remoteAddress?: string }, now: Date): Promise<TokenOwner | { retryAfter: number } | null> {
  // Text no store can hold names nobody (and never reaches a lookup or the throttle's keys).
  if (input.password === "" || !isStorableText(input.username) || !isStorableText(input.password)) return null;
  if (input.username === OAUTH_GIT_USERNAME) {
    const owner = await oauthOwner(deps, input.password, now);
    if (owner !== null) return owner;
  }
  const owner = await accessTokenOwner(deps, input.password, now);
  if (owner !== null) return owner;
  return password === undefined ? null : passwordOwner(deps, password, input, now);
}

/** Whether the user may read the project's code: anyone on public, signed-in users on internal, Reporter+ on private (reference `download_code`). */
async function canDownload(deps: Deps, user: User, project: Project, now: Date): Promise<boolean> {
  return project.visibility !== "private" || (await hasProjectAccess(deps.store, user, project, AccessLevel.Reporter, now));
}

/** Builds `fk.git`; without `password`, passwords are never accepted. */
export function gitCredentialsService(deps: Deps, password?: GitPasswordDeps): GitCredentialsService {
  return {
    checkCredentials(input) {
      if (!validRef(input)) return errAsync(errors.invalidParam("project", "must be a project id or a full path"));
      if (input.access !== "read" && input.access !== "write") return errAsync(errors.invalidParam("access", "must be read or write"));
      if ((input.username === undefined) !== (input.password === undefined)) return errAsync(errors.invalidParam("password", "username and password go together"));
      return attempt(async (): Promise<Result<GitCredentialsResult, ForgekitError>> => {
        const now = deps.clock.now();
        const project = storableRef(input) ? await findProject(deps, input) : null;
        if (input.username === undefined || input.password === undefined) {
          // Anonymous: reads of public projects only (reference `http_download_allowed?`); anything else asks for credentials.
          if (input.access === "read" && project !== null && project.visibility === "public") return ok({ allowed: true as const, user: null, via: "anonymous" as const, project, scopes: [] as [] });
          return ok(deny("credentials_required"));
        }
        const found = await credentialOwner(deps, password, { username: input.username, password: input.password, ...(input.remoteAddress === undefined ? {} : { remoteAddress: input.remoteAddress }) }, now);
        if (found !== null && "retryAfter" in found) return ok({ allowed: false as const, reason: "rate_limited" as const, retryAfter: found.retryAfter });
        const owner = found;
        if (owner === null) return ok(deny("bad_credentials"));
        if (project === null || !(await canReadProject(deps.store, owner.user, project, now))) return ok(deny("not_found"));
        if (!owner.scopes.some((s) => GIT_SCOPES[input.access].includes(s))) return ok(deny("insufficient_scope"));
        if (input.access === "read" && !(await canDownload(deps, owner.user, project, now))) return ok(deny("forbidden"));
        if (input.access === "write") {
          // Reference order (`check_push_access!`): read-only first, then the role.
          if (project.repositoryReadOnly) return ok(deny("read_only"));
          if (!(await hasProjectAccess(deps.store, owner.user, project, AccessLevel.Developer, now))) return ok(deny("forbidden"));
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

