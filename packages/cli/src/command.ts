/**
 * The command model and the command-line parser: `forgekit [global options] <command> [sub-command]
 * [arguments and options]`. Global options may appear anywhere; command words come before the
 * command's own options. Parsing uses `node:util` `parseArgs` in strict mode, so unknown options and
 * missing values are usage errors.
 */
import { parseArgs } from "node:util";
import { closest } from "./suggest.js";
import { UsageError } from "./usage-error.js";

/** One option of a command (always long-form `--name`). */
export interface OptionSpec {
  type: "string" | "boolean";
  description: string;
  /** Shown in usage, e.g. `<username>`. */
  placeholder?: string;
  required?: boolean;
  /** A string option that may be given several times. */
  multiple?: boolean;
}

/** One positional argument of a command. */
export interface PositionalSpec {
  name: string;
  description: string;
  optional?: boolean;
}

/** A command: its words (e.g. "users create"), help texts, arguments and what it does. */
export interface CommandSpec<Context, Outcome> {
  name: string;
  summary: string;
  positionals?: PositionalSpec[];
  options?: Record<string, OptionSpec>;
  /** Extra lines for `--help` (examples, notes). */
  notes?: string[];
  /**
   * The command may create the database (an SQLite file and its folders): `migrate`, `seed-demo`.
   * Every other command needs an existing database and never creates one.
   */
  createsDatabase?: boolean;
  /**
   * The command reads no data (`openapi`, `routes`): it runs on an instance over an empty in-memory
   * store, so it needs no database and never opens or creates one.
   */
  standalone?: boolean;
  /** Runs the command; may throw UsageError for values it parses itself. */
  run(context: Context, args: CommandArgs): Outcome;
}

/** Options every command accepts. */
export const GLOBAL_OPTIONS: Record<string, OptionSpec> = {
  database: { type: "string", placeholder: "<url>", description: "postgres://…, mysql://… or an SQLite file path (env DATABASE_URL; default ./data/forgekit.db)" },
  "base-url": { type: "string", placeholder: "<url>", description: "external URL of the instance (env FORGEKIT_BASE_URL; default http://localhost:3000)" },
  tier: { type: "string", placeholder: "<tier>", description: "free | premium | ultimate (env FORGEKIT_TIER; default free)" },
  json: { type: "boolean", description: "print results as JSON" },
  help: { type: "boolean", description: "show help" },
};

/** Parsed arguments of one command, with accessors that raise usage errors. */
export class CommandArgs {
  constructor(
    readonly command: string,
    private readonly values: Record<string, string | boolean | string[] | undefined>,
    readonly positionals: string[],
  ) {}

  /** A string option, or undefined when absent. */
  string(name: string): string | undefined {
    const v = this.values[name];
    return typeof v === "string" ? v : undefined;
  }

  /** A string option that must be present. */
  required(name: string): string {
    const v = this.string(name);
    if (v === undefined) throw new UsageError(`missing required option --${name}`, this.command);
    return v;
  }

  /** A repeatable string option (empty when absent). */
  list(name: string): string[] {
    const v = this.values[name];
    return Array.isArray(v) ? v : typeof v === "string" ? [v] : [];
  }

  flag(name: string): boolean {
    return this.values[name] === true;
  }

  /** The positional argument at `index`, or undefined. */
  positional(index: number): string | undefined {
    return this.positionals[index];
  }
}

/** What the parser found: the command (absent for bare `forgekit` or a group help), the globals, the args. */
export interface ParsedCommandLine<C> {
  command: C | undefined;
  /** A command group named without a sub-command (`forgekit users`), shown as help. */
  group: string | undefined;
  database: string | undefined;
  baseUrl: string | undefined;
  tier: string | undefined;
  json: boolean;
  help: boolean;
  args: CommandArgs;
}

const globalValueOptions = new Set(Object.entries(GLOBAL_OPTIONS).filter(([, o]) => o.type === "string").map(([k]) => `--${k}`));

