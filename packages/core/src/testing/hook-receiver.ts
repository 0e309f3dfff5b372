/** A real HTTP receiver on 127.0.0.1 for webhook tests: records every request and answers as told. */
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";

/** One request the receiver got. */
export interface ReceivedHook {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: unknown;
}

/** The receiver: its URL, what it received, and the status it answers with. */
export interface HookReceiver {
  readonly url: string;
  readonly received: ReceivedHook[];
  /** Status of the next answers (default 200). */
  status: number;
  close(): Promise<void>;
}

/** Starts a receiver on 127.0.0.1 (a free port). */
export async function startHookReceiver(): Promise<HookReceiver> {
  const received: ReceivedHook[] = [];
  const state = { status: 200 };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      let body: unknown = text;
      try {
        body = JSON.parse(text) as unknown;
      } catch {
        // kept as text
      }
      received.push({ method: req.method ?? "", path: req.url ?? "", headers: req.headers, body });
      res.writeHead(state.status, { "content-type": "application/json" });
      res.end(JSON.stringify({ received: received.length }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address !== null ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    get status() {
      return state.status;
    },
    set status(value: number) {
      state.status = value;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
