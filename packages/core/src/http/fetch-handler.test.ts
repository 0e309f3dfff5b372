import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { Readable } from "node:stream";
import { allHttpSuites, conventionSuites, describeHttpSuite, listenOn } from "../testing/index.js";
import type { HttpInstance } from "./instance.js";
import { toFetchHandler } from "./fetch.js";

/** Hosts a fetch handler on node:http the way Hono's node server does: Request in, Response out. */
function fetchServer(instance: HttpInstance, prefix?: string) {
  const handler = toFetchHandler(instance, prefix === undefined ? {} : { prefix });
  return createServer((req: IncomingMessage, res: ServerResponse) => {
    const hasBody = req.method !== "GET" && req.method !== "HEAD";
    const headers = new Headers();
    for (const [k, v] of Object.entries(req.headers)) if (v !== undefined) headers.set(k, Array.isArray(v) ? v.join(", ") : v);
    const request = new Request(`http://${req.headers.host ?? "localhost"}${req.url ?? "/"}`, {
      method: req.method ?? "GET",
      headers,
      ...(hasBody ? { body: Readable.toWeb(req) as ReadableStream, duplex: "half" } : {}),
    });
    void handler(request).then(async (response) => {
      res.statusCode = response.status;
      response.headers.forEach((value, name) => res.setHeader(name, value));
      res.end(Buffer.from(await response.arrayBuffer()));
    });
  });
}

describeHttpSuite("fetch", (instance) => listenOn(fetchServer(instance)), allHttpSuites);
describeHttpSuite("fetch below /forge", (instance) => listenOn(fetchServer(instance, "/forge"), "/forge"), conventionSuites);
