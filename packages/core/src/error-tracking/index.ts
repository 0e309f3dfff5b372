/** Error tracking: settings, client keys and their Sentry DSNs, the collector, grouped errors. */
export { errorTrackingService, type ErrorTrackingService, type ListErrorsOptions, type PageOptions } from "./service.js";
export { errorTrackingRoutes, type ErrorTrackingRouteDeps } from "./routes/index.js";
export { CLIENT_KEY_PREFIX, COLLECTOR_PATH, clientKeyEntity, generatePublicKey, sentryDsn, settingsEntity } from "./entities.js";
export { readEvent, UNSUPPORTED_PAYLOAD, type CollectedEvent } from "./collector/event.js";
export { parseEnvelope, parseJsonDocument, PARSE_FAILED } from "./collector/envelope.js";
export { checkMediaType, collectorBody, COLLECTOR_MEDIA_TYPES, sentryKeyFrom } from "./collector/request.js";
