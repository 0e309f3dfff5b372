/**
 * In-memory OAuth repositories (ports/oauth-store.ts) over the memory store's one lock: every
 * operation runs alone, so `consume`, `rotate`, `revoke` and `putIfAbsent` are atomic exactly as
 * their contracts say, and a transaction's writes land together or not at all.
 */
import type {
  NewOAuthToken,
  OAuthApplication,
  OAuthApplicationRepository,
  OAuthAuthorizationCode,
  OAuthAuthorizationCodeRepository,
  OAuthKeyRepository,
  OAuthRepositories,
  OAuthToken,
  OAuthTokenRepository,
} from "../../ports/oauth-store.js";
import { copy, type OAuthTables, type Runner } from "./state.js";

type OAuthRunner = <T>(fn: (tables: OAuthTables) => T) => Promise<T>;

function byUnique<T>(rows: Map<number, T>, keys: Map<string, number>, key: string): T | null {
  const id = keys.get(key);
  const row = id === undefined ? undefined : rows.get(id);
  return row === undefined ? null : copy(row);
}

function applications(run: OAuthRunner): OAuthApplicationRepository {
  return {
    create: (input, now) =>
      run((t) => {
        if (t.unique.uids.has(input.uid)) return null;
        const row: OAuthApplication = { ...copy(input), id: ++t.seq.applications, createdAt: new Date(now), updatedAt: new Date(now) };
        t.applications.set(row.id, row);
        t.unique.uids.set(row.uid, row.id);
        return copy(row);
      }),
    findById: (id) => run((t) => copy(t.applications.get(id) ?? null)),
    findByUid: (uid) => run((t) => byUnique(t.applications, t.unique.uids, uid)),
    list: (filter) =>
      run((t) =>
        [...t.applications.values()]
          .filter((a) => filter.ownerId === undefined || a.ownerId === filter.ownerId)
          .sort((a, b) => a.id - b.id)
          .map(copy),
      ),
    update: (id, patch, now) =>
      run((t) => {
        const row = t.applications.get(id);
        if (row === undefined) return null;
        const next: OAuthApplication = { ...row, ...copy(patch), updatedAt: new Date(now) };
        t.applications.set(id, next);
        return copy(next);
      }),
    delete: (id) =>
      run((t) => {
        const row = t.applications.get(id);
        if (row === undefined) return false;
        t.applications.delete(id);
        t.unique.uids.delete(row.uid);
        for (const code of [...t.codes.values()]) if (code.applicationId === id) deleteCode(t, code);
        for (const token of [...t.tokens.values()]) if (token.applicationId === id) deleteToken(t, token);
        return true;
      }),
  };
}

function deleteCode(t: OAuthTables, code: OAuthAuthorizationCode): void {
  t.codes.delete(code.id);
  t.unique.codes.delete(code.digest);
}

function deleteToken(t: OAuthTables, token: OAuthToken): void {
  t.tokens.delete(token.id);
  t.unique.access.delete(token.accessDigest);
  if (token.refreshDigest !== null) t.unique.refresh.delete(token.refreshDigest);
}

function codes(run: OAuthRunner): OAuthAuthorizationCodeRepository {
  return {
    create: (input, now) =>
      run((t) => {
        // The SQL stores reject a duplicate digest through a unique index; so does this one.
        if (t.unique.codes.has(input.digest)) throw new Error("duplicate OAuth code digest");
        const row: OAuthAuthorizationCode = { ...copy(input), id: ++t.seq.codes, createdAt: new Date(now), consumedAt: null };
        t.codes.set(row.id, row);
        t.unique.codes.set(row.digest, row.id);
        return copy(row);
      }),
    findByDigest: (digest) => run((t) => byUnique(t.codes, t.unique.codes, digest)),
    consume: (digest, now) =>
      run((t) => {
        const id = t.unique.codes.get(digest);
        const row = id === undefined ? undefined : t.codes.get(id);
        if (row === undefined || row.consumedAt !== null) return null;
        row.consumedAt = new Date(now);
        return copy(row);
      }),
    deleteExpired: (cutoff) =>
      run((t) => {
        const dead = [...t.codes.values()].filter((c) => c.expiresAt.getTime() < cutoff.getTime());
        for (const code of dead) deleteCode(t, code);
        return dead.length;
      }),
  };
}

