import { describe, expect, it } from "vitest";
import { parseConfig } from "../config.js";
import { memoryStore } from "../memory-store/index.js";
import { isHostLogger, toLogger } from "./host-logger.js";

/** Records every call of every level method (and of `log`). */
function recorder(extra: Record<string, unknown> = {}) {
  const calls: { method: string; args: unknown[] }[] = [];
  const method = (name: string) => (...args: unknown[]) => void calls.push({ method: name, args });
  return { calls, logger: { debug: method("debug"), info: method("info"), warn: method("warn"), error: method("error"), ...extra } };
}

describe("toLogger", () => {
  it("calls a pino-style logger (level methods and child) as level(obj, msg)", () => {
    const { calls, logger } = recorder({ child: () => logger, level: "info" });
    toLogger(logger).log("warn", "store.connection_lost", { dialect: "pg" });
    expect(calls).toEqual([{ method: "warn", args: [{ event: "store.connection_lost", dialect: "pg" }, "store.connection_lost"] }]);
  });

  it("calls a console-like logger as level(event, fields), without fields when there are none", () => {
    const { calls, logger } = recorder({ log: () => expect.unreachable("log is not used when level methods exist") });
    const wrapped = toLogger(logger);
    wrapped.log("error", "oauth.key_invalid", { kid: "k1" });
    wrapped.log("info", "jobs.worker_started");
    expect(calls).toEqual([
      { method: "error", args: ["oauth.key_invalid", { kid: "k1" }] },
      { method: "info", args: ["jobs.worker_started"] },
    ]);
  });

  it("accepts console itself", () => {
    expect(isHostLogger(console)).toBe(true);
    expect(() => toLogger(console).log("debug", "x", { a: 1 })).not.toThrow();
  });

  it("uses forgekit's own Logger (only log) as it is", () => {
    const lines: unknown[][] = [];
    toLogger({ log: (...args: unknown[]) => void lines.push(args) }).log("info", "e", { a: 1 });
    expect(lines).toEqual([["info", "e", { a: 1 }]]);
  });

  it("drops the line when the host's logger throws", () => {
    const throwing = { log: () => { throw new Error("disk full"); } };
    expect(() => toLogger(throwing).log("error", "e")).not.toThrow();
  });

  it("refuses values that are no logger", () => {
    for (const value of [null, 1, "console", {}, { info: () => 1 }]) expect(isHostLogger(value)).toBe(false);
  });
});

describe("configuration `logger`", () => {
  it("takes a pino-style logger directly", () => {
    const { calls, logger } = recorder({ child: () => logger });
    const config = parseConfig({ baseUrl: "https://x.example", store: memoryStore(), logger })._unsafeUnwrap();
    config.logger.log("info", "hello", { n: 1 });
    expect(calls).toEqual([{ method: "info", args: [{ event: "hello", n: 1 }, "hello"] }]);
  });

  it("names what it accepts when given something else", () => {
    const issues = parseConfig({ baseUrl: "https://x.example", store: memoryStore(), logger: { write: () => 1 } })._unsafeUnwrapErr().issues;
    expect(issues).toEqual([{ path: "logger", message: "must be a Logger (log(level, event, fields)), a pino-style logger or console" }]);
  });
});
