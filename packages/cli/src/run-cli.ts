/**
 * `runCli(argv, io)`: the whole `forgekit` command, testable in-process. Parses the command line,
 * opens the instance over the selected database, runs the command through the core services and
 * prints its output (text or `--json`). Returns the exit code: 0 success, 1 the operation failed,
 * 2 bad usage.
 */
import { createForgekit, TIERS, type Tier } from "@forgekit/core";
import { memoryStore } from "@forgekit/core/memory";
import type { Logger } from "@forgekit/core";
import { parseCommandLine, type CommandArgs } from "./command.js";
import { commands, type Command } from "./commands/index.js";
import { DEFAULT_DATABASE, databaseTarget, demoTokensFile, describeTarget } from "./database.js";
import { missingDatabase, printForgekitError, printProblem, printThrown } from "./database-problem.js";
import { databaseKey } from "./database.js";
import { commandHelp, groupHelp, mainHelp, usageLine } from "./help.js";
import { EXIT, type CliIo } from "./io.js";
import { configuredKeyEncryption } from "./key-encryption.js";
import { openInstance } from "./open-instance.js";
import { render } from "./output.js";
import { UsageError } from "./usage-error.js";

const isTier = (value: string): value is Tier => (TIERS as readonly string[]).includes(value);

/** The default external URL when neither --base-url nor FORGEKIT_BASE_URL is set. */
export const DEFAULT_BASE_URL = "http://localhost:3000";

/** Whether `--json` was given, read straight from argv (for errors found before parsing succeeds). */
const wantsJson = (argv: readonly string[]): boolean => {
  const end = argv.indexOf("--");
  return (end === -1 ? argv : argv.slice(0, end)).includes("--json");
};

function usageFailure(io: CliIo, error: UsageError, json: boolean): number {
  const command = commands.find((c) => c.name === error.command);
  if (json) {
    const help = `forgekit ${error.command ?? ""}${error.command ? " " : ""}--help`;
    io.stderr(`${JSON.stringify({ error: { code: "usage", message: error.message, ...(command === undefined ? {} : { usage: usageLine(command) }), help } })}\n`);
    return EXIT.usage;
  }
  io.stderr(`error: ${error.message}\n`);
  if (command !== undefined) io.stderr(`usage: ${usageLine(command)}\n`);
  io.stderr(`Run \`forgekit ${error.command ?? ""}${error.command ? " " : ""}--help\` for help.\n`);
  return EXIT.usage;
}

/** A logger that shows forgekit's warnings and errors on stderr and drops the rest. */
function cliLogger(io: CliIo): Logger {
  return {
    log(level, event, fields) {
      if (level === "warn" || level === "error") io.stderr(`${level}: ${event}${fields ? ` ${JSON.stringify(fields)}` : ""}\n`);
    },
  };
}

/** Runs a command that reads no data on an instance over an empty in-memory store (no database is opened). */
async function runStandalone(command: Command, args: CommandArgs, options: { io: CliIo; json: boolean; baseUrl: string; tier: Tier }): Promise<number> {
  const { io, json } = options;
  try {
    const fk = createForgekit({ baseUrl: options.baseUrl, tier: options.tier, store: memoryStore(), logger: cliLogger(io) });
    const result = await command.run({ fk, demoTokensFile: "", databaseKey: "", io, json }, args);
    if (result.isErr()) {
      printForgekitError(io, json, result.error, databaseTarget(":memory:", io.cwd));
      return EXIT.failed;
    }
    io.stdout(render(result.value, json));
    return EXIT.ok;
  } catch (error) {
    if (error instanceof UsageError) return usageFailure(io, new UsageError(error.message, error.command ?? command.name), json);
    throw error;
  }
}

/** Runs the CLI with `argv` (without the node and script paths); resolves to the exit code. */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  let parsed;
  try {
    parsed = parseCommandLine(argv, commands);
  } catch (error) {
    if (error instanceof UsageError) return usageFailure(io, error, wantsJson(argv));
    throw error;
  }
  const { command } = parsed;
  if (command === undefined) {
    const text = parsed.group !== undefined ? groupHelp(parsed.group, commands) : mainHelp(commands);
    if (parsed.help) io.stdout(text);
    else io.stderr(text);
    return parsed.help ? EXIT.ok : EXIT.usage;
  }
  if (parsed.help) {
    io.stdout(commandHelp(command));
    return EXIT.ok;
  }

  let database;
  let keyEncryption;
  try {
    database = databaseTarget(parsed.database ?? io.env["DATABASE_URL"] ?? DEFAULT_DATABASE, io.cwd);
    keyEncryption = command.standalone === true ? undefined : configuredKeyEncryption(io.env, database, io.cwd);
  } catch (error) {
    if (error instanceof UsageError) return usageFailure(io, error, wantsJson(argv));
    throw error;
  }
  const baseUrl = parsed.baseUrl ?? io.env["FORGEKIT_BASE_URL"] ?? DEFAULT_BASE_URL;
  const tier = parsed.tier ?? io.env["FORGEKIT_TIER"] ?? "free";
  if (!isTier(tier)) return usageFailure(io, new UsageError(`--tier must be free, premium or ultimate, not "${tier}"`, command.name), parsed.json);

  if (command.standalone === true) return runStandalone(command, parsed.args, { io, json: parsed.json, baseUrl, tier });

  // Only migrate / seed-demo create a database: any other command on a missing SQLite file says how
  // to create one instead of leaving an empty file (and its folders) behind.
  const create = command.createsDatabase === true;
  const missing = create ? undefined : missingDatabase(database);
  if (missing !== undefined) {
    printProblem(io, parsed.json, missing);
    return EXIT.failed;
  }
  let instance;
  try {
    const redisUrl = io.env["FORGEKIT_REDIS_URL"];
    const redis = redisUrl === undefined || redisUrl === "" ? undefined : { url: redisUrl, prefix: io.env["FORGEKIT_REDIS_PREFIX"] || undefined };
    const allowLocalImports = io.env["FORGEKIT_IMPORTS_ALLOW_LOCAL_NETWORK"] === "true";
    instance = await openInstance({ database, baseUrl, tier, logger: cliLogger(io), create, cwd: io.cwd, keyEncryption, allowLocalImports, ...(redis === undefined ? {} : { redis }) });
  } catch (error) {
    printThrown(io, parsed.json, error, database, `cannot open ${describeTarget(database)}: `);
    return EXIT.failed;
  }
  try {
    const result = await command.run({ fk: instance.fk, demoTokensFile: demoTokensFile(database, io.cwd), databaseKey: databaseKey(database), io, json: parsed.json }, parsed.args);
    if (result.isErr()) {
      printForgekitError(io, parsed.json, result.error, database);
      return EXIT.failed;
    }
    io.stdout(render(result.value, parsed.json));
    return EXIT.ok;
  } catch (error) {
    if (error instanceof UsageError) return usageFailure(io, new UsageError(error.message, error.command ?? command.name), parsed.json);
    printThrown(io, parsed.json, error, database, "");
    return EXIT.failed;
  } finally {
    await instance.close();
  }
}
