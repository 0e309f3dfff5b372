/**
 * Server-rendered HTML for the authorization endpoint: escaping, one shared stylesheet allowed by
 * its hash (no inline script, no third-party resource), and the security headers every page
 * carries — framed by no one (RFC 6749 §10.13, RFC 9700 §4.16), no referrer, no caching.
 */
import { createHash } from "node:crypto";
import type { HttpResponse } from "../http/types.js";

/** Escapes text for HTML element content and double-quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The one stylesheet of the OAuth pages: readable, high contrast, visible focus, small screens. */
export const PAGE_CSS = [
  "*{box-sizing:border-box}",
  "body{margin:0;font:16px/1.5 system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;color:#1f1f1f;background:#f4f4f6}",
  "main{max-width:34rem;margin:3rem auto;padding:2rem;background:#fff;border:1px solid #d0d0d7;border-radius:8px}",
  "h1{font-size:1.5rem;margin:0 0 1rem}h2{font-size:1.1rem;margin:1.5rem 0 .5rem}",
  "ul{padding-left:1.25rem}li{margin:.5rem 0}code{font-size:.95em;word-break:break-all}",
  ".actions{display:flex;gap:1rem;justify-content:flex-end;margin-top:2rem}",
  "button{font:inherit;padding:.6rem 1.4rem;border-radius:6px;border:2px solid #1f1f1f;background:#fff;color:#1f1f1f;cursor:pointer}",
  "button.primary{background:#1d4ed8;border-color:#1d4ed8;color:#fff}",
  "button:focus-visible{outline:3px solid #f59e0b;outline-offset:2px}",
  ".error{border-left:4px solid #b91c1c;padding-left:1rem}",
].join("");

const STYLE_HASH = `'sha256-${createHash("sha256").update(PAGE_CSS).digest("base64")}'`;

/** A CSP `form-action` source for a redirect URI: its origin, or its scheme for native-app URIs. */
export function formActionSource(redirectUri: string): string | null {
  try {
    const url = new URL(redirectUri);
    return url.protocol === "http:" || url.protocol === "https:" ? url.origin : url.protocol;
  } catch {
    return null;
  }
}

/**
 * The page headers. `formTargets` are the CSP `form-action` sources: the form posts to this
 * origin, and browsers also apply `form-action` to the redirect that answers the post, so the
 * client's redirect origin must be listed too. No targets → `form-action 'none'`.
 */
export function pageHeaders(formTargets: readonly string[] = []): Record<string, string> {
  const formAction = formTargets.length === 0 ? "'none'" : ["'self'", ...formTargets].join(" ");
  return {
    "Content-Type": "text/html; charset=utf-8",
    "Cache-Control": "no-store",
    Pragma: "no-cache",
    "X-Frame-Options": "DENY",
    "Content-Security-Policy": `default-src 'none'; style-src ${STYLE_HASH}; form-action ${formAction}; frame-ancestors 'none'; base-uri 'none'`,
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
  };
}

/** A complete HTML document around `bodyHtml` (already escaped). */
export function htmlDocument(title: string, bodyHtml: string): string {
  return [
    "<!DOCTYPE html>",
    '<html lang="en">',
    "<head>",
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="referrer" content="no-referrer">',
    `<title>${escapeHtml(title)}</title>`,
    `<style>${PAGE_CSS}</style>`,
    "</head>",
    "<body>",
    bodyHtml,
    "</body>",
    "</html>",
  ].join("\n");
}

/** A page response. */
export function htmlPage(status: number, title: string, bodyHtml: string, formTargets: readonly string[] = []): HttpResponse {
  return { status, headers: pageHeaders(formTargets), body: htmlDocument(title, bodyHtml) };
}
