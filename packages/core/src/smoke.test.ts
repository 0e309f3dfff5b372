import { describe, expect, it } from "vitest";
import { errors } from "./errors.js";

describe("errors", () => {
  it("builds a not_found error with its thing", () => {
    expect(errors.notFound("Project")).toEqual({ code: "not_found", thing: "Project" });
  });
});
