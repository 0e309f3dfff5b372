/**
 * Git over HTTP (smart protocol) as hosts see it: a request whose body is a stream and a response
 * whose body may be one (DESIGN §7: packs are never buffered whole and never pass the JSON body
 * limit). The Node layer and the fetch handler build these from their own request types.
 */
import type { Readable } from "node:stream";

/** A git smart-HTTP request. */
export interface GitHttpRequest {
  /** Upper-case HTTP method. */
  method: string;
  /** Percent-encoded path below the mount prefix. */
  path: string;
  /** Query string without the leading `?` (e.g. `service=git-upload-pack`). */
  rawQuery: string;
  /** Lower-case names. */
  headers: Record<string, string | undefined>;
  /** The peer address (keys the password throttle). */
  remoteAddress?: string;
  /** The raw request body (still gzip-encoded when `Content-Encoding: gzip`). */
  body: Readable;
  /** Aborted when the client goes away: the git process is stopped. */
  signal?: AbortSignal;
}

/** A git smart-HTTP response; a stream body is git's own output, passed on as it comes. */
export interface GitHttpResponse {
  /** HTTP status code. */
  status: number;
  /** Response headers. */
  headers: Record<string, string>;
  /**  Readable;|A short text (refusals) or git's output as a stream. */
  body: string | Readable;
}

/** What adapters hand git requests to, before reading any body (`Forgekit.gitHttp`). */
export interface GitHttpServer {
  /**
   * Whether the request is a git smart-HTTP request forgekit serves:
   * `GET /<namespace>/<project>(.git)/info/refs` and `POST …/git-upload-pack|git-receive-pack`.
   * Decided on method and path alone, so the body stays unread for the host otherwise.
   */
  matches(method: string, path: string): boolean;
  /** Serves it. Never rejects: failures are rendered responses, a failure mid-stream ends the stream. */
  handle(req: GitHttpRequest): Promise<GitHttpResponse>;
}
