/** The activity commands: work items, content and pushes that become events, and the events themselves. */
import { contentCommands } from "./activity-content.js";
import { eventCommands } from "./activity-events.js";
import { workCommands } from "./activity-work.js";
import type { Command } from "./context.js";

/** Every activity command, in help order. */
export const activityCommands: Command[] = [...workCommands, ...contentCommands, ...eventCommands];
