/** Node `IncomingMessage` → HttpRequest, reading the body with a size limit (DESIGN §2). */
import type { IncomingMessage } from "node:http";
import { err, ok, type Result } from "neverthrow";
import { errors, type ForgekitError } from "../errors.js";
import { splitTarget } from "../http/instance.js";
import { DEFAULT_LIMITS } from "../http/pipeline.js";
import type { HttpRequest } from "../http/types.js";

/** Options of {@link toHttpRequest}. */
export interface NodeRequestOptions {
  /** Prefix stripped from the request target (none by default). */
  prefix?: string;
  /** Body limit in bytes (default 1 MiB); a larger body is 413 and is not read past the limit. */
  maxBodyBytes?: number;
  /**
   * A body a framework already parsed (express `req.body`, koa `ctx.request.body`). Used only when
   * the stream has been consumed; otherwise the raw bytes are read.
   */
  parsedBody?: unknown;
}

/** Why a request could not be read: the target is outside the prefix, or a ForgekitError (413). */
export type NodeRequestError = { kind: "outside_prefix" } | { kind: "error"; error: ForgekitError };

/** Reads a Node request into an HttpRequest. */
export async function toHttpRequest(nodeReq: IncomingMessage, options: NodeRequestOptions = {}): Promise<Result<HttpRequest, NodeRequestError>> {
  const target = splitTarget(nodeReq.url ?? "/", options.prefix);
  if (target === null) return err({ kind: "outside_prefix" });
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(nodeReq.headers)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(", ") : value;
  }
  const req: HttpRequest = { method: (nodeReq.method ?? "GET").toUpperCase(), ...target, headers };
  if (nodeReq.socket?.remoteAddress !== undefined) req.remoteAddress = nodeReq.socket.remoteAddress;
  if (nodeReq.readableEnded) {
    // A body parser consumed the stream before us.
    if (options.parsedBody !== undefined) req.parsedBody = options.parsedBody;
    return ok(req);
  }
  // RFC 9112 §6.3: without Content-Length or Transfer-Encoding a request has no body.
  if (nodeReq.headers["content-length"] === undefined && nodeReq.headers["transfer-encoding"] === undefined) return ok(req);
  const body = await readBody(nodeReq, options.maxBodyBytes ?? DEFAULT_LIMITS.maxBodyBytes);
  if (body === "too_large") return err({ kind: "error", error: errors.payloadTooLarge() });
  if (body.length > 0) req.body = body;
  return ok(req);
}

/** Reads the body, refusing (without buffering further) as soon as it passes `limit` bytes. */
function readBody(stream: IncomingMessage, limit: number): Promise<Uint8Array | "too_large"> {
  const declared = Number(stream.headers["content-length"] ?? "NaN");
  if (Number.isFinite(declared) && declared > limit) return Promise.resolve("too_large");
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const cleanup = () => {
      stream.off("data", onData);
      stream.off("end", onEnd);
      stream.off("error", onError);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        cleanup();
        resolve("too_large");
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      cleanup();
      resolve(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size));
    };
    const onError = (e: Error) => {
      cleanup();
      reject(e);
    };
    stream.on("data", onData);
    stream.on("end", onEnd);
    stream.on("error", onError);
  });
}
