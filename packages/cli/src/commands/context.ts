/** What every command runs against, and the command type of the table. */
import type { Forgekit, ForgekitError } from "@forgekit/core";
import type { ResultAsync } from "neverthrow";
import type { CommandSpec } from "../command.js";
import type { CliIo } from "../io.js";
import type { Output } from "../output.js";

export interface CliContext {
  /** The instance over the selected database. */
  fk: Forgekit;
  /** Where `seed-demo` keeps the demo tokens (plaintext, demo only). */
  demoTokensFile: string;
  /** The selected database's key in the demo files (demo-tokens-file.ts `databaseKey`). */
  databaseKey: string;
  /** The streams, for a long-running command that prints as it goes (`worker`). */
  io?: CliIo;
  /** Whether `--json` was given (`worker` then prints its progress to stderr as JSON lines). */
  json?: boolean;
}

/** A CLI command: resolves to the output, or to the ForgekitError the services returned. */
export type Command = CommandSpec<CliContext, ResultAsync<Output, ForgekitError>>;
