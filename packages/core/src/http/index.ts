/** The framework-agnostic HTTP machinery (DESIGN §3). */
export { bodyBytes, decodeBody, parseMediaType, type MediaType } from "./body.js";
export { checkUnmodifiedSince } from "./conditional.js";
export { toFetchHandler, type FetchHandlerOptions } from "./fetch.js";
export { DEFAULT_MOUNT_PATHS, servesPath, splitTarget, type HttpInstance, type MountOptions } from "./instance.js";
export { cgiEscape, formatLink, linkUrl, toQuery } from "./links.js";
export { parseMultipart } from "./multipart.js";
export {
  encodeCursor,
  keysetHeaders,
  keysetPage,
  KEYSET_NOT_AVAILABLE,
  type KeysetAllowed,
  type KeysetPage,
  type SortDirection,
} from "./pagination-keyset.js";
export { DEFAULT_PER_PAGE, MAX_PER_PAGE, offsetHeaders, offsetPage, readPerPage } from "./pagination-offset.js";
export { idOrPath, MAX_RECORD_ID, p, recordIdFrom, paramError, parseBoolean, parseInteger, parseParams, REASONS, type ParamIssue, type StringOptions } from "./params.js";
export {
  createApiHandler,
  DEFAULT_LIMITS,
  mergeParams,
  toResponse,
  type ApiHandlerOptions,
  type Authenticate,
  type HttpHandler,
  type HttpLimits,
} from "./pipeline.js";
export { decodeComponent, nestPairs, parseQuery } from "./query.js";
export { BEARER_REALM, INSUFFICIENT_SCOPE_DESCRIPTION, logInternal, redact, renderError, type RenderErrorOptions } from "./render-error.js";
export { emptyResponse, JSON_CONTENT_TYPE, jsonResponse, SECURITY_HEADERS } from "./response.js";
export { CAPTCHA_RESPONSE_HEADER, checkSpam, SPAM_LOG_ID_HEADER, spamRetryFrom } from "./spam.js";
export { API_ROOT, createRouter, type AnyRoute, type Router, type RouteMatch } from "./router.js";
export type * from "./types.js";
