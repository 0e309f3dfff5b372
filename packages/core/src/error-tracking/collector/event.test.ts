import { describe, expect, it } from "vitest";
import { clip, readEvent, type CollectedEvent } from "./event.js";

const frames = (...names: string[]) => names.map((name) => ({ module: "app", function: name, lineno: 10 }));
const exception = (type: string, value: string, stack: string[] = ["main", "handle"]) => ({
  exception: { values: [{ type, value, stacktrace: { frames: frames(...stack) } }] },
});
const read = (value: unknown): CollectedEvent => readEvent(value)._unsafeUnwrap();
const unsupported = { code: "bad_request", reason: "Unsupported sentry payload" };

describe("readEvent - what is accepted", () => {
  it("an exception event: name, description, actor from the top frame, the payload re-serialised", () => {
    const event = { ...exception("TypeError", "x is undefined"), platform: "node", level: "error", environment: "prod" };
    expect(read(event)).toMatchObject({ name: "TypeError", description: "x is undefined", actor: "app:handle", platform: "node", level: "error", environment: "prod" });
    expect(JSON.parse(read(event).payload)).toEqual(event);
  });
  it("the primary exception is the last of a chain", () => {
    const event = { exception: { values: [{ type: "Cause", value: "inner" }, { type: "Wrapper", value: "outer" }] } };
    expect(read(event)).toMatchObject({ name: "Wrapper", description: "outer" });
  });
  it("the legacy bare exception array, and an exception without type or value", () => {
    expect(read({ exception: [{ type: "E", value: "v" }] })).toMatchObject({ name: "E", description: "v" });
    expect(read({ exception: { values: [{}] } })).toMatchObject({ name: "Error", description: "", actor: "" });
  });
  it("a message event (string, message object, logentry)", () => {
    expect(read({ message: "disk full" })).toMatchObject({ name: "disk full", description: "disk full" });
    expect(read({ message: { formatted: "user 7 failed", message: "user %s failed" } })).toMatchObject({ name: "user 7 failed" });
    expect(read({ logentry: { message: "only template" } })).toMatchObject({ name: "only template" });
  });
  it("actor: transaction, else culprit, else the top frame; an empty transaction falls through", () => {
    expect(read({ ...exception("E", "v"), transaction: "GET /cart", culprit: "c" }).actor).toBe("GET /cart");
    expect(read({ ...exception("E", "v"), transaction: "", culprit: "views.cart" }).actor).toBe("views.cart");
    expect(read({ ...exception("E", "v"), transaction: "" }).actor).toBe("app:handle");
  });
  it("event_id: 32 hex digits (dashes dropped, lower-cased), else null", () => {
    expect(read({ ...exception("E", "v"), event_id: "9EC79C33-EC99-42AB-8353-589FCB2E04DC" }).eventId).toBe("9ec79c33ec9942ab8353589fcb2e04dc");
    expect(read({ ...exception("E", "v"), event_id: "nope" }).eventId).toBeNull();
  });
  it("timestamp: Unix seconds or RFC 3339; anything else is null", () => {
    expect(read({ ...exception("E", "v"), timestamp: 1_714_564_800.25 }).occurredAt).toEqual(new Date(1_714_564_800_250));
    expect(read({ ...exception("E", "v"), timestamp: "2024-05-01T12:00:00Z" }).occurredAt).toEqual(new Date("2024-05-01T12:00:00Z"));
    for (const timestamp of ["yesterday", -5, 1e15, null]) expect(read({ ...exception("E", "v"), timestamp }).occurredAt).toBeNull();
  });
  it("text fields lose NUL characters and are cut to their column", () => {
    const event = read({ ...exception("Nul\u0000Type", "v".repeat(5000)), level: "l".repeat(300) });
    expect([event.name, event.description.length, event.level?.length]).toEqual(["NulType", 1024, 255]);
  });
});

