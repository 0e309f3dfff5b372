/**
 * Registering and managing OAuth applications (issue 3 "Applications"): registration yields a
 * client id and a client secret that is shown once and stored as a digest.
 */
import { errAsync, okAsync, ResultAsync } from "neverthrow";
import { errors, type ForgekitError, type ValidationMessages } from "../errors.js";
import type { OAuthApplication } from "../ports/oauth-store.js";
import { audit } from "./audit.js";
import type { OAuthDeps } from "./deps.js";
import { secretDigest } from "./digest.js";
import { validateRedirectUri, type RedirectUriProblem } from "./redirect-uri.js";
import { validateApplicationScopes } from "./scopes.js";
import { generateClientId, generateSecret } from "./secrets.js";

type AppDeps = Pick<OAuthDeps, "store" | "clock" | "random" | "logger">;

/**
 * What registering an OAuth application takes: name, redirect URIs, scopes and whether it is confidential.
 */
export interface NewApplicationInput {
  name: string;
  redirectUris: string[];
  scopes: string[];
  /** Default true: the client keeps its secret (a server). False for SPAs and native apps (PKCE). */
  confidential?: boolean;
  /** Default false: trusted applications skip the consent page. */
  trusted?: boolean;
  /** Default false: the password grant stays off unless enabled per application (checklist E1). */
  ropcEnabled?: boolean;
  ownerId?: number | null;
}

/** An application together with its plaintext secret, which exists only in this value. */
export interface ApplicationWithSecret {
  application: OAuthApplication;
  clientSecret: string;
}

const PROBLEM_TEXT: Record<RedirectUriProblem, string> = {
  malformed: "must be an absolute URI",
  fragment: "must not contain a fragment",
  forbidden_scheme: "must not use the data, javascript or vbscript scheme",
  credentials: "must not contain a user name or password",
  missing_host: "must name a host",
};

function validate(input: NewApplicationInput): ValidationMessages | null {
  const messages: ValidationMessages = {};
  const name = input.name.trim();
  if (name === "") messages.name = ["can't be blank"];
  else if (name.length > 255) messages.name = ["is too long (maximum is 255 characters)"];
  if (input.redirectUris.length === 0) messages.redirect_uri = ["can't be blank"];
  const uriProblems = [...new Set(input.redirectUris.flatMap((u) => validateRedirectUri(u).match(() => [], (p) => [PROBLEM_TEXT[p]])))];
  if (uriProblems.length > 0) messages.redirect_uri = uriProblems;
  const scopes = validateApplicationScopes(input.scopes);
  if (scopes.isErr()) messages.scopes = scopes.error.length === 0 ? ["can't be blank"] : [`don't exist: ${scopes.error.join(", ")}`];
  return Object.keys(messages).length === 0 ? null : messages;
}

/** Registers an application; `validation` errors name the offending fields. */
export function createApplication(deps: AppDeps, input: NewApplicationInput): ResultAsync<ApplicationWithSecret, ForgekitError> {
  const problems = validate(input);
  if (problems !== null) return errAsync(errors.validation(problems));
  const run = async (): Promise<ApplicationWithSecret> => {
    const clientSecret = generateSecret(deps.random, "clientSecret");
    const now = deps.clock.now();
    // A 256-bit client id never collides in practice; retry anyway rather than fail on one.
    for (let attempt = 0; attempt < 3; attempt++) {
      const application = await deps.store.oauthApplications.create(
        {
          uid: generateClientId(deps.random),
          secretDigest: secretDigest(clientSecret),
          name: input.name.trim(),
          redirectUris: [...new Set(input.redirectUris)],
          scopes: validateApplicationScopes(input.scopes).unwrapOr(input.scopes),
          confidential: input.confidential ?? true,
          trusted: input.trusted ?? false,
          ropcEnabled: input.ropcEnabled ?? false,
          ownerId: input.ownerId ?? null,
        },
        now,
      );
      if (application !== null) {
        audit(deps.logger, "oauth.application_created", { applicationId: application.id, ownerId: application.ownerId });
        return { application, clientSecret };
      }
    }
    throw new Error("Could not allocate a unique OAuth client id.");
  };
  return ResultAsync.fromSafePromise(run());
}

/** Replaces the client secret (the old one stops working at once) and returns the new one. */
export function rotateApplicationSecret(deps: AppDeps, id: number): ResultAsync<ApplicationWithSecret, ForgekitError> {
  const clientSecret = generateSecret(deps.random, "clientSecret");
  return ResultAsync.fromSafePromise(deps.store.oauthApplications.update(id, { secretDigest: secretDigest(clientSecret) }, deps.clock.now())).andThen((application) => {
    if (application === null) return errAsync(errors.notFound("Application"));
    audit(deps.logger, "oauth.application_secret_rotated", { applicationId: id });
    return okAsync({ application, clientSecret });
  });
}

/** Deletes an application with its codes and tokens (RFC 9700 §4.14.2). */
export function deleteApplication(deps: AppDeps, id: number): ResultAsync<void, ForgekitError> {
  return ResultAsync.fromSafePromise(deps.store.oauthApplications.delete(id)).andThen((deleted) => {
    if (!deleted) return errAsync(errors.notFound("Application"));
    audit(deps.logger, "oauth.application_deleted", { applicationId: id });
    return okAsync(undefined);
  });
}

/** Applications ordered by id; `ownerId` restricts to one owner. */
export function listApplications(deps: Pick<OAuthDeps, "store">, filter: { ownerId?: number } = {}): ResultAsync<OAuthApplication[], ForgekitError> {
  return ResultAsync.fromSafePromise(deps.store.oauthApplications.list(filter));
}

/** The admin REST entity (`GET/POST /api/v4/applications`); `secret` only right after creation. */
export function applicationEntity(app: OAuthApplication, clientSecret?: string) {
  return {
    id: app.id,
    application_id: app.uid,
    application_name: app.name,
    ...(clientSecret === undefined ? {} : { secret: clientSecret }),
    callback_url: app.redirectUris.join("\n"),
    confidential: app.confidential,
  };
}
