/**
 * The real `@sentry/node` SDK against a real server on 127.0.0.1 (DESIGN §8): settings and a client
 * key are made through the REST API, the SDK is configured with the DSN the API returned, and the
 * exception it sends must come out of `fk.errorTracking.listErrors`. Also with the instance below a
 * sub-path, so the DSN's path prefix is what the SDK posts to.
 */
import { createServer, type RequestListener, type Server } from "node:http";
import * as Sentry from "@sentry/node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createNodeHandler } from "../node/serve.js";
import { createTestForgekit, type TestForgekit } from "../testing/fixtures.js";
import { listenOn, type ServedInstance } from "../testing/http-harness.js";

/** A server whose handler is set after it listens (the base URL needs the port). */
async function lateServer(): Promise<{ served: ServedInstance; port: number; use(listener: RequestListener): void; seen: string[] }> {
  let listener: RequestListener | null = null;
  const seen: string[] = [];
  const server: Server = createServer((req, res) => {
    const line = `${req.method ?? ""} ${req.url ?? ""} type=${req.headers["content-type"] ?? "-"} encoding=${req.headers["content-encoding"] ?? "-"}`;
    res.on("finish", () => seen.push(`${line} → ${res.statusCode}`));
    if (listener === null) res.writeHead(503).end();
    else listener(req, res);
  });
  const served = await listenOn(server);
  return { served, port: Number(new URL(served.url).port), use: (l) => void (listener = l), seen };
}

/** Makes settings and a key through the API as alice (Owner of grp) and returns the key's DSN. */
async function dsnFor(t: TestForgekit, base: string, projectId: number): Promise<string> {
  const headers = { "private-token": t.tokens.alice, "content-type": "application/json" };
  const put = await fetch(`${base}/api/v4/projects/${projectId}/error_tracking/settings`, { method: "PUT", headers, body: JSON.stringify({ active: true, integrated: true }) });
  expect(put.status).toBe(200);
  const key = await fetch(`${base}/api/v4/projects/${projectId}/error_tracking/client_keys`, { method: "POST", headers, body: "{}" });
  expect(key.status).toBe(201);
  const body = (await key.json()) as { sentry_dsn: string };
  return body.sentry_dsn;
}

function initSentry(dsn: string): void {
  Sentry.init({ dsn, defaultIntegrations: false, tracesSampleRate: 0, sendClientReports: false, release: "forgekit-test@1.0.0", environment: "test" });
}

class CheckoutFailed extends Error {
  override name = "CheckoutFailed";
}

function failCheckout(order: number): never {
  throw new CheckoutFailed(`order ${order} could not be charged`);
}

