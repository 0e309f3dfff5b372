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
  const bytes = typeof response.body === "string" ? Buffer.from(response.body, "utf8") : response.body;
  if (response.headers["content-length"] === undefined) res.setHeader("content-length", String(bytes.length));
  res.end(bytes);
}
