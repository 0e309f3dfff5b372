/** Help texts generated from the command table. */
import { GLOBAL_OPTIONS, type CommandSpec, type OptionSpec } from "./command.js";

type AnyCommand = CommandSpec<unknown, unknown>;

const pad = (s: string, width: number): string => s + " ".repeat(Math.max(1, width - s.length));

function optionLabel(name: string, option: OptionSpec): string {
  return option.type === "string" ? `--${name} ${option.placeholder ?? "<value>"}` : `--${name}`;
}

/** The one-line usage of a command: `forgekit users create --username <u> … [--admin]`. */
export function usageLine(command: AnyCommand): string {
  const parts = [`forgekit ${command.name}`];
  for (const p of command.positionals ?? []) parts.push(p.optional === true ? `[<${p.name}>]` : `<${p.name}>`);
  for (const [name, option] of Object.entries(command.options ?? {})) {
    const label = optionLabel(name, option);
    parts.push(option.required === true ? label : `[${label}]`);
  }
  return parts.join(" ");
}

function optionLines(options: Record<string, OptionSpec>): string[] {
  const labels = Object.entries(options).map(([name, o]) => [optionLabel(name, o), o.description + (o.multiple === true ? " (repeatable)" : "")] as const);
  const width = Math.max(...labels.map(([l]) => l.length)) + 2;
  return labels.map(([label, description]) => `  ${pad(label, width)}${description}`);
}

/** `forgekit --help`: every command with its summary, then the global options. */
export function mainHelp(commands: readonly AnyCommand[]): string {
  const width = Math.max(...commands.map((c) => c.name.length)) + 2;
  return [
    "forgekit: operate a forgekit instance (an embeddable /api/v4 REST API and OAuth 2.0 provider)",
    "",
    "Usage: forgekit [--database <url>] [--base-url <url>] [--tier <tier>] [--json] <command> [arguments] [options]",
    "",
    "Commands:",
    ...commands.map((c) => `  ${pad(c.name, width)}${c.summary}`),
    "",
    "Global options:",
    ...optionLines(GLOBAL_OPTIONS),
    "",
    "Run `forgekit <command> --help` for a command's arguments and options.",
    "Exit codes: 0 success, 1 the operation failed, 2 bad usage.",
    "",
  ].join("\n");
}

/** `forgekit users --help`: the commands of one group. */
export function groupHelp(group: string, commands: readonly AnyCommand[]): string {
  const members = commands.filter((c) => c.name.startsWith(`${group} `));
  const width = Math.max(...members.map((c) => c.name.length)) + 2;
  return [`Usage: forgekit ${group} <command>`, "", "Commands:", ...members.map((c) => `  ${pad(c.name, width)}${c.summary}`), ""].join("\n");
}

/** `forgekit users create --help`. */
export function commandHelp(command: AnyCommand): string {
  const lines = [`Usage: ${usageLine(command)}`, "", command.summary];
  const positionals = command.positionals ?? [];
  if (positionals.length > 0) {
    const width = Math.max(...positionals.map((p) => p.name.length)) + 4;
    lines.push("", "Arguments:", ...positionals.map((p) => `  ${pad(`<${p.name}>`, width)}${p.description}`));
  }
  if (Object.keys(command.options ?? {}).length > 0) lines.push("", "Options:", ...optionLines(command.options ?? {}));
  lines.push("", "Global options:", ...optionLines(GLOBAL_OPTIONS));
  if (command.notes !== undefined) lines.push("", ...command.notes);
  lines.push("");
  return lines.join("\n");
}
