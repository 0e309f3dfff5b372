/**
 * `forgekit import status <project>`: an import's state, stage and counts per kind; on a terminal a
 * progress bar over the import's stages. `--watch` follows the import until it ends (the import runs
 * in a worker: `forgekit worker`).
 */
import type { Forgekit, ForgekitError } from "@forgekit/core";
import { okAsync, ResultAsync } from "neverthrow";
import type { CommandArgs } from "../command.js";
import type { Output } from "../output.js";
import { progressBar } from "../progress.js";
import { UsageError } from "../usage-error.js";
import type { CliContext, Command } from "./context.js";

interface StatusEntity {
  path_with_namespace: string;
  import_status: string;
  import_type: string | null;
  import_source: string | null;
  import_error: string | null;
  stats: { fetched: Record<string, number>; imported: Record<string, number> };
  progress: { stage: string; stage_number: number; stages: number; items_imported: number } | null;
}

const FINAL = new Set(["finished", "failed", "canceled", "none"]);

/** How far the import is: the fraction of its stages done. */
export const stageFraction = (progress: NonNullable<StatusEntity["progress"]>, finished: boolean): number =>
  finished ? 1 : Math.min(1, (progress.stage_number - 1) / Math.max(1, progress.stages - 1));

/** The lines of a status. */
export function statusLines(status: StatusEntity, tty: boolean): string[] {
  if (status.import_status === "none") return [`project ${status.path_with_namespace} was not imported`];
  const lines = [`project ${status.path_with_namespace}: import ${status.import_status} (from ${status.import_source ?? "?"} via ${status.import_type ?? "?"})`];
  const p = status.progress;
  if (p !== null) {
    const stage = `stage ${p.stage} (${p.stage_number} of ${p.stages}), ${p.items_imported} records imported`;
    lines.push(tty ? `${progressBar(stageFraction(p, status.import_status === "finished"))} ${stage}` : stage);
  }
  for (const kind of Object.keys(status.stats.fetched).concat(Object.keys(status.stats.imported)).filter((k, i, all) => all.indexOf(k) === i).sort()) {
    lines.push(`  ${kind}: ${status.stats.fetched[kind] ?? 0} fetched, ${status.stats.imported[kind] ?? 0} imported`);
  }
  if (status.import_error !== null) lines.push(`error: ${status.import_error}`);
  return lines;
}

const statusOf = (fk: Forgekit, project: string): ResultAsync<StatusEntity, ForgekitError> =>
  fk.projects.findByIdOrPath(project).andThen((p) => fk.imports.statusOf(p)).map((entity) => entity as unknown as StatusEntity);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls until the import ends, drawing the bar in place on a terminal (a line per change otherwise). */
function watch(context: CliContext, project: string, intervalMs: number): ResultAsync<StatusEntity, ForgekitError> {
  const io = context.io;
  const tty = io?.isTTY === true && context.json !== true;
  let last = "";
  const loop = (): ResultAsync<StatusEntity, ForgekitError> =>
    statusOf(context.fk, project).andThen((status) => {
      const line = statusLines(status, tty)[1] ?? statusLines(status, tty)[0] ?? "";
      if (line !== last && io !== undefined && context.json !== true) io.stderr(tty ? `\r${line}` : `${line}\n`);
      last = line;
      if (FINAL.has(status.import_status)) {
        if (tty && io !== undefined) io.stderr("\n");
        return okAsync(status);
      }
      return ResultAsync.fromSafePromise(sleep(intervalMs)).andThen(loop);
    });
  return loop();
}

const importStatus: Command = {
  name: "import status",
  summary: "show a project import's state, stage and counts per kind (a progress bar on a terminal)",
  positionals: [{ name: "project", description: "project id or full path (group/project)" }],
  options: {
    watch: { type: "boolean", description: "follow the import until it ends (it runs in `forgekit worker`)" },
    interval: { type: "string", placeholder: "<ms>", description: "poll interval with --watch (default 1000)" },
  },
  run: (context, args: CommandArgs) => {
    const project = args.positional(0);
    if (project === undefined) throw new UsageError("missing <project>", "import status");
    const interval = Number(args.string("interval") ?? "1000");
    if (!Number.isInteger(interval) || interval < 10) throw new UsageError("--interval must be an integer of at least 10 (ms)", "import status");
    const tty = context.io?.isTTY === true && context.json !== true;
    const result = args.flag("watch") ? watch(context, project, interval) : statusOf(context.fk, project);
    return result.map((status): Output => ({ json: status, text: statusLines(status, tty) }));
  },
};

/** The import commands. */
export const importCommands: readonly Command[] = [importStatus];