describe("readEvent - what is refused (400 Unsupported sentry payload)", () => {
  it("anything that is not an object, or an object with neither exception nor message", () => {
    for (const value of ["********", 42, null, [], {}, { level: "error" }, { exception: { values: [] } }, { exception: { values: ["x"] } }, { message: "" }]) {
      expect(readEvent(value)._unsafeUnwrapErr()).toEqual(unsupported);
    }
  });
  it("an event nested too deeply to be re-serialised (would overflow the stack)", () => {
    const deep = JSON.parse(`${"[".repeat(20_000)}${"]".repeat(20_000)}`) as unknown;
    expect(readEvent({ ...exception("E", "v"), extra: deep })._unsafeUnwrapErr()).toEqual(unsupported);
    expect(readEvent({ ...exception("E", "v"), fingerprint: [deep] })._unsafeUnwrapErr()).toEqual(unsupported);
  });
  it("a platform that is not a string or is longer than 255 characters", () => {
    expect(readEvent({ ...exception("E", "v"), platform: "p".repeat(256) })._unsafeUnwrapErr()).toEqual(unsupported);
    expect(readEvent({ ...exception("E", "v"), platform: 7 })._unsafeUnwrapErr()).toEqual(unsupported);
    expect(read({ ...exception("E", "v"), platform: "p".repeat(255) }).platform).toHaveLength(255);
  });
});

describe("readEvent - fingerprints", () => {
  const key = (value: unknown) => read(value).fingerprint;
  it("is 64 hex digits; the same exception gives the same one", () => {
    expect(key(exception("E", "v"))).toMatch(/^[0-9a-f]{64}$/);
    expect(key({ ...exception("E", "v"), level: "warning", event_id: "0".repeat(32) })).toBe(key(exception("E", "v")));
  });
  it("type, value and the top frames decide it; line numbers do not", () => {
    const base = key(exception("E", "v"));
    expect(key(exception("F", "v"))).not.toBe(base);
    expect(key(exception("E", "w"))).not.toBe(base);
    expect(key(exception("E", "v", ["main", "other"]))).not.toBe(base);
    const moved = { exception: { values: [{ type: "E", value: "v", stacktrace: { frames: frames("main", "handle").map((f) => ({ ...f, lineno: 99 })) } }] } };
    expect(key(moved)).toBe(base);
  });
  it("only the five innermost frames count", () => {
    expect(key(exception("E", "v", ["a", "b", "c", "d", "e", "f"]))).toBe(key(exception("E", "v", ["z", "b", "c", "d", "e", "f"])));
    expect(key(exception("E", "v", ["a", "b", "c", "d", "e", "f"]))).not.toBe(key(exception("E", "v", ["a", "z", "c", "d", "e", "f"])));
  });
  it("an event's own fingerprint replaces the default; {{ default }} stands for it", () => {
    const custom = { fingerprint: ["checkout", 42] };
    expect(key({ ...exception("E", "v"), ...custom })).toBe(key({ ...exception("F", "w"), ...custom }));
    const withDefault = { fingerprint: ["{{ default }}", "tenant-1"] };
    expect(key({ ...exception("E", "v"), ...withDefault })).not.toBe(key({ ...exception("F", "v"), ...withDefault }));
    expect(key({ ...exception("E", "v"), fingerprint: ["{{default}}"] })).toBe(key(exception("E", "v")));
    expect(key({ ...exception("E", "v"), fingerprint: [] })).toBe(key(exception("E", "v")));
  });
  it("message events group by template, not by the formatted text", () => {
    expect(key({ message: { formatted: "user 7 failed", message: "user %s failed" } })).toBe(key({ message: { formatted: "user 8 failed", message: "user %s failed" } }));
    expect(key({ message: "a" })).not.toBe(key({ message: "b" }));
  });
});

describe("clip", () => {
  it("never splits a surrogate pair", () => {
    expect(clip("ab😀", 3)).toBe("ab");
    expect(clip("ab😀", 4)).toBe("ab😀");
  });
});
