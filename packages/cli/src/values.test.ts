import { describe, expect, it } from "vitest";
import { databaseTarget, demoTokensFile, describeTarget } from "./database.js";
import { accessLevel, accessLevelName, booleanValue, commaList, isoDate, oneOf, positiveInt } from "./values.js";

describe("option values", () => {
  it("parses positive integers", () => {
    expect(positiveInt("--page", "12")).toBe(12);
    for (const bad of ["0", "-1", "1.5", "abc", "", "99999999999999999999"]) expect(() => positiveInt("--page", bad)).toThrow(/--page must be a positive integer/);
  });

  it("parses enumerations case-insensitively", () => {
    expect(oneOf("--kind", "Personal", ["personal", "group"] as const)).toBe("personal");
    expect(() => oneOf("--kind", "deploy", ["personal", "group"] as const)).toThrow('--kind must be one of personal, group, got "deploy"');
  });

  it("parses booleans, dates and lists", () => {
    expect(booleanValue("x", "FALSE")).toBe(false);
    expect(booleanValue("x", "yes")).toBe(true);
    expect(() => booleanValue("x", "maybe")).toThrow(/true or false/);
    expect(isoDate("--expires-at", "2030-02-28").toISOString()).toBe("2030-02-28T00:00:00.000Z");
    expect(() => isoDate("--expires-at", "2030-02-30")).toThrow(/YYYY-MM-DD/);
    expect(() => isoDate("--expires-at", "tomorrow")).toThrow(/YYYY-MM-DD/);
    expect(commaList("--scopes", "api, read_user")).toEqual(["api", "read_user"]);
    expect(() => commaList("--scopes", "api,,x")).toThrow(/comma-separated/);
  });

  it("parses access levels by name or number", () => {
    expect(accessLevel("--access-level", "Developer")).toBe(30);
    expect(accessLevel("--access-level", "50")).toBe(50);
    expect(() => accessLevel("--access-level", "35")).toThrow(/guest \(10\)/);
    expect(accessLevelName(40)).toBe("maintainer");
    expect(accessLevelName(7)).toBe("7");
  });
});

describe("database targets", () => {
  it("classifies URLs and paths", () => {
    expect(databaseTarget("postgres://u@h/db", "/w")).toEqual({ kind: "postgres", url: "postgres://u@h/db" });
    expect(databaseTarget("postgresql://h/db", "/w").kind).toBe("postgres");
    expect(databaseTarget("mysql://root@h/db", "/w")).toEqual({ kind: "mysql", url: "mysql://root@h/db" });
    expect(databaseTarget("./data/x.db", "/w")).toEqual({ kind: "sqlite", path: "/w/data/x.db" });
    expect(databaseTarget("/abs/x.db", "/w")).toEqual({ kind: "sqlite", path: "/abs/x.db" });
    expect(databaseTarget("sqlite://rel.db", "/w")).toEqual({ kind: "sqlite", path: "/w/rel.db" });
    expect(databaseTarget(":memory:", "/w")).toEqual({ kind: "sqlite", path: ":memory:" });
    expect(databaseTarget("sqlite://:memory:", "/w")).toEqual({ kind: "sqlite", path: ":memory:" });
    expect(() => databaseTarget("redis://h", "/w")).toThrow(/unsupported database URL scheme "redis:\/\/"/);
    expect(() => databaseTarget("  ", "/w")).toThrow(/must not be empty/);
  });

  it("accepts sqlite: URLs without the slashes: sqlite:./x.db, sqlite:x.db, sqlite:///abs/path, sqlite::memory:", () => {
    expect(databaseTarget("sqlite:./x.db", "/w")).toEqual({ kind: "sqlite", path: "/w/x.db" });
    expect(databaseTarget("sqlite:data/x.db", "/w")).toEqual({ kind: "sqlite", path: "/w/data/x.db" });
    expect(databaseTarget("SQLite:./x.db", "/w")).toEqual({ kind: "sqlite", path: "/w/x.db" });
    expect(databaseTarget("sqlite:///abs/x.db", "/w")).toEqual({ kind: "sqlite", path: "/abs/x.db" });
    expect(databaseTarget("sqlite:/abs/x.db", "/w")).toEqual({ kind: "sqlite", path: "/abs/x.db" });
    expect(databaseTarget("sqlite::memory:", "/w")).toEqual({ kind: "sqlite", path: ":memory:" });
    expect(databaseTarget("file:./x.db", "/w")).toEqual({ kind: "sqlite", path: "/w/x.db" });
    expect(() => databaseTarget("sqlite:", "/w")).toThrow(/"sqlite:" names no file/);
  });

  it("places the demo token file next to an SQLite file, else under ./data", () => {
    expect(demoTokensFile({ kind: "sqlite", path: "/srv/db/forge.db" }, "/w")).toBe("/srv/db/demo-tokens.json");
    expect(demoTokensFile({ kind: "postgres", url: "postgres://h/db" }, "/w")).toBe("/w/data/demo-tokens.json");
    expect(demoTokensFile({ kind: "sqlite", path: ":memory:" }, "/w")).toBe("/w/data/demo-tokens.json");
  });

  it("hides passwords when describing a target", () => {
    expect(describeTarget({ kind: "postgres", url: "postgres://u:secret@h:5432/db" })).toBe("PostgreSQL postgres://u:***@h:5432/db");
  });
});
