/**
 * Test support for the real-tool acceptance tests: an HTTP proxy on 127.0.0.1 in front of the
 * quick-start server that forwards every request unchanged and records each call's method, path
 * and status (and the body of every answer outside 2xx), so a test can list exactly which calls a
 * tool made and name the ones that failed.
 */
import { request, createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** One call a tool made through the proxy. */
export interface RecordedCall {
  method: string;
  path: string;
  status: number;
  /** The answer's body (first 600 characters) when the status is not 2xx; "" otherwise. */
  body: string;
}

/** A running proxy: its base URL (`http://127.0.0.1:<port>`), the calls so far, and a way to stop it. */
export interface RecordingProxy {
  baseUrl: string;
  calls: RecordedCall[];
  close(): Promise<void>;
}

/** `METHOD path → status body` of a recorded call. */
export function describeCall(call: RecordedCall): string {
  return `${call.method} ${call.path} → ${call.status}${call.body === "" ? "" : ` ${call.body}`}`;
}

/** The recorded calls that failed, leaving out git's first unauthenticated 401 (it then retries with the URL's credentials). */
export function failedCalls(calls: RecordedCall[]): string[] {
  return calls.filter((call) => call.status >= 400 && !(call.status === 401 && /\/info\/refs\?service=/.test(call.path))).map(describeCall);
}

/** Starts a proxy forwarding to `target` (an `http://host:port` origin). */
export async function recordingProxy(target: string): Promise<RecordingProxy> {
  const upstream = new URL(target);
  const calls: RecordedCall[] = [];
  const forward = (req: IncomingMessage, res: ServerResponse) => {
    const call: RecordedCall = { method: req.method ?? "GET", path: req.url ?? "/", status: 0, body: "" };
    calls.push(call);
    const out = request(
      { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: { ...req.headers, host: upstream.host } },
      (answer) => {
        call.status = answer.statusCode ?? 0;
        res.writeHead(call.status, answer.headers);
        const failed = call.status < 200 || call.status > 299;
        answer.on("data", (chunk: Buffer) => {
          if (failed && call.body.length < 600) call.body = (call.body + chunk.toString("utf8")).slice(0, 600);
        });
        answer.pipe(res);
      },
    );
    out.on("error", (error) => {
      call.status = 502;
      call.body = error.message;
      res.writeHead(502).end(error.message);
    });
    req.pipe(out);
  };
  const server = createServer(forward);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    calls,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
