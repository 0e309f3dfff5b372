/** In-memory AccessTokenRepository and SettingsRepository. */
import type { AccessToken } from "../accounts/types.js";
import type { AccessTokenRepository, SettingsRepository } from "../ports/store.js";
import { chainOf, isActive, namespaceLevel } from "./access.js";
import { copy, type Runner } from "./state.js";
import { byKey, nullableCopy, requireUser } from "./users.js";

export function memoryAccessTokens(run: Runner): AccessTokenRepository {
  return {
    create: (input, now) =>
      run((state) => {
        requireUser(state, input.userId);
        // The SQL store has a unique index on the digest; a duplicate is an infrastructure failure there too.
        if (state.unique.digests.has(input.digest)) throw new Error("duplicate access token digest");
        const token: AccessToken = {
          id: ++state.seq.tokens,
          kind: input.kind,
          userId: input.userId,
          name: input.name,
          scopes: [...input.scopes],
          digest: input.digest,
          expiresAt: input.expiresAt === null ? null : new Date(input.expiresAt),
          revoked: false,
          resourceId: input.resourceId ?? null,
          lastUsedAt: null,
          createdAt: new Date(now),
        };
        state.tokens.set(token.id, token);
        state.unique.digests.set(token.digest, token.id);
        if (input.previousTokenId != null) state.tokenPrevious.set(token.id, input.previousTokenId);
        return copy(token);
      }),
    findById: (id) => run((state) => nullableCopy(state.tokens.get(id))),
    findByDigest: (digest) => run((state) => byKey(state.tokens, state.unique.digests, digest)),
    findByDigestWithUser: (digest) =>
      run((state) => {
        const token = byKey(state.tokens, state.unique.digests, digest);
        return token === null ? null : { token, user: nullableCopy(state.users.get(token.userId)) };
      }),
    findByDigestWithProject: (digest, projectId, now) =>
      run((state) => {
        const token = byKey(state.tokens, state.unique.digests, digest);
        if (token === null) return null;
        const user = nullableCopy(state.users.get(token.userId));
        const project = state.projects.get(projectId);
        if (user === null || project === undefined) return { token, user, project: null };
        const chain = chainOf(state, project.namespaceId);
        const namespace = chain[0];
        const ownerId = namespace?.kind === "user" ? namespace.ownerId : null;
        let direct = 0;
        for (const member of state.members.values()) {
          if (member.sourceType === "project" && member.sourceId === projectId && member.userId === user.id && isActive(member.expiresAt, now)) direct = member.accessLevel;
        }
        let openIssues = 0;
        for (const issue of state.activity.issues.values()) if (issue.projectId === projectId && issue.state === "opened") openIssues++;
        return {
          token,
          user,
          project: {
            project: copy(project),
            chain: chain.map(copy),
            owner: ownerId === null ? null : nullableCopy(state.users.get(ownerId)),
            direct,
            chainLevel: namespaceLevel(state, user.id, project.namespaceId, now),
            openIssues,
            importStatus: state.imports.projects.get(projectId)?.status ?? null,
          },
        };
      }),
    list: (filter) =>
      run((state) => {
        const { now } = filter;
        if (filter.state !== undefined && now === undefined) throw new TypeError("TokenListFilter.state needs now");
        return [...state.tokens.values()]
          .filter((token) => {
            if (filter.userId !== undefined && token.userId !== filter.userId) return false;
            if (filter.kind !== undefined && token.kind !== filter.kind) return false;
            if (filter.resourceId !== undefined && token.resourceId !== filter.resourceId) return false;
            if (filter.state === undefined || now === undefined) return true;
            const active = !token.revoked && (token.expiresAt === null || token.expiresAt.getTime() > now.getTime());
            return filter.state === "active" ? active : !active;
          })
          .sort((a, b) => a.id - b.id)
          .map(copy);
      }),
    revoke: (id) =>
      run((state) => {
        const token = state.tokens.get(id);
        if (token === undefined || token.revoked) return false;
        state.tokens.set(id, { ...token, revoked: true });
        return true;
      }),
    revokeFamily: (id) =>
      run((state) => {
        let revoked = 0;
        const family = new Set([id]);
        // Successors always have higher ids than the token they replace: one pass in id order finds them all.
        for (const [tokenId, previous] of [...state.tokenPrevious].sort((a, b) => a[0] - b[0])) {
          if (!family.has(previous)) continue;
          family.add(tokenId);
          const token = state.tokens.get(tokenId);
          if (token !== undefined && !token.revoked) {
            state.tokens.set(tokenId, { ...token, revoked: true });
            revoked += 1;
          }
        }
        return revoked;
      }),
    touchLastUsed: (id, at) =>
      run((state) => {
        const token = state.tokens.get(id);
        if (token !== undefined) state.tokens.set(id, { ...token, lastUsedAt: new Date(at) });
      }),
  };
}

export function memorySettings(run: Runner): SettingsRepository {
  return {
    get: (key) => run((state) => state.settings.get(key) ?? null),
    set: (key, value) =>
      run((state) => {
        if (value === null) state.settings.delete(key);
        else state.settings.set(key, value);
      }),
  };
}