/** Splits the command words off `argv` (see the module comment for where they may stand). */
function findCommandWords(argv: readonly string[]): { words: string[]; rest: string[] } {
  const words: string[] = [];
  const rest: string[] = [];
  let inCommandOptions = false;
  for (let i = 0; i < argv.length; i++) {
    const token = argv[i] ?? "";
    if (token.startsWith("-")) {
      rest.push(token);
      if (globalValueOptions.has(token) && i + 1 < argv.length) rest.push(argv[++i] ?? "");
      else if (!(token.replace(/=.*$/, "").slice(2) in GLOBAL_OPTIONS) && token !== "-h") inCommandOptions = true;
    } else if (!inCommandOptions && words.length < (words[0] === "help" ? 3 : 2)) {
      words.push(token);
    } else {
      rest.push(token);
    }
  }
  return { words, rest };
}

/** Parses `argv` against the command table; throws UsageError on malformed command lines. */
export function parseCommandLine<C extends CommandSpec<unknown, unknown>>(argv: readonly string[], commands: readonly C[]): ParsedCommandLine<C> {
  const { words, rest } = findCommandWords(argv);
  const byName = new Map(commands.map((c) => [c.name, c]));
  const groups = new Set(commands.filter((c) => c.name.includes(" ")).map((c) => c.name.split(" ")[0]));
  let command: C | undefined;
  let group: string | undefined;
  let extra: string[] = [];
  const helpRequested = words[0] === "help";
  const [first, second] = helpRequested ? words.slice(1) : words;
  if (first === undefined) {
    // bare `forgekit` or `forgekit help`: main help
  } else if (second !== undefined && byName.has(`${first} ${second}`)) {
    command = byName.get(`${first} ${second}`);
  } else if (byName.has(first)) {
    command = byName.get(first);
    if (second !== undefined) extra = [second];
  } else if (groups.has(first) && second === undefined) {
    group = first;
  } else {
    const typed = [first, second].filter((w) => w !== undefined).join(" ");
    // Suggest a command for the words typed (or a group for a misspelt first word).
    const guess = closest(typed, byName.keys()) ?? (second === undefined ? closest(first, [...groups].filter((g): g is string => g !== undefined)) : undefined);
    throw new UsageError(`unknown command "${typed}"${guess === undefined ? "" : ` (did you mean "${guess}"?)`}`, groups.has(first) ? first : undefined);
  }
  const options = { ...GLOBAL_OPTIONS, ...(command?.options ?? {}) };
  let parsed;
  try {
    parsed = parseArgs({
      args: [...extra, ...rest],
      options: {
        ...Object.fromEntries(Object.entries(options).map(([k, o]) => [k, { type: o.type, multiple: o.multiple ?? false }])),
        help: { type: "boolean", short: "h" },
      },
      strict: true,
      allowPositionals: true,
    });
  } catch (error) {
    const message = error instanceof Error ? error.message.replace(/\. To specify a positional.*$/s, "") : String(error);
    // Node's parseArgs says "Unknown option '--x'": name the closest option the command has.
    const unknown = /^Unknown option '--([^'=]+)'/.exec(message)?.[1];
    const guess = unknown === undefined ? undefined : closest(unknown, [...Object.keys(options), "help"]);
    throw new UsageError(guess === undefined ? message : `${message} (did you mean --${guess}?)`, command?.name ?? group);
  }
  const values = parsed.values as Record<string, string | boolean | string[] | undefined>;
  const help = helpRequested || values["help"] === true;
  const positionals = parsed.positionals;
  if (command !== undefined && !help) {
    const spec = command.positionals ?? [];
    if (positionals.length > spec.length) throw new UsageError(`unexpected argument "${positionals[spec.length] ?? ""}"`, command.name);
    const missing = spec.slice(positionals.length).find((p) => p.optional !== true);
    if (missing !== undefined) throw new UsageError(`missing argument <${missing.name}>`, command.name);
    const missingOption = Object.entries(command.options ?? {}).find(([name, o]) => o.required === true && values[name] === undefined);
    if (missingOption !== undefined) throw new UsageError(`missing required option --${missingOption[0]}`, command.name);
  }
  return {
    command,
    group,
    database: typeof values["database"] === "string" ? values["database"] : undefined,
    baseUrl: typeof values["base-url"] === "string" ? values["base-url"] : undefined,
    tier: typeof values["tier"] === "string" ? values["tier"] : undefined,
    json: values["json"] === true,
    help,
    args: new CommandArgs(command?.name ?? "", values, positionals),
  };
}
