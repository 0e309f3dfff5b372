/** Instance settings the accounts capability reads (spec Authentication rule 3: `impersonation_enabled`). */
import type { ResultAsync } from "neverthrow";
import type { ForgekitConfig } from "../config.js";
import type { ForgekitError } from "../errors.js";
import { fromStore } from "./service-kit.js";

/** The setting key, as the reference names it. */
export const IMPERSONATION_ENABLED = "impersonation_enabled";

/** Settings service (host API: `fk.settings`). */
export interface SettingsService {
  /** Whether impersonation tokens work: the setting when present, else the configured default (true). */
  impersonationEnabled(): ResultAsync<boolean, ForgekitError>;
  /** `true`/`false` stores the setting; `null` removes it, which re-enables impersonation (rule 3). */
  setImpersonationEnabled(value: boolean | null): ResultAsync<void, ForgekitError>;
}

/** Builds the settings service. */
export function settingsService(config: ForgekitConfig): SettingsService {
  const { store } = config;
  return {
    impersonationEnabled: () =>
      fromStore(store.settings.get(IMPERSONATION_ENABLED)).map((value) => (value === null ? config.impersonationEnabled : value !== "false")),
    setImpersonationEnabled: (value) => fromStore(store.settings.set(IMPERSONATION_ENABLED, value === null ? null : String(value))),
  };
}
