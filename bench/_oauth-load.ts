/**
 * A keep-alive load generator for the token endpoint's refresh grant (bench/oauth-token.ts): a
 * worker thread (its own core) keeps one socket per refresh-token chain busy — each response's
 * new `refresh_token` is the next request's (rotation), the way a real client uses the grant —
 * warms up, then counts the 200s completed in a fixed window. Responses must carry Content-Length.
 */
import { Worker } from "node:worker_threads";

export interface RefreshLoadOptions {
  port: number;
  path: string;
  /** One initial refresh token per connection. */
  refreshTokens: string[];
  /** Form fields sent with every request besides grant_type and refresh_token (client credentials). */
  form: Record<string, string>;
  warmupMs: number;
  durationMs: number;
}

export interface RefreshLoadResult {
  requestsPerSecond: number;
  responses: number;
  /** Non-200 answers during warm-up or window (each ends its chain). */
  badStatus: number;
  socketErrors: number;
}

const WORKER = `
const { parentPort, workerData } = require("node:worker_threads");
const net = require("node:net");
const { port, path, refreshTokens, extra, warmupMs, durationMs } = workerData;
let counting = false, stopped = false, responses = 0, badStatus = 0, socketErrors = 0;
function requestFor(token) {
  const body = "grant_type=refresh_token&refresh_token=" + encodeURIComponent(token) + extra;
  return "POST " + path + " HTTP/1.1\\r\\nHost: 127.0.0.1:" + port + "\\r\\nContent-Type: application/x-www-form-urlencoded\\r\\nContent-Length: " + Buffer.byteLength(body) + "\\r\\nConnection: keep-alive\\r\\n\\r\\n" + body;
}
function open(token) {
  const socket = net.connect(port, "127.0.0.1");
  socket.setNoDelay(true);
  let buffer = Buffer.alloc(0);
  socket.on("connect", () => socket.write(requestFor(token)));
  socket.on("error", () => { socketErrors++; });
  socket.on("data", (chunk) => {
    buffer = buffer.length === 0 ? chunk : Buffer.concat([buffer, chunk]);
    const end = buffer.indexOf("\\r\\n\\r\\n");
    if (end < 0) return;
    const head = buffer.toString("latin1", 0, end);
    const length = /content-length:\\s*(\\d+)/i.exec(head);
    if (length === null) { socketErrors++; socket.destroy(); return; }
    const total = end + 4 + Number(length[1]);
    if (buffer.length < total) return;
    const ok = head.startsWith("HTTP/1.1 200");
    const next = ok ? /"refresh_token":"([^"]+)"/.exec(buffer.toString("utf8", end + 4, total)) : null;
    if (!ok) badStatus++;
    else if (counting) responses++;
    buffer = buffer.subarray(total);
    if (stopped || next === null) { socket.destroy(); return; }
    socket.write(requestFor(next[1]));
  });
}
for (const token of refreshTokens) open(token);
setTimeout(() => {
  counting = true;
  setTimeout(() => {
    counting = false;
    stopped = true;
    parentPort.postMessage({ responses, badStatus, socketErrors });
  }, durationMs);
}, warmupMs);
`;

/** Runs one load window of refresh-token chains against 127.0.0.1:`port`. */
export function refreshLoad(options: RefreshLoadOptions): Promise<RefreshLoadResult> {
  const extra = Object.entries(options.form)
    .map(([k, v]) => `&${encodeURIComponent(k)}=${encodeURIComponent(v)}`)
    .join("");
  const worker = new Worker(WORKER, { eval: true, workerData: { port: options.port, path: options.path, refreshTokens: options.refreshTokens, extra, warmupMs: options.warmupMs, durationMs: options.durationMs } });
  return new Promise((resolve, reject) => {
    worker.once("error", reject);
    worker.once("message", (m: { responses: number; badStatus: number; socketErrors: number }) => {
      void worker.terminate();
      resolve({ ...m, requestsPerSecond: m.responses / (options.durationMs / 1000) });
    });
  });
}