function insertToken(t: OAuthTables, input: NewOAuthToken, now: Date, previousId: number | null): OAuthToken {
  const clash = t.unique.access.has(input.accessDigest) || (input.refreshDigest !== null && t.unique.refresh.has(input.refreshDigest));
  if (clash) throw new Error("duplicate OAuth token digest");
  const expiresAt = input.expiresIn === null ? null : new Date(now.getTime() + input.expiresIn * 1000);
  const row: OAuthToken = { ...copy(input), id: ++t.seq.tokens, createdAt: new Date(now), expiresAt, revokedAt: null, rotatedAt: null, previousId };
  t.tokens.set(row.id, row);
  t.unique.access.set(row.accessDigest, row.id);
  if (row.refreshDigest !== null) t.unique.refresh.set(row.refreshDigest, row.id);
  return row;
}

/** Whether the pair can authenticate nothing since before `cutoff` (see `deleteInactive`). */
function isInactive(token: OAuthToken, cutoff: number): boolean {
  if (token.revokedAt !== null) return token.revokedAt.getTime() < cutoff;
  const accessDead = token.expiresAt !== null && token.expiresAt.getTime() < cutoff;
  const refreshDead = token.refreshDigest === null || (token.refreshExpiresAt !== null && token.refreshExpiresAt.getTime() < cutoff);
  return accessDead && refreshDead;
}

function tokens(run: OAuthRunner): OAuthTokenRepository {
  return {
    create: (input, now) => run((t) => copy(insertToken(t, input, now, null))),
    findById: (id) => run((t) => copy(t.tokens.get(id) ?? null)),
    findByAccessDigest: (digest) => run((t) => byUnique(t.tokens, t.unique.access, digest)),
    findByRefreshDigest: (digest) => run((t) => byUnique(t.tokens, t.unique.refresh, digest)),
    listByFamily: (familyId) =>
      run((t) =>
        [...t.tokens.values()]
          .filter((x) => x.familyId === familyId)
          .sort((a, b) => a.id - b.id)
          .map(copy),
      ),
    rotate: (previousId, next, now) =>
      run((t) => {
        const old = t.tokens.get(previousId);
        if (old === undefined || old.revokedAt !== null) return null;
        const row = insertToken(t, next, now, previousId);
        old.revokedAt = new Date(now);
        old.rotatedAt = new Date(now);
        return copy(row);
      }),
    revoke: (id, now) =>
      run((t) => {
        const row = t.tokens.get(id);
        if (row === undefined || row.revokedAt !== null) return false;
        row.revokedAt = new Date(now);
        return true;
      }),
    revokeFamily: (familyId, now) =>
      run((t) => {
        let revoked = 0;
        for (const row of t.tokens.values()) {
          if (row.familyId !== familyId || row.revokedAt !== null) continue;
          row.revokedAt = new Date(now);
          revoked += 1;
        }
        return revoked;
      }),
    deleteInactive: (cutoff) =>
      run((t) => {
        const dead = [...t.tokens.values()].filter((x) => isInactive(x, cutoff.getTime()));
        for (const token of dead) deleteToken(t, token);
        return dead.length;
      }),
  };
}

function keys(run: OAuthRunner): OAuthKeyRepository {
  return {
    get: (kind) => run((t) => copy(t.keys.get(kind) ?? null)),
    putIfAbsent: (kind, value, now) =>
      run((t) => {
        const existing = t.keys.get(kind);
        if (existing !== undefined) return copy(existing);
        const row = { kind, value, createdAt: new Date(now) };
        t.keys.set(kind, row);
        return copy(row);
      }),
  };
}

/** The OAuth repositories over the memory store's runner (live state or a transaction's draft). */
export function memoryOAuth(run: Runner): OAuthRepositories {
  const onTables: OAuthRunner = (fn) => run((state) => fn(state.oauth));
  return { oauthApplications: applications(onTables), oauthCodes: codes(onTables), oauthTokens: tokens(onTables), oauthKeys: keys(onTables) };
}
