import { describe, expect, it } from "vitest";
import { NO_CLIENT, parseBasicAuthorization, readClientCredentials } from "./client-credentials.js";

const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString("base64")}`;
const form = (s: string) => new URLSearchParams(s);

describe("parseBasicAuthorization", () => {
  it("decodes id and secret", () => {
    expect(parseBasicAuthorization(basic("app", "s3cret"))._unsafeUnwrap()).toEqual({ clientId: "app", clientSecret: "s3cret" });
  });

  it("form-url-decodes both parts (oauth4webapi encodes, Authlib does not)", () => {
    expect(parseBasicAuthorization(basic("my%2Dapp", "fkos_a%2Db+c%3A"))._unsafeUnwrap()).toEqual({ clientId: "my-app", clientSecret: "fkos_a-b c:" });
    expect(parseBasicAuthorization(basic("my-app", "fkos_a-b_c"))._unsafeUnwrap()).toEqual({ clientId: "my-app", clientSecret: "fkos_a-b_c" });
  });

  it("splits at the first colon and accepts any case of the scheme and missing padding", () => {
    expect(parseBasicAuthorization(basic("id", "a:b"))._unsafeUnwrap()).toEqual({ clientId: "id", clientSecret: "a:b" });
    expect(parseBasicAuthorization(`bAsIc ${Buffer.from("ab:c").toString("base64").replace(/=+$/, "")}`)._unsafeUnwrap()).toEqual({ clientId: "ab", clientSecret: "c" });
  });

  it("ignores other schemes and a missing header", () => {
    expect(parseBasicAuthorization(undefined)._unsafeUnwrap()).toBeNull();
    expect(parseBasicAuthorization("Bearer abc")._unsafeUnwrap()).toBeNull();
  });

  it.each([
    ["no colon", `Basic ${Buffer.from("justid").toString("base64")}`],
    ["empty id", basic("", "secret")],
    ["bad percent escape", basic("a%zz", "s")],
    ["not base64", "Basic !!!"],
    ["empty", "Basic"],
    ["invalid UTF-8", `Basic ${Buffer.from([0x69, 0x3a, 0xff]).toString("base64")}`],
  ])("refuses %s with invalid_client and a Basic challenge flag", (_label, header) => {
    expect(parseBasicAuthorization(header)._unsafeUnwrapErr()).toMatchObject({ code: "invalid_client", basic: true });
  });
});

describe("readClientCredentials", () => {
  it("reads Basic credentials", () => {
    expect(readClientCredentials(basic("app", "sec"), form("grant_type=x"))._unsafeUnwrap()).toEqual({ clientId: "app", clientSecret: "sec", basic: true });
  });

  it("allows the same client_id in the body alongside Basic", () => {
    expect(readClientCredentials(basic("app", "sec"), form("client_id=app"))._unsafeUnwrap()).toMatchObject({ clientId: "app", basic: true });
  });

  it("refuses two authentication methods at once (checklist B4)", () => {
    expect(readClientCredentials(basic("app", "sec"), form("client_id=app&client_secret=sec"))._unsafeUnwrapErr()).toMatchObject({ code: "invalid_request" });
    expect(readClientCredentials(basic("app", "sec"), form("client_id=other"))._unsafeUnwrapErr()).toMatchObject({ code: "invalid_request" });
  });

  it("reads body credentials (client_secret_post) and public client ids", () => {
    expect(readClientCredentials(undefined, form("client_id=app&client_secret=sec"))._unsafeUnwrap()).toEqual({ clientId: "app", clientSecret: "sec", basic: false });
    expect(readClientCredentials(undefined, form("client_id=app"))._unsafeUnwrap()).toEqual({ clientId: "app", clientSecret: null, basic: false });
    expect(readClientCredentials(undefined, form("client_id=app&client_secret="))._unsafeUnwrap()).toEqual({ clientId: "app", clientSecret: null, basic: false });
    expect(readClientCredentials(basic("app", ""), form(""))._unsafeUnwrap()).toEqual({ clientId: "app", clientSecret: null, basic: true });
  });

  it("gives NO_CLIENT when nothing is sent, and refuses a secret without an id", () => {
    expect(readClientCredentials(undefined, form("grant_type=password"))._unsafeUnwrap()).toEqual(NO_CLIENT);
    expect(readClientCredentials("Bearer x", form(""))._unsafeUnwrap()).toEqual(NO_CLIENT);
    expect(readClientCredentials(undefined, form("client_secret=s"))._unsafeUnwrapErr()).toMatchObject({ code: "invalid_client", basic: false });
  });

  it("caps client_id and client_secret at 255 characters in the body and in Basic alike (issue 8)", () => {
    const long = "c".repeat(256);
    const tooLong = (name: string) => ({ code: "invalid_request", description: `Parameter too long: ${name} (at most 255 characters).` });
    expect(readClientCredentials(undefined, form(`client_id=${long}`))._unsafeUnwrapErr()).toEqual(tooLong("client_id"));
    expect(readClientCredentials(undefined, form(`client_id=app&client_secret=${long}`))._unsafeUnwrapErr()).toEqual(tooLong("client_secret"));
    expect(readClientCredentials(basic(long, "s"), form(""))._unsafeUnwrapErr()).toEqual(tooLong("client_id"));
    expect(readClientCredentials(basic("app", long), form(""))._unsafeUnwrapErr()).toEqual(tooLong("client_secret"));
    expect(readClientCredentials(basic("c".repeat(255), "s".repeat(255)), form("")).isOk()).toBe(true);
  });

  it("refuses a repeated client_id", () => {
    expect(readClientCredentials(undefined, form("client_id=a&client_id=b"))._unsafeUnwrapErr()).toEqual({
      code: "invalid_request",
      description: "Parameter sent more than once: client_id.",
    });
  });
});
