import { describe, expect, it } from "vitest";
import { parseMultipart } from "./multipart.js";

const enc = (s: string) => new TextEncoder().encode(s);
const body = [
  "preamble",
  "--XyZ",
  'Content-Disposition: form-data; name="title"',
  "",
  "two\r\nlines ✓",
  "--XyZ",
  'Content-Disposition: form-data; name="labels[]"',
  "",
  "a",
  "--XyZ",
  'content-disposition: form-data; name="file"; filename="x.bin"',
  "Content-Type: application/octet-stream",
  "",
  "\u0000\u0001",
  "--XyZ--",
  "",
].join("\r\n");

describe("parseMultipart", () => {
  it("text fields become nested params; file parts are skipped", () => {
    expect(parseMultipart(enc(body), "XyZ")).toEqual({ title: "two\r\nlines ✓", labels: ["a"] });
  });
  it("malformed bodies → null", () => {
    expect(parseMultipart(enc("no delimiter"), "XyZ")).toBeNull();
    expect(parseMultipart(enc("--XyZ\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nunterminated"), "XyZ")).toBeNull();
    expect(parseMultipart(enc("--XyZ\r\nX-Other: 1\r\n\r\nv\r\n--XyZ--"), "XyZ")).toBeNull();
    expect(parseMultipart(enc(body), "")).toBeNull();
  });
});
