/**
 * The webhook receiver of bench/webhooks.ts, run as its own node process (so that forgekit's RSS
 * and event loop are forgekit's alone, as with a receiver on another host): plain `node:http` on
 * 127.0.0.1, answering every request 200 `{}` once its body has arrived. Argument: JSON
 * `{ hooks, pushes }`. Hook k's URL is `/hook/<k>`; the push is read from the body's
 * `"ref":"refs/heads/bench-<i>"`. It records, per (hook, push), the first arrival time (epoch ms,
 * `performance.timeOrigin + performance.now()`), and counts duplicates (an `Idempotency-Key` seen
 * before, or a second delivery of the same hook and push), order violations (a hook receiving push
 * i after a later push) and requests it could not map.
 *
 * IPC: sends `{ port }` once listening, `{ arrived }` every 100 ms while it changes; on the
 * message `"report"` sends `{ report }` (arrivals as a Float64Array, 0 = not arrived).
 */
import { Buffer } from "node:buffer";
import { createServer } from "node:http";
import { performance } from "node:perf_hooks";
import { clearInterval, setInterval } from "node:timers";

const { hooks, pushes } = JSON.parse(process.argv[2] ?? "{}");
const arrivals = new Float64Array(hooks * pushes);
const lastPush = new Int32Array(hooks).fill(-1);
const keys = new Set();
const counts = { arrived: 0, duplicates: 0, orderViolations: 0, unmapped: 0 };
const REF = /"ref":"refs\/heads\/bench-(\d+)"/;

const server = createServer((req, res) => {
  const chunks = [];
  req.on("data", (chunk) => chunks.push(chunk));
  req.on("end", () => {
    const at = performance.timeOrigin + performance.now();
    const hook = Number(/^\/hook\/(\d+)$/.exec(req.url ?? "")?.[1] ?? -1);
    const push = Number(REF.exec(Buffer.concat(chunks).toString("utf8"))?.[1] ?? -1);
    const key = req.headers["idempotency-key"];
    const slot = hook * pushes + push;
    if (hook < 0 || hook >= hooks || push < 0 || push >= pushes || typeof key !== "string") counts.unmapped += 1;
    else if (keys.has(key) || arrivals[slot] !== 0) counts.duplicates += 1;
    else {
      keys.add(key);
      arrivals[slot] = at;
      counts.arrived += 1;
      if (push < lastPush[hook]) counts.orderViolations += 1;
      else lastPush[hook] = push;
    }
    res.writeHead(200, { "content-type": "application/json", "content-length": "2" });
    res.end("{}");
  });
});

let told = -1;
const ticker = setInterval(() => {
  if (counts.arrived !== told) process.send?.({ arrived: (told = counts.arrived) });
}, 100);
process.on("message", (message) => {
  if (message !== "report") return;
  clearInterval(ticker);
  process.send?.({ report: { ...counts, arrivals } }, () => process.exit(0));
});
server.listen(0, "127.0.0.1", () => {
  const address = server.address();
  process.send?.({ port: typeof address === "object" && address !== null ? address.port : 0 });
});
