export {};
export { memoryStore } from "../memory-store/index.js";
export { runStoreConformance, type ConformanceOptions } from "./store-conformance/index.js";
export { createMemoryOAuthStore } from "./oauth-memory-store/index.js";
export { obtainCode, obtainTokens, TEST_CHALLENGE, TEST_VERIFIER, type CodeOptions } from "./oauth-memory-store/flows.js";
export { createOAuthTestKit, manualClock, testSigningKeyPem, type ManualClock, type OAuthTestKit, type TestUser } from "./oauth-memory-store/harness.js";
export { runJobsConformance, type JobsConformanceOptions, type JobsTarget } from "./jobs-conformance/index.js";
export { runOAuthStoreConformance, type MakeOAuthStore, type OAuthStoreConformanceOptions } from "./oauth-store-conformance/index.js";
export {
  createHarness,
  describeHttpSuite,
  listenOn,
  type HttpHarness,
  type HttpResult,
  type HttpSuite,
  type RequestOptions,
  type ServeFn,
  type ServedInstance,
} from "./http-harness.js";
export {
  contentTypeSuite,
  conventionSuites,
  createConventionInstance,
  errorsSuite,
  FIXTURE_BASE_URL,
  keysetPaginationSuite,
  limitsSuite,
  offsetPaginationSuite,
  paramsSuite,
  routingSuite,
} from "./http-suite/conventions.js";
export {
  createTestForgekit,
  fixedClock,
  must,
  seededRandom,
  TEST_BASE_URL,
  useTestStore,
  type FixedClock,
  type TestForgekit,
  type TestForgekitOptions,
  type TestWorld,
} from "./fixtures.js";
export {
  accountsSuites,
  authenticationSuite,
  groupsSuite,
  impersonationTokensSuite,
  projectsSuite,
  sudoSuite,
  usersSuite,
} from "./http-suite/accounts.js";
export { allHttpSuites } from "./http-suite/all.js";
export { startHookReceiver, type HookReceiver, type ReceivedHook } from "./hook-receiver.js";
export { gitHttpSuite } from "./http-suite/git-http.js";
export { gitHttpInputSuite } from "./http-suite/git-http-input.js";
export { createGitClient, gitUrl, pushOneCommit, type GitClient, type GitRun, type GitRunOptions } from "./git-cli.js";
export { describeGitBelowSubPath } from "./git-sub-path.js";
export { unstorableInputSuite } from "./http-suite/unstorable-input.js";
export {
  oauthApiAccessSuite,
  oauthApplicationsApiSuite,
  oauthAuthorizeSuite,
  oauthCorsSuite,
  oauthOpenIdSuite,
  oauthRevokeSuite,
  oauthSuites,
  oauthTokenCodeSuite,
  oauthTokenInfoSuite,
  oauthTokenRefreshSuite,
} from "./http-suite/oauth.js";
export { consentFields, leakedSecrets, oauthWorld, type OAuthWorld, type RegisteredApp } from "./http-suite/oauth-fixture.js";
export { errorTrackingClientKeysSuite, errorTrackingCollectorSuite, errorTrackingSettingsSuite, errorTrackingSuites } from "./http-suite/error-tracking-suites.js";
export { createEventsWorld, eventsSuites, ownEventsSuite, projectEventsSuite, userEventsSuite, type EventsWorld } from "./http-suite/events.js";
export { groupIterationsSuite } from "./http-suite/iterations-group.js";
export { importsSuite } from "./http-suite/imports.js";
export { customEvents, notificationSettingsGlobalSuite } from "./http-suite/notifications-global.js";
export { notificationSettingsSourcesSuite, notificationSettingsTierSuite } from "./http-suite/notifications-sources.js";
export * from "./import-stand-ins/index.js";
export { runStorageMovesConformance, type StorageMovesTarget } from "./storage-moves-conformance.js";
export { runRateLimiterConformance, type RateLimiterTarget, type RateLimiterTestOptions } from "./rate-limiter-conformance.js";
