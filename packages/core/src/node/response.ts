/** HttpResponse → Node `ServerResponse`. */
import type { ServerResponse } from "node:http";
import type { HttpResponse } from "../http/types.js";

/**
 * Writes status, headers and body. `Content-Length` is set from the body (kept when the response
 * already carries one, as HEAD responses do). Headers set earlier by the host stay unless replaced.
 */
export function writeHttpResponse(res: ServerResponse, response: HttpResponse): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  res.statusCode = response.status;
  for (const [name, value] of Object.entries(response.headers)) res.setHeader(name, value);
  if (response.body === undefined) {
    res.end();
    return;
  }
  const body = response.body;
  const length = typeof body === "string" ? Buffer.byteLength(body, "utf8") : body.length;
  if (response.headers["content-length"] === undefined) res.setHeader("content-length", String(length));
  // A string body leaves with the headers in one write; a Buffer costs a second (writev).
  if (typeof body === "string") res.end(body, "utf8");
  else res.end(body);
}
