/**
 * The OAuth HTTP suites, one per endpoint group; each ends by checking the log it captured for any
 * issued code, token, client secret or password (checklist H3).
 */
import type { HttpSuite } from "../http-harness.js";
import { oauthApplicationsApiSuite } from "./oauth-applications.js";
import { oauthAuthorizeSuite } from "./oauth-authorize.js";
import { oauthKeyEncryptionSuite } from "./oauth-key-encryption.js";
import { oauthApiAccessSuite, oauthCorsSuite } from "./oauth-cors-api.js";
import { oauthOpenIdSuite } from "./oauth-openid.js";
import { oauthRevokeSuite, oauthTokenInfoSuite } from "./oauth-revoke-info.js";
import { oauthThrottleSuite } from "./oauth-throttle.js";
import { oauthTokenCodeSuite } from "./oauth-token-code.js";
import { oauthTokenRefreshSuite } from "./oauth-token-refresh.js";

export { oauthApplicationsApiSuite } from "./oauth-applications.js";
export { oauthAuthorizeSuite } from "./oauth-authorize.js";
export { oauthKeyEncryptionSuite } from "./oauth-key-encryption.js";
export { oauthApiAccessSuite, oauthCorsSuite } from "./oauth-cors-api.js";
export { oauthOpenIdSuite } from "./oauth-openid.js";
export { oauthRevokeSuite, oauthTokenInfoSuite } from "./oauth-revoke-info.js";
export { oauthThrottleSuite } from "./oauth-throttle.js";
export { oauthTokenCodeSuite } from "./oauth-token-code.js";
export { oauthTokenRefreshSuite } from "./oauth-token-refresh.js";

/** Every OAuth suite, for adapters to run. */
export const oauthSuites: readonly HttpSuite[] = [
  oauthAuthorizeSuite,
  oauthTokenCodeSuite,
  oauthTokenRefreshSuite,
  oauthRevokeSuite,
  oauthTokenInfoSuite,
  oauthOpenIdSuite,
  oauthCorsSuite,
  oauthApiAccessSuite,
  oauthApplicationsApiSuite,
  oauthThrottleSuite,
  oauthKeyEncryptionSuite,
];
