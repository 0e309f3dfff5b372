/**
 * The OAuth provider in the host's programmatic API (`fk.oauth`): applications (registration,
 * listing, secret rotation, deletion) and the maintenance task that purges dead codes and tokens.
 * Every method returns a `ResultAsync`; a store failure is `internal`, never a throw.
 */
import { err, errAsync, okAsync, ResultAsync } from "neverthrow";
import { errors, type ForgekitError } from "../errors.js";
import { isRecordId } from "../ids.js";
import type { OAuthApplication } from "../ports/oauth-store.js";
import {
  createApplication,
  deleteApplication,
  listApplications,
  rotateApplicationSecret,
  type ApplicationWithSecret,
  type NewApplicationInput,
} from "./applications.js";
import { purgeExpiredOAuthRows, type CleanupResult } from "./cleanup.js";
import type { OAuthDeps } from "./deps.js";

/** Registered OAuth applications. */
export interface OAuthApplicationsService {
  /** Registers an application; the plaintext `clientSecret` exists only in this result (show it once). */
  create(input: NewApplicationInput): ResultAsync<ApplicationWithSecret, ForgekitError>;
  /** Applications ordered by id; `ownerId` restricts to one owner. */
  list(filter?: { ownerId?: number }): ResultAsync<OAuthApplication[], ForgekitError>;
  /** By id; `not_found("Application")` when missing. */
  get(id: number): ResultAsync<OAuthApplication, ForgekitError>;
  /** By client id (`uid`); `not_found("Application")` when missing. */
  findByClientId(clientId: string): ResultAsync<OAuthApplication, ForgekitError>;
  /** Replaces the client secret (the old one stops working at once); returns the new plaintext once. */
  rotateSecret(id: number): ResultAsync<ApplicationWithSecret, ForgekitError>;
  /** Deletes the application with its codes and tokens. */
  delete(id: number): ResultAsync<void, ForgekitError>;
}

/** `fk.oauth`. */
export interface OAuthService {
  readonly applications: OAuthApplicationsService;
  /**
   * Deletes codes and tokens dead for longer than `oauth.retentionSeconds` (live tokens always
   * survive). Run it periodically; it is idempotent.
   */
  purgeExpired(): ResultAsync<CleanupResult, ForgekitError>;
}

/** A result whose promise may reject (store failure) as one that never does: rejection → `internal`. */
export function settled<T>(result: ResultAsync<T, ForgekitError>): ResultAsync<T, ForgekitError> {
  return new ResultAsync(
    (async () => {
      try {
        return await result;
      } catch (cause) {
        return err(errors.internal(cause));
      }
    })(),
  );
}

const found = (app: OAuthApplication | null): ResultAsync<OAuthApplication, ForgekitError> =>
  app === null ? errAsync(errors.notFound("Application")) : okAsync(app);


/** Builds `fk.oauth` over the instance's OAuth dependencies. */
export function oauthService(deps: OAuthDeps): OAuthService {
  const apps = deps.store.oauthApplications;
  const byId = <T>(id: number, run: () => ResultAsync<T, ForgekitError>): ResultAsync<T, ForgekitError> =>
    isRecordId(id) ? settled(run()) : errAsync(errors.notFound("Application"));
  return {
    applications: {
      create: (input) => settled(createApplication(deps, input)),
      list: (filter = {}) => settled(listApplications(deps, filter)),
      get: (id) => byId(id, () => ResultAsync.fromSafePromise(apps.findById(id)).andThen(found)),
      findByClientId: (clientId) => settled(ResultAsync.fromSafePromise(apps.findByUid(clientId)).andThen(found)),
      rotateSecret: (id) => byId(id, () => rotateApplicationSecret(deps, id)),
      delete: (id) => byId(id, () => deleteApplication(deps, id)),
    },
    purgeExpired: () => settled(purgeExpiredOAuthRows(deps)),
  };
}
