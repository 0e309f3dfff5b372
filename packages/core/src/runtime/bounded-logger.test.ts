import { describe, expect, it } from "vitest";
import { createForgekit } from "../forgekit.js";
import type { Logger, LogLevel } from "../ports/runtime.js";
import { memoryStore } from "../memory-store/index.js";
import { boundedLogger, DEFAULT_LOG_BOUNDS, truncateText } from "./bounded-logger.js";

interface Entry {
  level: LogLevel;
  event: string;
  fields?: Record<string, unknown>;
}

function capture(): { logger: Logger; entries: Entry[] } {
  const entries: Entry[] = [];
  return { entries, logger: { log: (level, event, fields) => void entries.push({ level, event, ...(fields === undefined ? {} : { fields }) }) } };
}

const big = "x".repeat(900_000);

describe("boundedLogger", () => {
  it("cuts every string in the fields, says how much was dropped, and leaves short values alone", () => {
    const { logger, entries } = capture();
    boundedLogger(logger).log("warn", "oauth.client_authentication_failed", { clientId: big, known: false, n: 3, short: "ok" });
    const fields = entries[0]!.fields!;
    expect(fields.clientId).toBe(`${"x".repeat(1024)}…[${900_000 - 1024} more characters]`);
    expect(fields).toMatchObject({ known: false, n: 3, short: "ok" });
    expect(entries[0]).toMatchObject({ level: "warn", event: "oauth.client_authentication_failed" });
  });

  it("walks arrays, nested objects and errors, and caps items, keys and depth", () => {
    const { logger, entries } = capture();
    const many = Object.fromEntries(Array.from({ length: 80 }, (_, i) => [`k${i}`, big]));
    boundedLogger(logger, { maxStringLength: 10 }).log("error", big, {
      list: Array.from({ length: 200 }, () => big),
      nested: { a: { b: { c: { d: { e: big } } } } },
      many,
      err: new Error(big),
      stack: `Error: boom\n${"    at f (file.js:1:1)\n".repeat(1000)}`,
      when: new Date(0),
    });
    const { event, fields } = entries[0]!;
    expect(event).toHaveLength(10 + `…[${900_000 - 10} more characters]`.length);
    const list = fields!.list as string[];
    expect(list).toHaveLength(DEFAULT_LOG_BOUNDS.maxItems + 1);
    expect(list.at(-1)).toBe("…[150 more items]");
    expect(JSON.stringify(fields!.nested)).toBe('{"a":{"b":{"c":{"d":"[object]"}}}}');
    expect(Object.keys(fields!.many as object)).toHaveLength(DEFAULT_LOG_BOUNDS.maxItems + 1);
    expect((fields!.err as { message: string }).message.length).toBeLessThan(60);
    expect((fields!.stack as string).length).toBeLessThanOrEqual(DEFAULT_LOG_BOUNDS.maxStackLength + 40);
    expect(fields!.when).toEqual(new Date(0));
    expect(JSON.stringify(entries).length).toBeLessThan(40_000);
  });

  it("passes calls without fields through, and is not wrapped twice", () => {
    const { logger, entries } = capture();
    const once = boundedLogger(logger);
    expect(boundedLogger(once)).toBe(once);
    once.log("info", "plain");
    expect(entries).toEqual([{ level: "info", event: "plain" }]);
    expect(truncateText("abc", 3)).toBe("abc");
  });
});

describe("every log call of an instance passes through the bound (issue 8)", () => {
  it("fk.config.logger is bounded, and so is what the endpoints log about a request", async () => {
    const { logger, entries } = capture();
    const fk = createForgekit({ baseUrl: "https://forge.example.com", store: memoryStore(), logger, limits: { uriLength: 100_000 } });
    fk.config.logger.log("warn", "host.event", { value: big });
    expect((entries[0]!.fields!.value as string).length).toBeLessThan(1100);
    const r = await fk.handle({ method: "GET", path: "/oauth/token/info", rawQuery: `x=${"q".repeat(90_000)}`, headers: {} });
    expect(r.status).toBe(401);
    const request = entries.find((e) => e.event === "oauth.request");
    expect(request?.fields?.query).toMatch(/^x=q{1022}…\[\d+ more characters\]$/);
    for (const e of entries) expect(JSON.stringify(e).length).toBeLessThan(2000);
  });
});
