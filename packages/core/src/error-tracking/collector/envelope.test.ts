import { describe, expect, it } from "vitest";
import { parseEnvelope, parseJsonDocument } from "./envelope.js";

const bytes = (text: string) => new TextEncoder().encode(text);
const parseFailed = { code: "bad_request", reason: "Failed to parse sentry request" };

describe("parseEnvelope", () => {
  it("returns the event payloads in order and skips every other item type", () => {
    const text = ['{"event_id":"1"}', '{"type":"session"}', '{"sid":"x"}', '{"type":"event"}', '{"n":1}', '{"type":"client_report"}', "{}", '{"type":"event"}', '{"n":2}'].join("\n");
    expect(parseEnvelope(bytes(text))._unsafeUnwrap()).toEqual([{ n: 1 }, { n: 2 }]);
  });
  it("honours length in bytes, so a payload may hold newlines and multi-byte characters", () => {
    const payload = '{"m":"ü\\n😀",\n"n":1}';
    const text = `{}\n{"type":"event","length":${Buffer.byteLength(payload)}}\n${payload}\n{"type":"attachment","length":3}\nabc`;
    expect(parseEnvelope(bytes(text))._unsafeUnwrap()).toEqual([{ m: "ü\n😀", n: 1 }]);
  });
  it("a payload at the very end without a newline, blank lines and CRLF between items", () => {
    expect(parseEnvelope(bytes('{}\n\n{"type":"event"}\n{"a":1}'))._unsafeUnwrap()).toEqual([{ a: 1 }]);
    expect(parseEnvelope(bytes('{}\n{"type":"event","length":7}\n{"a":1}\r\n\r\n'))._unsafeUnwrap()).toEqual([{ a: 1 }]);
  });
  it("a header-only envelope has no events", () => {
    expect(parseEnvelope(bytes('{"dsn":"x"}\n'))._unsafeUnwrap()).toEqual([]);
  });
  it("refuses what is not an envelope", () => {
    const bad = [
      "",
      "[]",
      "not json",
      '{}\n{"length":2}\n{}',
      '{}\n{"type":7}\n{}',
      '{}\n{"type":"event","length":50}\n{}',
      '{}\n{"type":"event","length":-1}\n{}',
      '{}\n{"type":"event","length":"2"}\n{}',
      '{}\n{"type":"event"}\n{broken',
      '{}\n{"type":"event"}',
    ];
    for (const text of bad) expect([text, parseEnvelope(bytes(text))._unsafeUnwrapErr()]).toEqual([text, parseFailed]);
  });
  it("refuses bytes that are not UTF-8", () => {
    expect(parseEnvelope(new Uint8Array([0x7b, 0xff, 0x7d]))._unsafeUnwrapErr()).toEqual(parseFailed);
  });
});

describe("parseJsonDocument", () => {
  it("parses any JSON document; empty or broken bodies are refused", () => {
    expect(parseJsonDocument(bytes('{"a":[1]}'))._unsafeUnwrap()).toEqual({ a: [1] });
    expect(parseJsonDocument(bytes('"********"'))._unsafeUnwrap()).toBe("********");
    expect(parseJsonDocument(bytes(""))._unsafeUnwrapErr()).toEqual(parseFailed);
    expect(parseJsonDocument(bytes("{"))._unsafeUnwrapErr()).toEqual(parseFailed);
  });
});