describe("@sentry/node → collector", () => {
  afterEach(async () => {
    await Sentry.close(2000);
  });

  describe("at the root", () => {
    let t: TestForgekit;
    let server: Awaited<ReturnType<typeof lateServer>>;
    beforeAll(async () => {
      server = await lateServer();
      t = await createTestForgekit({ baseUrl: `http://127.0.0.1:${server.port}` });
      server.use(createNodeHandler(t.fk));
    });
    afterAll(() => server.served.close());

    it("an exception captured by the SDK is stored, grouped by type, message and frames, with counts", async () => {
      const project = t.projects.publicProject;
      const dsn = await dsnFor(t, server.served.url, project.id);
      expect(dsn).toMatch(new RegExp(`^http://fket_[0-9a-f]{32}@127\\.0\\.0\\.1:${server.port}/api/v4/error_tracking/collector/${project.id}$`));
      initSentry(dsn);
      for (const order of [1, 2]) {
        try {
          failCheckout(order);
        } catch (error) {
          Sentry.captureException(error);
        }
      }
      expect(await Sentry.flush(5000)).toBe(true);

      const listed = await t.fk.errorTracking.listErrors(project.id);
      const errors = listed._unsafeUnwrap().items;
      // The message differs (order 1 / order 2), so the default fingerprint makes two groups.
      expect(errors.map((e) => [e.name, e.description, e.eventCount, e.platform]).sort()).toEqual([
        ["CheckoutFailed", "order 1 could not be charged", 1, "node"],
        ["CheckoutFailed", "order 2 could not be charged", 1, "node"],
      ]);
      const events = (await t.fk.errorTracking.listErrorEvents(project.id, errors[0]!.id))._unsafeUnwrap().items;
      expect(events).toHaveLength(1);
      expect(events[0]).toMatchObject({ eventId: expect.stringMatching(/^[0-9a-f]{32}$/), level: "error", environment: "test" });
      const payload = JSON.parse(events[0]!.payload) as { release?: string; exception?: { values?: { stacktrace?: { frames?: { function?: string }[] } }[] } };
      expect(payload.release).toBe("forgekit-test@1.0.0");
      expect(payload.exception?.values?.[0]?.stacktrace?.frames?.some((f) => f.function === "failCheckout")).toBe(true);
      // The SDK posted envelopes to the collector path with the key in the query, and got 200s.
      const posts = server.seen.filter((s) => s.startsWith(`POST /api/v4/error_tracking/collector/api/${project.id}/envelope/?`));
      expect(posts).toHaveLength(2);
      for (const post of posts) expect(post).toMatch(/sentry_key=fket_[0-9a-f]{32}.* → 200$/);
    });

    it("events with the SDK's fingerprint group together whatever their message", async () => {
      const project = t.projects.internalProject;
      initSentry(await dsnFor(t, server.served.url, project.id));
      for (const order of [3, 4, 5]) {
        Sentry.withScope((scope) => {
          scope.setFingerprint(["checkout", "charge"]);
          Sentry.captureException(new CheckoutFailed(`order ${order} could not be charged`));
        });
      }
      Sentry.captureMessage("cache is cold");
      expect(await Sentry.flush(5000)).toBe(true);
      const errors = (await t.fk.errorTracking.listErrors(project.id, { sort: "frequency" }))._unsafeUnwrap().items;
      expect(errors.map((e) => [e.name, e.eventCount])).toEqual([
        ["CheckoutFailed", 3],
        ["cache is cold", 1],
      ]);
    });

    it("an event past the SDK's compression threshold arrives gzip-encoded and is stored whole", async () => {
      const project = t.projects.hidden;
      initSentry(await dsnFor(t, server.served.url, project.id));
      const blob = "breadcrumbs ".repeat(8000);
      Sentry.captureException(new TypeError("large event"), { extra: { blob } });
      expect(await Sentry.flush(5000)).toBe(true);
      const post = server.seen.filter((s) => s.includes(`/collector/api/${project.id}/envelope/`));
      expect(post).toEqual([expect.stringMatching(/encoding=gzip → 200$/)]);
      const [error] = (await t.fk.errorTracking.listErrors(project.id))._unsafeUnwrap().items;
      const [event] = (await t.fk.errorTracking.listErrorEvents(project.id, error!.id))._unsafeUnwrap().items;
      expect((JSON.parse(event!.payload) as { extra: { blob: string } }).extra.blob).toBe(blob);
    });

    it("a deleted client key stops the SDK's events (the collector answers 404)", async () => {
      const project = t.projects.privateProject;
      const dsn = await dsnFor(t, server.served.url, project.id);
      const keyId = (await t.fk.errorTracking.listClientKeys(project.id))._unsafeUnwrap().items[0]!.id;
      const removed = await fetch(`${server.served.url}/api/v4/projects/${project.id}/error_tracking/client_keys/${keyId}`, {
        method: "DELETE",
        headers: { "private-token": t.tokens.alice },
      });
      expect(removed.status).toBe(204);
      initSentry(dsn);
      Sentry.captureException(new CheckoutFailed("after the key was deleted"));
      await Sentry.flush(5000);
      expect(server.seen.filter((s) => s.includes(`/collector/api/${project.id}/envelope/`))).toEqual([expect.stringMatching(/ → 404$/)]);
      expect((await t.fk.errorTracking.listErrors(project.id))._unsafeUnwrap().total).toBe(0);
    });
  });

  describe("below a sub-path of the base URL", () => {
    let t: TestForgekit;
    let server: Awaited<ReturnType<typeof lateServer>>;
    beforeAll(async () => {
      server = await lateServer();
      t = await createTestForgekit({ baseUrl: `http://127.0.0.1:${server.port}/forge` });
      server.use(createNodeHandler(t.fk, { prefix: "/forge" }));
    });
    afterAll(() => server.served.close());

    it("the DSN keeps the path prefix and the SDK posts below it", async () => {
      const project = t.projects.personal;
      const dsn = await dsnFor(t, `${server.served.url}/forge`, project.id);
      expect(new URL(dsn).pathname).toBe(`/forge/api/v4/error_tracking/collector/${project.id}`);
      initSentry(dsn);
      Sentry.captureException(new RangeError("below the prefix"));
      expect(await Sentry.flush(5000)).toBe(true);
      expect((await t.fk.errorTracking.listErrors(project.id))._unsafeUnwrap().items.map((e) => e.name)).toEqual(["RangeError"]);
      expect(server.seen.filter((s) => s.startsWith(`POST /forge/api/v4/error_tracking/collector/api/${project.id}/envelope/`))).toEqual([expect.stringMatching(/ → 200$/)]);
    });
  });
});
