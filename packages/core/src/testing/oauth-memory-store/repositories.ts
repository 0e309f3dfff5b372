/** The memory store's repositories over one state holder (no locking here; see index.ts). */
import type {
  OAuthApplication,
  OAuthApplicationRepository,
  OAuthAuthorizationCodeRepository,
  OAuthKeyRepository,
  OAuthRepositories,
  OAuthToken,
  OAuthTokenRepository,
  NewOAuthToken,
} from "../../ports/oauth-store.js";
import { copy, type OAuthMemoryState } from "./state.js";

/** Holds the current state; a rollback swaps `state` for its snapshot. */
export interface StateHolder {
  state: OAuthMemoryState;
}

/** Runs a synchronous table operation as a promise; a throw becomes a rejection. */
function run<T>(fn: () => T): Promise<T> {
  try {
    return Promise.resolve(fn());
  } catch (cause) {
    return Promise.reject(cause instanceof Error ? cause : new Error(String(cause)));
  }
}

function applications(h: StateHolder): OAuthApplicationRepository {
  return {
    create: (input, now) =>
      run(() => {
        const s = h.state;
        for (const app of s.applications.values()) if (app.uid === input.uid) return null;
        const row: OAuthApplication = { ...copy(input), id: s.nextId.application++, createdAt: now, updatedAt: now };
        s.applications.set(row.id, row);
        return copy(row);
      }),
    findById: (id) =>
      run(() => copy(h.state.applications.get(id) ?? null)),
    findByUid: (uid) =>
      run(() => {
        for (const app of h.state.applications.values()) if (app.uid === uid) return copy(app);
        return null;
      }),
    list: (filter) =>
      run(() => {
        const rows = [...h.state.applications.values()].filter((a) => filter.ownerId === undefined || a.ownerId === filter.ownerId);
        return copy(rows.sort((a, b) => a.id - b.id));
      }),
    update: (id, patch, now) =>
      run(() => {
        const row = h.state.applications.get(id);
        if (row === undefined) return null;
        const next: OAuthApplication = { ...row, ...copy(patch), updatedAt: now };
        h.state.applications.set(id, next);
        return copy(next);
      }),
    delete: (id) =>
      run(() => {
        const s = h.state;
        if (!s.applications.delete(id)) return false;
        for (const [codeId, code] of s.codes) if (code.applicationId === id) s.codes.delete(codeId);
        for (const [tokenId, token] of s.tokens) if (token.applicationId === id) s.tokens.delete(tokenId);
        return true;
      }),
  };
}

function codes(h: StateHolder): OAuthAuthorizationCodeRepository {
  return {
    create: (input, now) =>
      run(() => {
        const s = h.state;
        for (const code of s.codes.values()) if (code.digest === input.digest) throw new Error("oauth code digest collision");
        const row = { ...copy(input), id: s.nextId.code++, createdAt: now, consumedAt: null };
        s.codes.set(row.id, row);
        return copy(row);
      }),
    findByDigest: (digest) =>
      run(() => {
        for (const code of h.state.codes.values()) if (code.digest === digest) return copy(code);
        return null;
      }),
    consume: (digest, now) =>
      run(() => {
        for (const code of h.state.codes.values()) {
          if (code.digest !== digest) continue;
          if (code.consumedAt !== null) return null;
          code.consumedAt = now;
          return copy(code);
        }
        return null;
      }),
    deleteExpired: (cutoff) =>
      run(() => {
        let n = 0;
        for (const [id, code] of h.state.codes) {
          if (code.expiresAt.getTime() < cutoff.getTime()) {
            h.state.codes.delete(id);
            n++;
          }
        }
        return n;
      }),
  };
}

function insertToken(s: OAuthMemoryState, input: NewOAuthToken, now: Date, previousId: number | null): OAuthToken {
  for (const t of s.tokens.values()) {
    const clash = t.accessDigest === input.accessDigest || (input.refreshDigest !== null && t.refreshDigest === input.refreshDigest);
    if (clash) throw new Error("oauth token digest collision");
  }
  const expiresAt = input.expiresIn === null ? null : new Date(now.getTime() + input.expiresIn * 1000);
  const row: OAuthToken = { ...copy(input), id: s.nextId.token++, createdAt: now, expiresAt, revokedAt: null, rotatedAt: null, previousId };
  s.tokens.set(row.id, row);
  return row;
}

function isInactive(t: OAuthToken, cutoff: number): boolean {
  if (t.revokedAt !== null) return t.revokedAt.getTime() < cutoff;
  const accessDead = t.expiresAt !== null && t.expiresAt.getTime() < cutoff;
  const refreshDead = t.refreshDigest === null || (t.refreshExpiresAt !== null && t.refreshExpiresAt.getTime() < cutoff);
  return accessDead && refreshDead;
}

function tokens(h: StateHolder): OAuthTokenRepository {
  const find = (pred: (t: OAuthToken) => boolean): OAuthToken | null => {
    for (const t of h.state.tokens.values()) if (pred(t)) return copy(t);
    return null;
  };
  return {
    create: (input, now) =>
      run(() => copy(insertToken(h.state, input, now, null))),
    findById: (id) =>
      run(() => copy(h.state.tokens.get(id) ?? null)),
    findByAccessDigest: (digest) =>
      run(() => find((t) => t.accessDigest === digest)),
    findByRefreshDigest: (digest) =>
      run(() => find((t) => t.refreshDigest !== null && t.refreshDigest === digest)),
    listByFamily: (familyId) =>
      run(() => copy([...h.state.tokens.values()].filter((t) => t.familyId === familyId).sort((a, b) => a.id - b.id))),
    rotate: (previousId, next, now) =>
      run(() => {
        const old = h.state.tokens.get(previousId);
        if (old === undefined || old.revokedAt !== null) return null;
        const row = insertToken(h.state, next, now, previousId);
        old.revokedAt = now;
        old.rotatedAt = now;
        return copy(row);
      }),
    revoke: (id, now) =>
      run(() => {
        const row = h.state.tokens.get(id);
        if (row === undefined || row.revokedAt !== null) return false;
        row.revokedAt = now;
        return true;
      }),
    revokeFamily: (familyId, now) =>
      run(() => {
        let n = 0;
        for (const t of h.state.tokens.values()) {
          if (t.familyId === familyId && t.revokedAt === null) {
            t.revokedAt = now;
            n++;
          }
        }
        return n;
      }),
    deleteInactive: (cutoff) =>
      run(() => {
        let n = 0;
        for (const [id, t] of h.state.tokens) {
          if (isInactive(t, cutoff.getTime())) {
            h.state.tokens.delete(id);
            n++;
          }
        }
        return n;
      }),
  };
}

function keys(h: StateHolder): OAuthKeyRepository {
  return {
    get: (kind) =>
      run(() => copy(h.state.keys.get(kind) ?? null)),
    putIfAbsent: (kind, value, now) =>
      run(() => {
        const existing = h.state.keys.get(kind);
        if (existing !== undefined) return copy(existing);
        const row = { kind, value, createdAt: now };
        h.state.keys.set(kind, row);
        return copy(row);
      }),
  };
}

/** The four repositories over `h`, without locking. */
export function memoryRepositories(h: StateHolder): OAuthRepositories {
  return { oauthApplications: applications(h), oauthCodes: codes(h), oauthTokens: tokens(h), oauthKeys: keys(h) };
}
