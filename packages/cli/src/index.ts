/**
 * @forgekit/cli: the `forgekit` command as a library. `runCli(argv, io)` runs it in-process (tests,
 * embedding); `seedDemo` is the idempotent demo data set the examples share.
 */
export { runCli, DEFAULT_BASE_URL } from "./run-cli.js";
export { processIo, EXIT, type CliIo } from "./io.js";
export { DEFAULT_DATABASE, databaseTarget, demoTokensFile, storeLocation, type DatabaseTarget } from "./database.js";
export { openInstance, type OpenInstance, type OpenInstanceOptions } from "./open-instance.js";
export { seedDemo, DEMO_TOKEN_NAME, type DemoSeed, type DemoServices, type SeedDemoOptions } from "./demo-seed.js";
export { DEMO_APPS, DEMO_PASSWORDS, demoOAuthFile, demoOAuthLines, seedDemoOAuth, type DemoOAuthApp, type DemoOAuthSeed } from "./demo-oauth.js";
export { demoSeedLines } from "./commands/setup.js";
export { demoBanner, demoImportLines } from "./demo-banner.js";
export { startDemoImport, DEMO_FORGE_REPO_ID, DEMO_FORGE_TOKEN, DEMO_IMPORT_NAMESPACE, type DemoImport } from "./demo-import.js";
export { runDemoMain, startDemoHost, type DemoApp, type DemoHostOptions, type DemoStartError, type RunningDemoHost } from "./demo-host.js";
export {
  checkSignIn,
  memorySessions,
  safeReturn,
  SESSION_COOKIE,
  sessionCookieFrom,
  SIGN_IN_PATH,
  SIGN_OUT_PATH,
  signInPage,
  type HostSessions,
} from "./demo-sign-in.js";
