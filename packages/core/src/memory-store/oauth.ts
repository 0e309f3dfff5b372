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
  OAuthConsentRepository,
  OAuthKeyRepository,
  OAuthRepositories,
  OAuthToken,
  OAuthTokenRepository,
} from "../ports/oauth-store.js";
import type { OAuthKey } from "../ports/oauth-store.js";
import type { OAuthTables, Runner } from "./state.js";

type OAuthRunner = <T>(fn: (tables: OAuthTables) => T) => Promise<T>;

// Typed copies (records never share arrays or Dates with the tables): a structuredClone per read
// was the largest cost of a refresh on this store.
const day = (d: Date): Date => new Date(d.getTime());
const maybeDay = (d: Date | null): Date | null => (d === null ? null : day(d));
const appCopy = (a: OAuthApplication): OAuthApplication => ({ ...a, redirectUris: [...a.redirectUris], scopes: [...a.scopes], createdAt: day(a.createdAt), updatedAt: day(a.updatedAt) });
const codeCopy = (c: OAuthAuthorizationCode): OAuthAuthorizationCode => ({ ...c, scopes: [...c.scopes], createdAt: day(c.createdAt), expiresAt: day(c.expiresAt), consumedAt: maybeDay(c.consumedAt) });
const tokenCopy = (t: OAuthToken): OAuthToken => ({
  ...t,
  scopes: [...t.scopes],
  expiresAt: maybeDay(t.expiresAt),
  refreshExpiresAt: maybeDay(t.refreshExpiresAt),
  familyCreatedAt: day(t.familyCreatedAt),
  createdAt: day(t.createdAt),
  revokedAt: maybeDay(t.revokedAt),
  rotatedAt: maybeDay(t.rotatedAt),
});
const keyCopy = (k: OAuthKey): OAuthKey => ({ ...k, createdAt: day(k.createdAt) });

function byUnique<T>(rows: Map<number, T>, keys: Map<string, number>, key: string, copy: (row: T) => T): T | null {
  const id = keys.get(key);
  const row = id === undefined ? undefined : rows.get(id);
  return row === undefined ? null : copy(row);
}

const maybe = <T>(row: T | undefined, copy: (row: T) => T): T | null => (row === undefined ? null : copy(row));

function applications(run: OAuthRunner): OAuthApplicationRepository {
  return {
    create: (input, now) =>
      run((t) => {
        if (t.unique.uids.has(input.uid)) return null;
        const row = appCopy({ ...input, id: ++t.seq.applications, createdAt: now, updatedAt: now });
        t.applications.set(row.id, row);
        t.unique.uids.set(row.uid, row.id);
        return appCopy(row);
      }),
    findById: (id) => run((t) => maybe(t.applications.get(id), appCopy)),
    findByUid: (uid) => run((t) => byUnique(t.applications, t.unique.uids, uid, appCopy)),
    list: (filter) =>
      run((t) =>
        [...t.applications.values()]
          .filter((a) => filter.ownerId === undefined || a.ownerId === filter.ownerId)
          .sort((a, b) => a.id - b.id)
          .map(appCopy),
      ),
    update: (id, patch, now) =>
      run((t) => {
        const row = t.applications.get(id);
        if (row === undefined) return null;
        const next = appCopy({ ...row, ...patch, updatedAt: now });
        t.applications.set(id, next);
        return appCopy(next);
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
        const row = codeCopy({ ...input, id: ++t.seq.codes, createdAt: now, consumedAt: null });
        t.codes.set(row.id, row);
        t.unique.codes.set(row.digest, row.id);
        return codeCopy(row);
      }),
    findByDigest: (digest) => run((t) => byUnique(t.codes, t.unique.codes, digest, codeCopy)),
    consume: (digest, now) =>
      run((t) => {
        const id = t.unique.codes.get(digest);
        const row = id === undefined ? undefined : t.codes.get(id);
        if (id === undefined || row === undefined || row.consumedAt !== null) return null;
        const consumed = { ...row, consumedAt: day(now) };
        t.codes.set(id, consumed);
        return codeCopy(consumed);
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
  const row = tokenCopy({ ...input, id: ++t.seq.tokens, createdAt: now, expiresAt, revokedAt: null, rotatedAt: null, previousId });
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
    create: (input, now) => run((t) => tokenCopy(insertToken(t, input, now, null))),
    findById: (id) => run((t) => maybe(t.tokens.get(id), tokenCopy)),
    findByAccessDigest: (digest) => run((t) => byUnique(t.tokens, t.unique.access, digest, tokenCopy)),
    findByRefreshDigest: (digest) => run((t) => byUnique(t.tokens, t.unique.refresh, digest, tokenCopy)),
    listByFamily: (familyId) =>
      run((t) =>
        [...t.tokens.values()]
          .filter((x) => x.familyId === familyId)
          .sort((a, b) => a.id - b.id)
          .map(tokenCopy),
      ),
    rotate: (previousId, next, now) =>
      run((t) => {
        const old = t.tokens.get(previousId);
        if (old === undefined || old.revokedAt !== null) return null;
        const row = insertToken(t, next, now, previousId);
        t.tokens.set(previousId, { ...old, revokedAt: day(now), rotatedAt: day(now) });
        return tokenCopy(row);
      }),
    revoke: (id, now) =>
      run((t) => {
        const row = t.tokens.get(id);
        if (row === undefined || row.revokedAt !== null) return false;
        t.tokens.set(id, { ...row, revokedAt: day(now) });
        return true;
      }),
    revokeFamily: (familyId, now) =>
      run((t) => {
        let revoked = 0;
        for (const row of [...t.tokens.values()]) {
          if (row.familyId !== familyId || row.revokedAt !== null) continue;
          t.tokens.set(row.id, { ...row, revokedAt: day(now) });
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
    get: (kind) => run((t) => maybe(t.keys.get(kind), keyCopy)),
    putIfAbsent: (kind, value, now) =>
      run((t) => {
        const existing = t.keys.get(kind);
        if (existing !== undefined) return keyCopy(existing);
        const row = { kind, value, createdAt: day(now) };
        t.keys.set(kind, row);
        return keyCopy(row);
      }),
    replace: (kind, expected, value) =>
      run((t) => {
        const existing = t.keys.get(kind);
        if (existing === undefined || existing.value !== expected) return false;
        t.keys.set(kind, { ...existing, value });
        return true;
      }),
  };
}

function consents(run: OAuthRunner): OAuthConsentRepository {
  return {
    markUsed: (digest, expiresAt) =>
      run((t) => {
        if (t.usedConsents.has(digest)) return false;
        t.usedConsents.set(digest, day(expiresAt));
        return true;
      }),
    deleteExpired: (cutoff) =>
      run((t) => {
        const dead = [...t.usedConsents].filter(([, expiresAt]) => expiresAt.getTime() < cutoff.getTime());
        for (const [digest] of dead) t.usedConsents.delete(digest);
        return dead.length;
      }),
  };
}

/** The OAuth repositories over the memory store's runner (live state or a transaction's draft). */
export function memoryOAuth(run: Runner): OAuthRepositories {
  const onTables: OAuthRunner = (fn) => run((state) => fn(state.oauth));
  return { oauthApplications: applications(onTables), oauthCodes: codes(onTables), oauthTokens: tokens(onTables), oauthKeys: keys(onTables), oauthConsents: consents(onTables) };
}
