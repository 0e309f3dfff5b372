import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { FORGEKIT_VERSION, versionEntity } from "./version.js";

describe("instance version", () => {
  it("FORGEKIT_VERSION is the @forgekit/core package version", () => {
    const manifest = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string };
    expect(FORGEKIT_VERSION).toBe(manifest.version);
  });
  it("the reported version is a plain MAJOR.MINOR.PATCH every client's version parser accepts", () => {
    expect(versionEntity().version).toMatch(/^\d+\.\d+\.\d+$/);
  });
});
