import { describe, expect, it } from "vitest";
import { createTestForgekit } from "./fixtures.js";
import { responseDisagreements, responseValidator, validationMode } from "./response-validation.js";

describe("HTTP-suite response validation", () => {
  it("is on (throwing) unless FORGEKIT_TEST_VALIDATE_RESPONSES turns it off", () => {
    expect(validationMode({})).toBe("throw");
    expect(validationMode({ FORGEKIT_TEST_VALIDATE_RESPONSES: "0" })).toBeNull();
    expect(validationMode({ FORGEKIT_TEST_VALIDATE_RESPONSES: "off" })).toBeNull();
    expect(validationMode({ FORGEKIT_TEST_VALIDATE_RESPONSES: "1" })).toBe("throw");
    expect(validationMode({ FORGEKIT_TEST_VALIDATE_RESPONSES: "report" })).toBe("report");
  });

  it("names the status, the kind of body and the schema issues that disagree with the document", async () => {
    const { fk } = await createTestForgekit();
    const route = (method: string, path: string) => {
      const found = fk.routes.find((r) => r.method === method && r.path === path);
      if (found === undefined) throw new Error(`no route ${method} ${path}`);
      return found;
    };
    const json = { "content-type": "application/json" };
    const version = route("GET", "/version");
    expect(responseDisagreements(version, { status: 200, headers: json, json: { version: "17", revision: "x" } })).toEqual([]);
    expect(responseDisagreements(version, { status: 201, headers: json, json: { version: "17", revision: "x", extra: 1 } })).toEqual(["status 201, documented 200", expect.stringMatching(/^Version \(root\): .*extra/)]);
    const raw = route("GET", "/projects/:id/repository/blobs/:sha/raw");
    expect(responseDisagreements(raw, { status: 200, headers: { "content-type": "text/plain; charset=utf-8" }, json: undefined })).toEqual([]);
    expect(responseDisagreements(raw, { status: 200, headers: json, json: {} })).toEqual([expect.stringMatching(/^JSON body, documented as raw/)]);
  });

  it("in throw mode, fails a request whose answer disagrees; other answers and unknown paths pass", async () => {
    const { fk } = await createTestForgekit();
    const validate = responseValidator(fk, { FORGEKIT_TEST_VALIDATE_RESPONSES: "1" });
    expect(validate).toBeDefined();
    const answer = { method: "GET", target: "/api/v4/version?x=1", status: 200, headers: { "content-type": "application/json" } };
    expect(() => validate?.({ ...answer, json: { version: "17", revision: "x" } })).not.toThrow();
    expect(() => validate?.({ ...answer, json: { version: 17 } })).toThrow(/GET \/version .*disagrees/);
    expect(() => validate?.({ ...answer, target: "/api/v4/nowhere", json: {} })).not.toThrow();
    expect(() => validate?.({ ...answer, status: 404, json: {} })).not.toThrow();
    expect(responseValidator(fk, { FORGEKIT_TEST_VALIDATE_RESPONSES: "0" })).toBeUndefined();
  });
});
