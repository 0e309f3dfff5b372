/** The parameters hook routes take, and turning them into a {@link HookInput}. */
import type * as z from "zod";
import { p } from "../../http/params.js";
import type { HookInput } from "../service.js";
import { BRANCH_FILTER_STRATEGIES, GROUP_HOOK_EVENTS, SYSTEM_HOOK_EVENTS, type HookEvent } from "../types.js";

const switches = (names: readonly HookEvent[]) => Object.fromEntries(names.map((name) => [name, p.bool().optional()])) as Record<HookEvent, z.ZodOptional<z.ZodType<boolean, unknown>>>;

/** Attributes of project and group hooks (url required on add only: the route checks). */
export const hookAttributes = {
  url: p.string().optional(),
  name: p.string().optional(),
  description: p.string().optional(),
  token: p.string().optional(),
  enable_ssl_verification: p.bool().optional(),
  push_events_branch_filter: p.string().optional(),
  branch_filter_strategy: p.enum(BRANCH_FILTER_STRATEGIES).optional(),
  ...switches(GROUP_HOOK_EVENTS),
};

/** Attributes of system hooks. */
export const systemHookAttributes = {
  url: p.string().optional(),
  name: p.string().optional(),
  description: p.string().optional(),
  token: p.string().optional(),
  enable_ssl_verification: p.bool().optional(),
  ...switches(SYSTEM_HOOK_EVENTS),
};

/** The {@link HookInput} of parsed parameters. */
export function hookInput(params: Partial<Record<string, unknown>>): HookInput {
  const input: HookInput = {};
  const text = (name: string) => {
    const value = params[name];
    return typeof value === "string" ? value : undefined;
  };
  const url = text("url");
  if (url !== undefined) input.url = url;
  const name = text("name");
  if (name !== undefined) input.name = name;
  const description = text("description");
  if (description !== undefined) input.description = description;
  const token = text("token");
  if (token !== undefined) input.token = token;
  if (typeof params["enable_ssl_verification"] === "boolean") input.enableSslVerification = params["enable_ssl_verification"];
  const filter = text("push_events_branch_filter");
  if (filter !== undefined) input.pushEventsBranchFilter = filter;
  const strategy = text("branch_filter_strategy");
  if (strategy !== undefined) input.branchFilterStrategy = strategy as HookInput["branchFilterStrategy"] & string;
  const events: Partial<Record<HookEvent, boolean>> = {};
  for (const event of GROUP_HOOK_EVENTS) if (typeof params[event] === "boolean") events[event] = params[event];
  if (Object.keys(events).length > 0) input.events = events;
  return input;
}
