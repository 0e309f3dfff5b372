import { describe, expect, it } from "vitest";
import { parseCommandLine, type CommandSpec } from "./command.js";
import { commandHelp, mainHelp, usageLine } from "./help.js";
import { UsageError } from "./usage-error.js";

type Spec = CommandSpec<unknown, unknown>;
const noop = () => undefined;
const table: Spec[] = [
  { name: "migrate", summary: "migrate", run: noop },
  {
    name: "users create",
    summary: "create a user",
    options: { username: { type: "string", required: true, description: "u", placeholder: "<u>" }, admin: { type: "boolean", description: "a" } },
    run: noop,
  },
  { name: "users block", summary: "block", positionals: [{ name: "user", description: "who" }], run: noop },
  {
    name: "users set-admin",
    summary: "admin",
    positionals: [{ name: "user", description: "who" }, { name: "admin", description: "flag", optional: true }],
    run: noop,
  },
];

const parse = (...argv: string[]) => parseCommandLine(argv, table);
const usageError = (fn: () => unknown): UsageError => {
  try {
    fn();
  } catch (error) {
    if (error instanceof UsageError) return error;
    throw error;
  }
  throw new Error("expected a UsageError");
};

describe("parseCommandLine", () => {
  it("finds two-word commands and their options", () => {
    const p = parse("users", "create", "--username", "alice", "--admin");
    expect(p.command?.name).toBe("users create");
    expect(p.args.required("username")).toBe("alice");
    expect(p.args.flag("admin")).toBe(true);
    expect(p.json).toBe(false);
  });

  it("accepts global options before, between and after the command words", () => {
    const p = parse("--database", "x.db", "users", "--json", "block", "bob", "--base-url=http://h");
    expect(p.command?.name).toBe("users block");
    expect(p).toMatchObject({ database: "x.db", baseUrl: "http://h", json: true });
    expect(p.args.positionals).toEqual(["bob"]);
  });

  it("does not take a global option's value for a command word", () => {
    const p = parse("--database", "users", "migrate");
    expect(p.command?.name).toBe("migrate");
    expect(p.database).toBe("users");
  });

  it("reports unknown commands, unknown options and missing values", () => {
    expect(usageError(() => parse("frobnicate")).message).toBe('unknown command "frobnicate"');
    expect(usageError(() => parse("users", "frob")).message).toBe('unknown command "users frob"');
    expect(usageError(() => parse("users", "create", "--nope")).message).toMatch(/Unknown option '--nope'/);
    expect(usageError(() => parse("users", "create", "--username")).message).toMatch(/--username/);
  });

  it("checks the number of positional arguments", () => {
    expect(usageError(() => parse("users", "block")).message).toBe("missing argument <user>");
    expect(usageError(() => parse("users", "block", "a", "b")).message).toBe('unexpected argument "b"');
    expect(usageError(() => parse("migrate", "now")).message).toBe('unexpected argument "now"');
    expect(parse("users", "set-admin", "bob").args.positionals).toEqual(["bob"]);
  });

  it("reports a missing required option", () => {
    expect(usageError(() => parse("users", "create", "--admin")).message).toBe("missing required option --username");
    expect(parse("users", "create", "--help").help).toBe(true);
  });

  it("recognises help in all its forms", () => {
    expect(parse()).toMatchObject({ command: undefined, group: undefined, help: false });
    expect(parse("--help")).toMatchObject({ command: undefined, help: true });
    expect(parse("help")).toMatchObject({ command: undefined, help: true });
    expect(parse("users")).toMatchObject({ group: "users", help: false });
    expect(parse("users", "-h")).toMatchObject({ group: "users", help: true });
    expect(parse("help", "users", "create").command?.name).toBe("users create");
    expect(parse("users", "block", "--help")).toMatchObject({ help: true });
  });
});

describe("help", () => {
  it("lists every command and the usage of one", () => {
    const text = mainHelp(table);
    for (const c of table) expect(text).toContain(c.name);
    expect(usageLine(table[1] as Spec)).toBe("forgekit users create --username <u> [--admin]");
    expect(usageLine(table[3] as Spec)).toBe("forgekit users set-admin <user> [<admin>]");
    expect(commandHelp(table[2] as Spec)).toContain("<user>  who");
  });
});
