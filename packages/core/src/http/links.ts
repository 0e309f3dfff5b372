/**
 * `Link` header URLs (spec "Pagination"; client-compatibility §6.4, §6.5): absolute, built from the
 * configured base URL, repeating the whole query with keys sorted like Rails' `to_query`.
 */
import type { HttpRequest, ParamValue, Params } from "./types.js";

/** Rails `CGI.escape`: everything but `*-._0-9A-Za-z` is percent-encoded, space as `+`. */
export function cgiEscape(text: string): string {
  return encodeURIComponent(text)
    .replace(/[!'()~]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/%20/g, "+");
}

function encodeValue(prefix: string, value: ParamValue | undefined): string[] {
  if (value === undefined) return [];
  if (Array.isArray(value)) {
    if (value.length === 0) return [`${cgiEscape(`${prefix}[]`)}=`];
    return value.flatMap((v) => encodeValue(`${prefix}[]`, v));
  }
  if (value !== null && typeof value === "object") {
    return Object.keys(value)
      .sort()
      .flatMap((k) => encodeValue(`${prefix}[${k}]`, value[k]));
  }
  return [`${cgiEscape(prefix)}=${value === null ? "" : cgiEscape(String(value))}`];
}

/** Serialises params as a query string, keys sorted (Rails `Hash#to_query`). */
export function toQuery(params: Params): string {
  return Object.keys(params)
    .filter((k) => params[k] !== undefined)
    .sort()
    .flatMap((k) => encodeValue(k, params[k]))
    .join("&");
}

/** `<base><path>?<params>` for the request's path under the configured external base URL. */
export function linkUrl(baseUrl: string, req: HttpRequest, params: Params): string {
  const base = baseUrl.endsWith("/") ? baseUrl.slice(0, -1) : baseUrl;
  const query = toQuery(params);
  return `${base}${req.path}${query === "" ? "" : `?${query}`}`;
}

/** `<url>; rel="name"` entries joined by `, ` (the format gitbeaker and python-gitlab parse). */
export function formatLink(entries: readonly (readonly [rel: string, url: string])[]): string {
  return entries.map(([rel, url]) => `<${url}>; rel="${rel}"`).join(", ");
}
