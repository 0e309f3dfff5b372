/**
 * Access tokens: personal, impersonation (admin-made), project and group tokens (each backed by a
 * bot user created in the same transaction). Only the SHA-256 digest is stored; the plaintext is
 * returned once, from the create call.
 */
import { err, errAsync, ok, okAsync, type Result, type ResultAsync } from "neverthrow";
import { isTokenScope } from "../auth/scopes.js";
import type { ForgekitConfig } from "../config.js";
import { errors, type ForgekitError } from "../errors.js";
import type { TokenListFilter, TransactionStore } from "../ports/store.js";
import { addMember } from "./members.js";
import { attempt, BLANK, fromStore, inTransaction, Messages } from "./service-kit.js";
import { generateToken, randomHex, tokenDigest } from "./token-string.js";
import { AccessLevel, type AccessToken, type AccessTokenKind, type User } from "./types.js";
import { checkName } from "./validation.js";

/** Common input of the create methods. */
export interface CreateTokenInput {
  name: string;
  scopes: string[];
  /** `YYYY-MM-DD` (or a Date, of which the UTC day counts); the token works through the end of that day, UTC. Null/absent: no expiry. */
  expiresAt?: string | Date | null;
}

/** Input of project and group token creation. */
export interface CreateResourceTokenInput extends CreateTokenInput {
  /** The bot's membership level; default Maintainer (40). */
  accessLevel?: number;
}

/** A freshly created token: the row and its plaintext (shown once). */
export interface CreatedToken {
  token: AccessToken;
  plaintext: string;
}

/** A project/group token with the bot user created for it. */
export interface CreatedResourceToken extends CreatedToken {
  bot: User;
}

/** Access tokens service (host API: `fk.tokens`). */
export interface TokensService {
  createPersonal(userId: number, input: CreateTokenInput): ResultAsync<CreatedToken, ForgekitError>;
  /** Only administrators create impersonation tokens: `actingUser` must be an admin (else 403). */
  createImpersonation(actingUser: User, userId: number, input: CreateTokenInput): ResultAsync<CreatedToken, ForgekitError>;
  /** Creates bot `project_<id>_bot_<hex>`, its project membership and the token, in one transaction. */
  createProjectToken(projectId: number, input: CreateResourceTokenInput): ResultAsync<CreatedResourceToken, ForgekitError>;
  /** Creates bot `group_<id>_bot_<hex>`, its group membership and the token, in one transaction. */
  createGroupToken(groupId: number, input: CreateResourceTokenInput): ResultAsync<CreatedResourceToken, ForgekitError>;
  /**
   * Revokes the token and issues its successor (same kind, user, name, scopes and project/group) in
   * one transaction. The successor expires at `expiresAt`, by default one week after rotation
   * (reference `RotateService`). A revoked token → 400 `Token already revoked`, and every token
   * rotated from it since is revoked as well (a rotated-away token being rotated again has leaked).
   */
  rotate(id: number, options?: { expiresAt?: string | Date | null }): ResultAsync<CreatedToken, ForgekitError>;
  /** `not_found("Token")` when missing; revoking a revoked token is a no-op. */
  revoke(id: number): ResultAsync<AccessToken, ForgekitError>;
  /** `not_found("Token")` when missing. */
  findById(id: number): ResultAsync<AccessToken, ForgekitError>;
  /** Ordered by id. `state` filters use the configured clock. */
  list(filter: TokenListFilter): ResultAsync<AccessToken[], ForgekitError>;
}

const DAY_MS = 86_400_000;
/** Default lifetime of a rotated token (reference `RotateService::EXPIRATION_PERIOD`). */
const ROTATION_PERIOD_MS = 7 * DAY_MS;

/** The stored instant for an expiry day: the last millisecond of that UTC day. */
export function endOfUtcDay(day: Date): Date {
  return new Date(Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate()) + DAY_MS - 1);
}

/** Parses an expiry input; `undefined` marks a malformed value. */
export function parseExpiry(value: string | Date | null | undefined): Date | null | undefined {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? undefined : endOfUtcDay(value);
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return undefined;
  const day = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
  // Reject rolled-over dates such as 2024-02-31.
  if (day.toISOString().slice(0, 10) !== value) return undefined;
  return endOfUtcDay(day);
}

/** Whether the token is usable at `now` (not revoked, not past its expiry). */
export function tokenActive(token: AccessToken, now: Date): boolean {
  return !token.revoked && (token.expiresAt === null || token.expiresAt.getTime() > now.getTime());
}

interface Checked {
  name: string;
  scopes: string[];
  expiresAt: Date | null;
}

const ALREADY_REVOKED = "Token already revoked";
const alreadyRevoked = (): ForgekitError => errors.badRequest(ALREADY_REVOKED);
const isAlreadyRevoked = (error: ForgekitError): boolean => error.code === "bad_request" && error.reason === ALREADY_REVOKED;

