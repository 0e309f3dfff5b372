/** The error-tracking HTTP suites: settings, client keys, collector. */
import type { HttpSuite } from "../http-harness.js";
import { errorTrackingClientKeysSuite } from "./error-tracking-client-keys.js";
import { errorTrackingCollectorSuite } from "./error-tracking-collector.js";
import { errorTrackingSettingsSuite } from "./error-tracking-settings.js";

export { errorTrackingClientKeysSuite, errorTrackingCollectorSuite, errorTrackingSettingsSuite };

/** Every error-tracking suite, for hosts to run. */
export const errorTrackingSuites: readonly HttpSuite[] = [errorTrackingSettingsSuite, errorTrackingClientKeysSuite, errorTrackingCollectorSuite];
