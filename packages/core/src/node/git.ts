/**
 * Git requests on Node: the raw `IncomingMessage` becomes the git request's body stream and git's
 * output is piped into the `ServerResponse` (DESIGN §7: never buffered, never under the JSON body
 * limit). A client that goes away aborts the request, which stops git.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { pipeline, Readable } from "node:stream";
import { gitMessages } from "../git-http/messages.js";
import type { GitHttpRequest, GitHttpServer } from "../git-http/types.js";

/** Serves one git request; resolves when the response has ended (or the client went away). */
export async function serveGitRequest(
  git: GitHttpServer,
  nodeReq: IncomingMessage,
  nodeRes: ServerResponse,
  target: { path: string; rawQuery: string },
  parsedBody: unknown,
): Promise<void> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(nodeReq.headers)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(", ") : value;
  }
  const method = (nodeReq.method ?? "GET").toUpperCase();
  // A body parser that ran first (express.raw(), a catch-all koa parser) already read the stream:
  // its Buffer still holds the bytes; anything it turned into something else cannot be streamed.
  let body: Readable = nodeReq;
  if (nodeReq.readableEnded && method === "POST") {
    if (!(parsedBody instanceof Uint8Array)) {
      write(nodeRes, 400, gitMessages.bodyConsumed);
      return;
    }
    body = Readable.from([parsedBody]);
  }
  const controller = new AbortController();
  const onClose = () => {
    if (!nodeRes.writableFinished) controller.abort();
  };
  nodeRes.on("close", onClose);
  const req: GitHttpRequest = { method, ...target, headers, body, signal: controller.signal };
  if (nodeReq.socket?.remoteAddress !== undefined) req.remoteAddress = nodeReq.socket.remoteAddress;
  const response = await git.handle(req);
  if (nodeRes.headersSent || nodeRes.destroyed) {
    if (typeof response.body !== "string") response.body.destroy();
    return;
  }
  nodeRes.statusCode = response.status;
  for (const [name, value] of Object.entries(response.headers)) nodeRes.setHeader(name, value);
  if (typeof response.body === "string") {
    nodeRes.setHeader("content-length", String(Buffer.byteLength(response.body, "utf8")));
    await new Promise<void>((resolve) => nodeRes.end(response.body, resolve));
    return;
  }
  const stream = response.body;
  await new Promise<void>((resolve) => {
    // A git failure mid-stream destroys the response: the client sees a broken transfer, never a
    // complete-looking one.
    pipeline(stream, nodeRes, () => resolve());
  });
  nodeRes.off("close", onClose);
}

function write(nodeRes: ServerResponse, status: number, message: string): void {
  const body = `${message}\n`;
  nodeRes.writeHead(status, { "content-type": "text/plain; charset=utf-8", "content-length": String(Buffer.byteLength(body)) });
  nodeRes.end(body);
}