/** Validates name, scopes and expiry; sudo only for administrators (reference §2.1). */
function checkInput(input: CreateTokenInput, owner: { admin: boolean }, now: Date): Result<Checked, ForgekitError> {
  const messages = new Messages();
  checkName(messages, "name", input.name);
  if (input.scopes.length === 0) messages.add("scopes", BLANK);
  else if (!input.scopes.every(isTokenScope)) messages.add("scopes", "can only contain available scopes");
  else if (input.scopes.includes("sudo") && !owner.admin) messages.add("scopes", "sudo can only be enabled for administrators");
  const expiresAt = parseExpiry(input.expiresAt);
  if (expiresAt === undefined) messages.add("expires_at", "is invalid");
  else if (expiresAt !== null && expiresAt.getTime() <= now.getTime()) messages.add("expires_at", "must be in the future");
  return messages.result({ name: input.name, scopes: [...new Set(input.scopes)], expiresAt: expiresAt ?? null });
}

/** Builds the tokens service. */
export function tokensService(config: ForgekitConfig): TokensService {
  const { store, clock, random, tokenPrefix } = config;

  const insert = async (tx: TransactionStore, kind: AccessTokenKind, userId: number, checked: Checked, resourceId: number | null, now: Date, previousTokenId: number | null = null) => {
    const plaintext = generateToken(random, tokenPrefix);
    const token = await tx.accessTokens.create(
      { kind, userId, name: checked.name, scopes: checked.scopes, digest: tokenDigest(plaintext), expiresAt: checked.expiresAt, resourceId, previousTokenId },
      now,
    );
    return { token, plaintext };
  };

  const forUser = (kind: "personal" | "impersonation", userId: number, input: CreateTokenInput) =>
    inTransaction(store, async (tx): Promise<Result<CreatedToken, ForgekitError>> => {
      const now = clock.now();
      const user = await tx.users.findById(userId);
      if (!user) return err(errors.notFound("User"));
      const checked = checkInput(input, user, now);
      if (checked.isErr()) return err(checked.error);
      return ok(await insert(tx, kind, user.id, checked.value, null, now));
    });

  const forResource = (kind: "project" | "group", resourceId: number, input: CreateResourceTokenInput) =>
    inTransaction(store, async (tx): Promise<Result<CreatedResourceToken, ForgekitError>> => {
      const now = clock.now();
      const resource = kind === "project" ? await tx.projects.findById(resourceId) : await tx.namespaces.findById(resourceId);
      if (!resource || (kind === "group" && "kind" in resource && resource.kind !== "group")) {
        return err(errors.notFound(kind === "project" ? "Project" : "Group"));
      }
      const checked = checkInput(input, { admin: false }, now);
      if (checked.isErr()) return err(checked.error);
      const bot = await tx.users.create(
        { username: `${kind}_${resourceId}_bot_${randomHex(random, 16)}`, name: checked.value.name, bot: kind === "project" ? "project_bot" : "group_bot" },
        now,
      );
      if (!bot) return err(errors.internal(new Error("bot username collision")));
      const member = await addMember(
        tx,
        { sourceType: kind === "project" ? "project" : "namespace", sourceId: resourceId, userId: bot.id, accessLevel: input.accessLevel ?? AccessLevel.Maintainer },
        now,
      );
      if (member.isErr()) return err(member.error);
      return ok({ ...(await insert(tx, kind, bot.id, checked.value, resourceId, now)), bot });
    });

  const findById = (id: number) => fromStore(store.accessTokens.findById(id)).andThen((t) => (t ? ok(t) : err(errors.notFound("Token"))));

  return {
    createPersonal: (userId, input) => forUser("personal", userId, input),
    createImpersonation: (actingUser, userId, input) =>
      actingUser.admin && actingUser.state === "active" ? forUser("impersonation", userId, input) : errAsync(errors.forbidden()),
    createProjectToken: (projectId, input) => forResource("project", projectId, input),
    createGroupToken: (groupId, input) => forResource("group", groupId, input),
    revoke: (id) =>
      findById(id).andThen((token) =>
        token.revoked
          ? okAsync(token)
          : attempt(async () => {
              await store.accessTokens.revoke(id);
              return ok({ ...token, revoked: true });
            }),
      ),
    rotate: (id, options = {}) => {
      // A rotation attempt on a revoked token means someone else rotated (or revoked) it first: the
      // token may have leaked, so every token descended from it is revoked too (reference token
      // families). That revocation must stay, so it runs outside the failed rotation's transaction.
      const refuse = () => fromStore(store.accessTokens.revokeFamily(id)).andThen(() => errAsync(alreadyRevoked()));
      return findById(id).andThen((found) =>
        found.revoked
          ? refuse()
          : inTransaction(store, async (tx): Promise<Result<CreatedToken, ForgekitError>> => {
              const now = clock.now();
              const token = await tx.accessTokens.findById(id);
              if (!token) return err(errors.notFound("Token"));
              if (token.revoked || !(await tx.accessTokens.revoke(id))) return err(alreadyRevoked());
              const expiresAt = options.expiresAt ?? new Date(now.getTime() + ROTATION_PERIOD_MS);
              // Owner checks were made when the token was created (sudo needs an admin): only the expiry is new.
              const checked = checkInput({ name: token.name, scopes: token.scopes, expiresAt }, { admin: true }, now);
              if (checked.isErr()) return err(checked.error);
              return ok(await insert(tx, token.kind, token.userId, checked.value, token.resourceId, now, token.id));
            }).orElse((error) => (isAlreadyRevoked(error) ? refuse() : errAsync(error))),
      );
    },
    findById,
    list: (filter) => fromStore(store.accessTokens.list({ ...filter, now: filter.now ?? clock.now() })),
  };
}
