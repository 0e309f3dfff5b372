import { deflateSync, gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import type { HttpRequest } from "../../http/types.js";
import { checkMediaType, collectorBody, sentryKeyFrom } from "./request.js";

const request = (headers: Record<string, string> = {}, body?: Uint8Array, parsedBody?: unknown): HttpRequest => ({
  method: "POST",
  path: "/api/v4/error_tracking/collector/api/1/envelope/",
  rawQuery: "",
  headers,
  ...(body === undefined ? {} : { body }),
  ...(parsedBody === undefined ? {} : { parsedBody }),
});
const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

describe("checkMediaType", () => {
  it("takes no content type and the three Sentry types, with parameters, in any case", () => {
    for (const type of [undefined, "", "application/x-sentry-envelope", "Application/JSON; charset=utf-8", "text/plain;charset=UTF-8"]) {
      expect(checkMediaType(request(type === undefined ? {} : { "content-type": type })).isOk()).toBe(true);
    }
  });
  it("refuses every other type with 415", () => {
    for (const type of ["application/gzip", "application/octet-stream", "text/html", "application/x-www-form-urlencoded", "multipart/form-data"]) {
      expect(checkMediaType(request({ "content-type": type }))._unsafeUnwrapErr()).toEqual({ code: "unsupported_media_type" });
    }
  });
  it("takes gzip, x-gzip, deflate and identity codings; refuses others with 415", () => {
    for (const coding of ["gzip", "X-GZIP", "deflate", "identity", "gzip, identity"]) expect(checkMediaType(request({ "content-encoding": coding })).isOk()).toBe(true);
    for (const coding of ["br", "zstd", "gzip, br"]) expect(checkMediaType(request({ "content-encoding": coding })).isErr()).toBe(true);
  });
});

describe("sentryKeyFrom", () => {
  it("the sentry_key parameter first", () => {
    expect(sentryKeyFrom(request({ "x-sentry-auth": "Sentry sentry_key=fromheader" }), { sentry_key: "fromquery" })).toBe("fromquery");
  });
  it("else X-Sentry-Auth, else Authorization: Sentry …; sentry_secret is ignored", () => {
    expect(sentryKeyFrom(request({ "x-sentry-auth": "Sentry sentry_version=7, sentry_secret=s3cr3t, sentry_key=fket_abc123" }), {})).toBe("fket_abc123");
    expect(sentryKeyFrom(request({ authorization: "Sentry sentry_key=fket_def, sentry_version=7" }), {})).toBe("fket_def");
  });
  it("null when there is none (a Bearer header is not a Sentry header)", () => {
    expect(sentryKeyFrom(request({ authorization: "Bearer sentry_key=nope" }), {})).toBeNull();
    expect(sentryKeyFrom(request({ "x-sentry-auth": "Sentry sentry_version=7" }), { sentry_key: "" })).toBeNull();
  });
});

describe("collectorBody", () => {
  const body = '{"hello":"world"}';
  it("passes an unencoded body through", async () => {
    expect(text((await collectorBody(request({}, new TextEncoder().encode(body)), 1024))._unsafeUnwrap())).toBe(body);
  });
  it("undoes gzip and deflate, and stacked codings in reverse order", async () => {
    expect(text((await collectorBody(request({ "content-encoding": "gzip" }, gzipSync(body)), 1024))._unsafeUnwrap())).toBe(body);
    expect(text((await collectorBody(request({ "content-encoding": "deflate" }, deflateSync(body)), 1024))._unsafeUnwrap())).toBe(body);
    const twice = gzipSync(deflateSync(body));
    expect(text((await collectorBody(request({ "content-encoding": "deflate, gzip" }, twice), 1024))._unsafeUnwrap())).toBe(body);
  });
  it("a decoded size past the limit is 413 (a zip bomb stops at the limit)", async () => {
    const bomb = gzipSync(Buffer.alloc(5 * 1024 * 1024));
    expect(bomb.length).toBeLessThan(10_000);
    expect((await collectorBody(request({ "content-encoding": "gzip" }, bomb), 64 * 1024))._unsafeUnwrapErr()).toEqual({ code: "payload_too_large" });
    expect((await collectorBody(request({ "content-encoding": "gzip" }, gzipSync("x".repeat(1024))), 1024)).isOk()).toBe(true);
  });
  it("a corrupt stream is 400 Failed to parse sentry request", async () => {
    expect((await collectorBody(request({ "content-encoding": "gzip" }, new TextEncoder().encode("plain")), 1024))._unsafeUnwrapErr()).toEqual({
      code: "bad_request",
      reason: "Failed to parse sentry request",
    });
  });
  it("a body a host parser already read: bytes and text as they are, an object re-serialised, codings not applied again", async () => {
    expect(text((await collectorBody(request({ "content-encoding": "gzip" }, undefined, body), 1024))._unsafeUnwrap())).toBe(body);
    expect(text((await collectorBody(request({}, undefined, new TextEncoder().encode(body)), 1024))._unsafeUnwrap())).toBe(body);
    expect(JSON.parse(text((await collectorBody(request({ "content-encoding": "gzip" }, undefined, { hello: "world" }), 1024))._unsafeUnwrap()))).toEqual({ hello: "world" });
    expect((await collectorBody(request(), 1024))._unsafeUnwrap()).toHaveLength(0);
  });
});
