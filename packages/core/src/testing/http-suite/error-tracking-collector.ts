/**
 * The collector behind the DSN (reference §5.3; client-compatibility §6.21–22):
 * `POST /error_tracking/collector/api/:project_id/envelope/` and `…/store/`.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { must } from "../fixtures.js";
import type { HttpSuite } from "../http-harness.js";
import { BODIES, collect, enableCollector, envelope, errorTrackingWorld, exceptionEvent, expectJson, gzip, type ErrorTrackingWorld } from "./error-tracking-kit.js";

/** Error-tracking collector endpoints. */
export const errorTrackingCollectorSuite: HttpSuite = (h) => {
  let w: ErrorTrackingWorld;
  let key: string;
  const id = () => w.project.id;
  const errorsOf = async (projectId = id()) => (await must(w.t.fk.errorTracking.listErrors(projectId))).items;
  const count = async (projectId = id()) => (await must(w.t.fk.errorTracking.listErrors(projectId))).items.reduce((n, e) => n + e.eventCount, 0);
  const eventEnvelope = (type = "TypeError", value = "x is undefined") => envelope([{ type: "event", payload: exceptionEvent(type, value) }]);

  describe("error tracking collector", () => {
    beforeAll(async () => {
      w = await errorTrackingWorld();
      key = await enableCollector(w.t, id());
      await h.serve(w.t.fk);
    });

    describe("POST /error_tracking/collector/api/:project_id/envelope", () => {
      it("an event envelope with the key in sentry_key → 200 {} without API credentials; the error is listed", async () => {
        const before = await count();
        expectJson(await collect(h, id(), "envelope", { key, body: eventEnvelope("ReferenceError", "cart is not defined") }), 200, {});
        expect(await count()).toBe(before + 1);
        const error = (await errorsOf()).find((e) => e.name === "ReferenceError");
        expect(error).toMatchObject({ description: "cart is not defined", eventCount: 1, platform: "node", actor: "lib/cart.js:checkout" });
      });
      it("browser SDKs post cross-origin: the 200 carries Access-Control-Allow-Origin: *", async () => {
        const r = await collect(h, id(), "envelope", { key, body: eventEnvelope(), headers: { "content-type": "text/plain;charset=UTF-8", origin: "https://shop.example" } });
        expectJson(r, 200, {});
        expect(r.headers["access-control-allow-origin"]).toBe("*");
      });
      it("the key may come in X-Sentry-Auth (Sentry sentry_version=7, sentry_key=…), the trailing slash is optional", async () => {
        const headers = { "x-sentry-auth": `Sentry sentry_version=7, sentry_client=sentry.python/2.0.0, sentry_key=${key}, sentry_secret=ignored` };
        expectJson(await collect(h, id(), "envelope", { key: null, headers, body: eventEnvelope(), slash: false }), 200, {});
      });
      it("the same exception twice is one group counting both, with first and last seen", async () => {
        w.t.clock.set("2024-05-02T08:00:00.000Z");
        await collect(h, id(), "envelope", { key, body: eventEnvelope("KeyError", "'sku'") });
        w.t.clock.set("2024-05-02T09:30:00.000Z");
        await collect(h, id(), "envelope", { key, body: eventEnvelope("KeyError", "'sku'") });
        const group = (await errorsOf()).find((e) => e.name === "KeyError");
        expect(group).toMatchObject({ eventCount: 2, firstSeenAt: new Date("2024-05-02T08:00:00.000Z"), lastSeenAt: new Date("2024-05-02T09:30:00.000Z") });
      });
      it("content types: none, text/plain, application/x-sentry-envelope and application/json are taken", async () => {
        for (const type of [undefined, "text/plain;charset=UTF-8", "application/x-sentry-envelope", "application/json"]) {
          const r = await collect(h, id(), "envelope", { key, body: eventEnvelope(), headers: type === undefined ? {} : { "content-type": type } });
          expect([type, r.status]).toEqual([type, 200]);
        }
      });
      it("any other content type → 415, nothing stored", async () => {
        const before = await count();
        for (const type of ["application/gzip", "application/octet-stream", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x"]) {
          expectJson(await collect(h, id(), "envelope", { key, body: eventEnvelope(), headers: { "content-type": type } }), 415, BODIES.unsupportedMediaType);
        }
        expectJson(await collect(h, id(), "envelope", { key, body: eventEnvelope(), headers: { "content-encoding": "br" } }), 415, BODIES.unsupportedMediaType);
        expect(await count()).toBe(before);
      });
      it("Content-Encoding: gzip is decompressed", async () => {
        const body = gzip(eventEnvelope("ZipError", "from a gzip envelope"));
        const r = await collect(h, id(), "envelope", { key, body, headers: { "content-encoding": "gzip", "content-type": "application/x-sentry-envelope" } });
        expectJson(r, 200, {});
        expect((await errorsOf()).some((e) => e.name === "ZipError")).toBe(true);
      });
      it("a gzip body that expands past the body limit → 413; a corrupt one → 400", async () => {
        const bomb = gzip(" ".repeat(w.t.fk.config.limits.bodyBytes + 1));
        expectJson(await collect(h, id(), "envelope", { key, body: bomb, headers: { "content-encoding": "gzip" } }), 413, BODIES.tooLarge);
        expectJson(await collect(h, id(), "envelope", { key, body: "not gzip at all", headers: { "content-encoding": "gzip" } }), 400, BODIES.parseFailed);
      });
      it("a chunked body (no Content-Length) is read", async () => {
        const text = eventEnvelope("ChunkError", "sent in chunks");
        const stream = new ReadableStream<Uint8Array>({
          start(controller) {
            controller.enqueue(new TextEncoder().encode(text.slice(0, 40)));
            controller.enqueue(new TextEncoder().encode(text.slice(40)));
            controller.close();
          },
        });
        const url = `${h.url()}/api/v4/error_tracking/collector/api/${id()}/envelope/?sentry_key=${key}`;
        const init = { method: "POST", body: stream, duplex: "half" } as RequestInit;
        const r = await fetch(url, init);
        expect([r.status, await r.text()]).toEqual([200, "{}"]);
        expect((await errorsOf()).some((e) => e.name === "ChunkError")).toBe(true);
      });
      it("session and client_report items are skipped without failing; the event beside them is stored", async () => {
        const body = envelope([
          { type: "session", payload: { sid: "b8f3e0e7", status: "ok", errors: 0 } },
          { type: "event", payload: exceptionEvent("SessionNeighbour", "stored"), withLength: true },
          { type: "client_report", payload: { discarded_events: [] } },
        ]);
        expectJson(await collect(h, id(), "envelope", { key, body }), 200, {});
        expect((await errorsOf()).some((e) => e.name === "SessionNeighbour")).toBe(true);
        const only = envelope([{ type: "sessions", payload: { aggregates: [] } }, { type: "transaction", payload: { type: "transaction" } }]);
        expectJson(await collect(h, id(), "envelope", { key, body: only }), 200, {});
      });
      it("no key → 400 Failed to parse sentry request", async () => {
        expectJson(await collect(h, id(), "envelope", { key: null, body: eventEnvelope() }), 400, BODIES.parseFailed);
        expectJson(await collect(h, id(), "envelope", { key: null, body: eventEnvelope(), headers: { "x-sentry-auth": "Sentry sentry_version=7" } }), 400, BODIES.parseFailed);
      });
      it("malformed envelopes → 400 Failed to parse sentry request", async () => {
        for (const body of ["", "not json\n{}", '{}\n{"length":5}\n{}', '{}\n{"type":"event","length":999}\n{}', '{}\n{"type":"event"}\n{broken']) {
          expectJson(await collect(h, id(), "envelope", { key, body }), 400, BODIES.parseFailed);
        }
      });
      it("an event with neither exception nor message → 400 Unsupported sentry payload, nothing stored", async () => {
        const before = await count();
        const body = envelope([{ type: "event", payload: exceptionEvent() }, { type: "event", payload: { level: "error" } }]);
        expectJson(await collect(h, id(), "envelope", { key, body }), 400, BODIES.unsupportedPayload);
        expect(await count()).toBe(before);
      });
    });

    describe("POST /error_tracking/collector/api/:project_id/store", () => {
      it("a JSON event → 200 {} and it is stored with its fields", async () => {
        const event = exceptionEvent("StoreError", "posted to store", { fingerprint: ["store-endpoint"] });
        expectJson(await collect(h, id(), "store", { key, body: JSON.stringify(event), headers: { "content-type": "application/json" } }), 200, {});
        const group = (await errorsOf()).find((e) => e.name === "StoreError");
        const [stored] = (await must(w.t.fk.errorTracking.listErrorEvents(id(), group!.id))).items;
        expect(stored).toMatchObject({ eventId: "9ec79c33ec9942ab8353589fcb2e04dc", level: "error", environment: "production", occurredAt: new Date(1_714_564_800_500) });
        expect(JSON.parse(stored!.payload)).toEqual(event);
      });
      it("without the trailing slash, and gzip-encoded", async () => {
        const body = gzip(JSON.stringify(exceptionEvent("StoreZip", "gzip store")));
        expectJson(await collect(h, id(), "store", { key, body, slash: false, headers: { "content-encoding": "gzip" } }), 200, {});
      });
      it("a message event is stored too (captureMessage)", async () => {
        const body = JSON.stringify({ message: "disk almost full", level: "warning", platform: "python" });
        expectJson(await collect(h, id(), "store", { key, body }), 200, {});
        expect((await errorsOf()).find((e) => e.name === "disk almost full")).toMatchObject({ platform: "python" });
      });
      it("NUL characters and an empty transaction are accepted", async () => {
        const body = JSON.stringify(exceptionEvent("Nul\u0000Error", "with \u0000 inside", { transaction: "" }));
        expectJson(await collect(h, id(), "store", { key, body }), 200, {});
        expect((await errorsOf()).some((e) => e.name === "NulError" && e.description === "with  inside")).toBe(true);
      });
      it("a body that is not JSON → 400 Failed to parse sentry request; not an event → 400 Unsupported sentry payload", async () => {
        expectJson(await collect(h, id(), "store", { key, body: "{oops" }), 400, BODIES.parseFailed);
        expectJson(await collect(h, id(), "store", { key, body: '"********"' }), 400, BODIES.unsupportedPayload);
        const deep = JSON.stringify(exceptionEvent("Deep", "nesting")).replace(/}$/, `,"extra":${"[".repeat(20_000)}${"]".repeat(20_000)}}`);
        expectJson(await collect(h, id(), "store", { key, body: deep }), 400, BODIES.unsupportedPayload);
        expectJson(await collect(h, id(), "store", { key, body: JSON.stringify(exceptionEvent("X", "y", { platform: "p".repeat(256) })) }), 400, BODIES.unsupportedPayload);
      });
    });

    describe("collector access: only active keys of an active, integrated project (one uniform 404)", () => {
      it("unknown key, key of another project, inactive key, unknown project → 404 Not Found", async () => {
        const otherKey = await enableCollector(w.t, w.t.projects.internalProject.id);
        const inactive = await must(w.t.fk.errorTracking.createClientKey(id()));
        await must(w.t.fk.errorTracking.setClientKeyActive(id(), inactive.id, false));
        for (const [projectId, k] of [[id(), "fket_00000000000000000000000000000000"], [id(), otherKey], [id(), inactive.publicKey], [999_999, key], [2_147_483_648, key], ["abc", key]] as const) {
          expectJson(await collect(h, projectId, "envelope", { key: k, body: eventEnvelope() }), 404, BODIES.notFound);
        }
      });
      it("settings inactive, not integrated, or absent → 404 Not Found", async () => {
        const project = w.t.projects.privateProject;
        const k = await enableCollector(w.t, project.id);
        const send = () => collect(h, project.id, "store", { key: k, body: JSON.stringify(exceptionEvent()) });
        expectJson(await send(), 200, {});
        await must(w.t.fk.errorTracking.patchSettings(project.id, { active: false }));
        expectJson(await send(), 404, BODIES.notFound);
        await must(w.t.fk.errorTracking.putSettings(project.id, { active: true, integrated: false }));
        expectJson(await send(), 404, BODIES.notFound);
        const bare = await must(w.t.fk.errorTracking.createClientKey(w.t.projects.personal.id));
        expectJson(await collect(h, w.t.projects.personal.id, "store", { key: bare.publicKey, body: "{}" }), 404, BODIES.notFound);
      });
    });
  });
};
