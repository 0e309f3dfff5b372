/** The command table, in the order `forgekit --help` lists it. */
import { appsCommands } from "./apps.js";
import { activityCommands } from "./activity.js";
import type { Command } from "./context.js";
import { errorsCommands } from "./errors.js";
import { groupAndProjectCommands } from "./groups-projects.js";
import { importCommands } from "./imports.js";
import { iterationsCommands } from "./iterations.js";
import { jobsCommands } from "./jobs.js";
import { hooksCommands } from "./hooks.js";
import { membersCommands } from "./members.js";
import { notificationsCommands } from "./notifications.js";
import { openApiCommands } from "./openapi.js";
import { setupCommands } from "./setup.js";
import { storageMoveCommands } from "./storage-moves.js";
import { tokensCommands } from "./tokens.js";
import { usersCommands } from "./users.js";
import { workerCommands } from "./worker.js";

export type { CliContext, Command } from "./context.js";

/** Every command. */
export const commands: readonly Command[] = [...setupCommands, ...usersCommands, ...groupAndProjectCommands, ...membersCommands, ...activityCommands, ...tokensCommands, ...appsCommands, ...notificationsCommands, ...iterationsCommands, ...errorsCommands, ...jobsCommands, ...hooksCommands, ...importCommands, ...workerCommands, ...storageMoveCommands, ...openApiCommands];
