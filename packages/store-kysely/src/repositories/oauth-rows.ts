/** Row ↔ record conversions of the OAuth tables (every Date a fresh object, JSON arrays parsed). */
import type { OAuthApplication, OAuthAuthorizationCode, OAuthKey, OAuthKeyKind, OAuthToken } from "@forgekit/core";
import type { Selectable } from "kysely";
import type { DialectTraits } from "../dialects/traits.js";
import type { DbDate, OAuthApplicationsTable, OAuthCodesTable, OAuthKeysTable, OAuthTokensTable } from "../schema.js";

const strings = (json: string): string[] => JSON.parse(json) as string[];
const nullableDate = (t: DialectTraits, value: DbDate | null): Date | null => (value === null ? null : t.fromDate(value));
const nullableId = (value: number | null): number | null => (value === null ? null : Number(value));

export function toApplication(row: Selectable<OAuthApplicationsTable>, t: DialectTraits): OAuthApplication {
  return {
    id: Number(row.id),
    uid: row.uid,
    secretDigest: row.secret_digest,
    name: row.name,
    redirectUris: strings(row.redirect_uris),
    scopes: strings(row.scopes),
    confidential: t.fromBool(row.confidential),
    trusted: t.fromBool(row.trusted),
    ropcEnabled: t.fromBool(row.ropc_enabled),
    ownerId: nullableId(row.owner_id),
    createdAt: t.fromDate(row.created_at),
    updatedAt: t.fromDate(row.updated_at),
  };
}

export function toCode(row: Selectable<OAuthCodesTable>, t: DialectTraits): OAuthAuthorizationCode {
  return {
    id: Number(row.id),
    digest: row.digest,
    familyId: row.family_id,
    applicationId: Number(row.application_id),
    userId: Number(row.user_id),
    redirectUri: row.redirect_uri,
    scopes: strings(row.scopes),
    codeChallenge: row.code_challenge,
    nonce: row.nonce,
    createdAt: t.fromDate(row.created_at),
    expiresAt: t.fromDate(row.expires_at),
    consumedAt: nullableDate(t, row.consumed_at),
  };
}

export function toOAuthToken(row: Selectable<OAuthTokensTable>, t: DialectTraits): OAuthToken {
  return {
    id: Number(row.id),
    familyId: row.family_id,
    applicationId: nullableId(row.application_id),
    userId: Number(row.user_id),
    accessDigest: row.access_digest,
    refreshDigest: row.refresh_digest,
    scopes: strings(row.scopes),
    expiresIn: nullableId(row.expires_in),
    expiresAt: nullableDate(t, row.expires_at),
    refreshExpiresAt: nullableDate(t, row.refresh_expires_at),
    familyCreatedAt: t.fromDate(row.family_created_at),
    previousId: nullableId(row.previous_id),
    createdAt: t.fromDate(row.created_at),
    revokedAt: nullableDate(t, row.revoked_at),
    rotatedAt: nullableDate(t, row.rotated_at),
  };
}

export function toKey(row: Selectable<OAuthKeysTable>, t: DialectTraits): OAuthKey {
  return { kind: row.kind as OAuthKeyKind, value: row.value, createdAt: t.fromDate(row.created_at) };
}
