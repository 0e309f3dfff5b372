/**
 * A small keep-alive HTTP/1.1 load generator for bench/http-serving.ts: a worker thread (its own
 * core) keeps `connections` sockets busy with one request at a time each, warms up, then counts
 * the responses completed in a fixed window. Raw sockets keep the client cheaper than any server
 * it measures; responses must carry Content-Length (every server under test does).
 */
import { Worker } from "node:worker_threads";

/** What to load and for how long. */
export interface LoadOptions {
  port: number;
  path: string;
  headers?: Record<string, string>;
  connections: number;
  warmupMs: number;
  durationMs: number;
}

/** Responses per second in the measured window, plus anything that went wrong. */
export interface LoadResult {
  requestsPerSecond: number;
  responses: number;
  /** Non-200 responses in the window. */
  badStatus: number;
  socketErrors: number;
}

const WORKER = `
const { parentPort, workerData } = require("node:worker_threads");
const net = require("node:net");
const { port, path, headers, connections, warmupMs, durationMs } = workerData;
const request = Buffer.from("GET " + path + " HTTP/1.1\\r\\nHost: 127.0.0.1:" + port + "\\r\\n" + headers + "Connection: keep-alive\\r\\n\\r\\n", "latin1");
let counting = false, stopped = false, responses = 0, badStatus = 0, socketErrors = 0;
function open() {
  const socket = net.connect(port, "127.0.0.1");
  socket.setNoDelay(true);
  let buffer = Buffer.alloc(0);
  socket.on("connect", () => socket.write(request));
  socket.on("error", () => { socketErrors++; });
  socket.on("data", (chunk) => {
    buffer = buffer.length === 0 ? chunk : Buffer.concat([buffer, chunk]);
    for (;;) {
      const end = buffer.indexOf("\\r\\n\\r\\n");
      if (end < 0) return;
      const head = buffer.toString("latin1", 0, end);
      const length = /content-length:\\s*(\\d+)/i.exec(head);
      if (length === null) { socketErrors++; socket.destroy(); return; }
      const total = end + 4 + Number(length[1]);
      if (buffer.length < total) return;
      if (counting) {
        responses++;
        if (!head.startsWith("HTTP/1.1 200")) badStatus++;
      }
      buffer = buffer.subarray(total);
      if (stopped) { socket.destroy(); return; }
      socket.write(request);
    }
  });
}
for (let i = 0; i < connections; i++) open();
setTimeout(() => {
  counting = true;
  setTimeout(() => {
    counting = false;
    stopped = true;
    parentPort.postMessage({ responses, badStatus, socketErrors });
  }, durationMs);
}, warmupMs);
`;

/** Runs one load window against 127.0.0.1:`port`. */
export function load(options: LoadOptions): Promise<LoadResult> {
  const headers = Object.entries(options.headers ?? {})
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join("");
  const worker = new Worker(WORKER, { eval: true, workerData: { ...options, headers } });
  return new Promise((resolve, reject) => {
    worker.once("error", reject);
    worker.once("message", (m: { responses: number; badStatus: number; socketErrors: number }) => {
      void worker.terminate();
      resolve({ ...m, requestsPerSecond: m.responses / (options.durationMs / 1000) });
    });
  });
}
