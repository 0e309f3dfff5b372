/**
 * The pipeline of an authenticated `GET /api/v4/projects/:id` on SQLite, stage by stage (issue 21):
 * each stage timed on its own, in process, one request at a time, with the same functions the
 * pipeline calls — parse (`toHttpRequest` of a Node request), route (`router.match` over the
 * instance's table), authenticate (the instance's authenticator: token and user statement),
 * params (query parse, merge, route schema), handler (the route's reads: project, namespace
 * chain, levels, facts), render (the JSON response: `JSON.stringify` of the entity), write
 * (`writeHttpResponse` into a response object that discards what it is given — the socket's own
 * cost is node's, the same for any server).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { mergeParams, toResponse } from "../packages/core/src/http/pipeline.js";
import { parseQuery } from "../packages/core/src/http/query.js";
import { createRouter } from "../packages/core/src/http/router.js";
import type { HttpResponse, Route } from "../packages/core/src/http/types.js";
import { toHttpRequest, writeHttpResponse } from "../packages/core/src/node/index.js";
import { sqlitePair } from "./_anchor-project.js";

/** Mean microseconds of `fn` over `runs` sequential calls (after 200 warm-up calls). */
async function time(fn: () => unknown, runs = 3000): Promise<number> {
  for (let i = 0; i < 200; i++) await fn();
  const started = performance.now();
  for (let i = 0; i < runs; i++) await fn();
  return ((performance.now() - started) * 1000) / runs;
}

/** Mean µs per stage, and their sum. */
export async function pipelineStages(print: (line: string) => void): Promise<Record<string, number>> {
  const pair = await sqlitePair();
  try {
    const { fk, tokens, projects } = pair.t;
    const url = `/api/v4/projects/${projects.publicProject.id}`;
    const nodeReq = { method: "GET", url, headers: { host: "127.0.0.1", "private-token": tokens.alice, connection: "keep-alive" }, readableEnded: false, socket: { remoteAddress: "127.0.0.1" } } as unknown as IncomingMessage;
    const parsed = (await toHttpRequest(nodeReq))._unsafeUnwrap();
    const router = createRouter(fk.routes);
    const match = router.match("GET", parsed.path);
    if (match.kind !== "matched") throw new Error("pipeline stages: route not matched");
    const route = match.route as Route;
    const raw = mergeParams(parseQuery(parsed.rawQuery), {}, match.pathParams);
    const identity = (await fk.authenticate(parsed, raw, route))._unsafeUnwrap();
    const params = route.params === undefined ? raw : route.params(raw)._unsafeUnwrap();
    const result = (await route.handler({ request: parsed, params, pathParams: match.pathParams, identity }))._unsafeUnwrap();
    const response: HttpResponse = toResponse("GET", result);
    const discard = { headersSent: false, statusCode: 200, setHeader: () => discard, end: () => discard } as unknown as ServerResponse;

    const stages: Record<string, number> = {
      parse: await time(() => toHttpRequest(nodeReq)),
      route: await time(() => router.match("GET", parsed.path)),
      authenticate: await time(() => fk.authenticate(parsed, raw, route)),
      params: await time(() => {
        const merged = mergeParams(parseQuery(parsed.rawQuery), {}, match.pathParams);
        return route.params === undefined ? merged : route.params(merged);
      }),
      handler: await time(() => route.handler({ request: parsed, params, pathParams: match.pathParams, identity })),
      render: await time(() => toResponse("GET", result)),
      write: await time(() => writeHttpResponse(discard, response)),
    };
    const rounded = Object.fromEntries(Object.entries(stages).map(([k, v]) => [k, Number(v.toFixed(1))]));
    const total = Object.values(stages).reduce((a, b) => a + b, 0);
    print(`pipeline stages, authenticated GET /projects/:id on SQLite (µs, in process, one at a time): ${Object.entries(rounded).map(([k, v]) => `${k} ${v}`).join(", ")}; sum ${total.toFixed(1)}`);
    return { ...rounded, sum: Number(total.toFixed(1)) };
  } finally {
    await pair.close();
  }
}
