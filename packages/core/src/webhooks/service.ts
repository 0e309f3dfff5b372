/**
 * `fk.webHooks`: add, list, find, edit and remove project, group and system hooks (reference
 * `lib/api/project_hooks.rb`, `group_hooks.rb`, `system_hooks.rb`). Permission checks are the
 * routes'. The URL goes through the imports URL guard when saved (and again at every delivery);
 * the token is sealed with the instance key (as import credentials are) and never returned.
 */
import { err, errAsync, ok, okAsync, type Result, type ResultAsync } from "neverthrow";
import { attempt, BLANK, fromStore, tooLong } from "../accounts/service-kit.js";
import type { ForgekitConfig } from "../config.js";
import { errors, type ForgekitError } from "../errors.js";
import { checkUrl, credentialsBox } from "../imports/index.js";
import type { HookLog, HookOwner, NewWebHook, WebHookPatch } from "../ports/webhooks-store.js";
import { validRegexFilter } from "./branch-filter.js";
import { SUCCESS_STATE } from "./failure-policy.js";
import { BRANCH_FILTER_STRATEGIES, defaultHookEvents, hookEvents, type BranchFilterStrategy, type HookEvent, type WebHook } from "./types.js";

/** The settable attributes of a hook, as the API names them (absent: default on add, unchanged on edit). */
export interface HookInput {
  url?: string;
  name?: string;
  description?: string;
  token?: string;
  enableSslVerification?: boolean;
  pushEventsBranchFilter?: string;
  branchFilterStrategy?: BranchFilterStrategy;
  /** Switches to turn on (`true`) or off (`false`); names outside the hook's scope are ignored. */
  events?: Partial<Record<HookEvent, boolean>>;
}

/** `fk.webHooks`: hooks of projects, groups and the instance. */
export interface WebHooksService {
  /** The owner's hooks by ascending id. */
  list(owner: HookOwner): ResultAsync<WebHook[], ForgekitError>;
  /** The owner's hook `id` (`not_found("Hook")` when it is another owner's or absent). */
  find(owner: HookOwner, id: number): ResultAsync<WebHook, ForgekitError>;
  /** Adds a hook: `url` is required. */
  add(owner: HookOwner, input: HookInput): ResultAsync<WebHook, ForgekitError>;
  /** Edits a hook; a new URL without a new token clears the token (reference). Editing re-enables a disabled hook. */
  edit(owner: HookOwner, id: number, input: HookInput): ResultAsync<WebHook, ForgekitError>;
  /** Removes the hook and its delivery log. */
  remove(owner: HookOwner, id: number): ResultAsync<void, ForgekitError>;
  /** The plain token of a hook, or null (for signing a delivery). */
  tokenOf(hook: WebHook): string | null;
  /** The recorded deliveries of hook `id` (any owner; operators and the CLI) of the last 7 days, newest first. */
  deliveries(id: number, page?: { page?: number; perPage?: number }): ResultAsync<{ hook: WebHook; items: HookLog[]; hasNext: boolean }, ForgekitError>;
}

/** How far back the delivery log is listed (reference: the last seven days). */
export const DELIVERY_LOG_DAYS = 7;

const URL_MAX = 2048;
const NAME_MAX = 255;
const DESCRIPTION_MAX = 2048;
const FILTER_MAX = 5000;

const ownerColumns = (owner: HookOwner) => ({
  scope: owner.scope,
  projectId: owner.scope === "project" ? owner.projectId : null,
  groupId: owner.scope === "group" ? owner.groupId : null,
});

const owns = (owner: HookOwner, hook: WebHook) =>
  hook.scope === owner.scope && (owner.scope !== "project" || hook.projectId === owner.projectId) && (owner.scope !== "group" || hook.groupId === owner.groupId);

/** Builds the service over the store. */
export function webHooksService(config: ForgekitConfig): WebHooksService {
  const { store, clock } = config;
  const box = credentialsBox(config);
  const guard = { allowLocalNetwork: config.imports.allowLocalNetwork, ...(config.imports.lookup === undefined ? {} : { lookup: config.imports.lookup }) };

  /** Validates the attributes that are given; the patch to store. */
  async function check(scope: HookOwner["scope"], input: HookInput, current: WebHook | null): Promise<Result<WebHookPatch, ForgekitError>> {
    const messages: Record<string, string[]> = {};
    const patch: WebHookPatch = {};
    if (input.url !== undefined) {
      const url = input.url.trim();
      if (url === "") messages["url"] = [BLANK];
      else if (url.length > URL_MAX) messages["url"] = [tooLong(URL_MAX)];
      else {
        const checked = await checkUrl(url, guard);
        // A name that does not resolve now may later: it is checked again at every delivery.
        if (checked.isErr() && checked.error.reason !== "unresolvable") messages["url"] = [`is blocked: ${blockedReason(checked.error.reason)}`];
        else patch.url = url;
      }
    }
    if (input.name !== undefined) {
      if (input.name.length > NAME_MAX) messages["name"] = [tooLong(NAME_MAX)];
      else patch.name = input.name;
    }
    if (input.description !== undefined) {
      if (input.description.length > DESCRIPTION_MAX) messages["description"] = [tooLong(DESCRIPTION_MAX)];
      else patch.description = input.description;
    }
    if (input.token !== undefined) patch.token = input.token === "" ? null : box.seal({ token: input.token });
    else if (current !== null && patch.url !== undefined && patch.url !== current.url) patch.token = null;
    if (input.enableSslVerification !== undefined) patch.enableSslVerification = input.enableSslVerification;
    if (scope !== "system") {
      const strategy = input.branchFilterStrategy ?? current?.branchFilterStrategy ?? "wildcard";
      if (!(BRANCH_FILTER_STRATEGIES as readonly string[]).includes(strategy)) messages["branch_filter_strategy"] = ["is not included in the list"];
      const filter = input.pushEventsBranchFilter ?? (input.branchFilterStrategy === "all_branches" ? "" : current?.branchFilter ?? null);
      if (filter !== null && filter.length > FILTER_MAX) messages["push_events_branch_filter"] = [tooLong(FILTER_MAX)];
      else if (strategy === "regex" && filter !== null && filter !== "" && !validRegexFilter(filter)) messages["push_events_branch_filter"] = ["is invalid"];
      if (input.branchFilterStrategy !== undefined) patch.branchFilterStrategy = input.branchFilterStrategy;
      if (input.pushEventsBranchFilter !== undefined || input.branchFilterStrategy === "all_branches") patch.branchFilter = strategy === "all_branches" ? null : filter;
    }
    if (input.events !== undefined) {
      const allowed = hookEvents(scope);
      const on = new Set<HookEvent>(current?.events ?? defaultHookEvents(scope));
      for (const [name, value] of Object.entries(input.events) as [HookEvent, boolean | undefined][]) {
        if (value === undefined || !allowed.includes(name)) continue;
        if (value) on.add(name);
        else on.delete(name);
      }
      patch.events = allowed.filter((name) => on.has(name));
    }
    return Object.keys(messages).length > 0 ? err(errors.validation(messages)) : ok(patch);
  }

  const find = (owner: HookOwner, id: number) =>
    fromStore(store.webHooks.findById(id)).andThen((hook) => (hook !== null && owns(owner, hook) ? okAsync(hook) : errAsync(errors.notFound("Hook"))));

  return {
    list: (owner) => fromStore(store.webHooks.list(owner)),
    find,
    add: (owner, input) =>
      attempt(async () => {
        if (input.url === undefined) return err(errors.validation({ url: [BLANK] }));
        const checked = await check(owner.scope, input, null);
        if (checked.isErr()) return err(checked.error);
        const patch = checked.value;
        const hook: NewWebHook = {
          ...ownerColumns(owner),
          url: patch.url ?? input.url,
          name: patch.name ?? "",
          description: patch.description ?? "",
          token: patch.token ?? null,
          enableSslVerification: patch.enableSslVerification ?? true,
          branchFilter: patch.branchFilter ?? null,
          branchFilterStrategy: patch.branchFilterStrategy ?? (owner.scope === "system" ? "all_branches" : "wildcard"),
          events: patch.events ?? defaultHookEvents(owner.scope),
        };
        return ok(await store.webHooks.create(hook, clock.now()));
      }),
    edit: (owner, id, input) =>
      find(owner, id).andThen((current) =>
        attempt(async () => {
          const checked = await check(owner.scope, input, current);
          if (checked.isErr()) return err(checked.error);
          // Editing a hook re-enables it (reference `WebHooks::AutoDisabling#enable!` on update).
          const updated = await store.webHooks.update(id, { ...checked.value, ...SUCCESS_STATE });
          return updated === null ? err(errors.notFound("Hook")) : ok(updated);
        }),
      ),
    remove: (owner, id) => find(owner, id).andThen((hook) => fromStore(store.webHooks.remove(hook.id)).map(() => undefined)),
    tokenOf: (hook) => (hook.token === null ? null : (box.open(hook.token)?.token ?? null)),
    deliveries: (id, options = {}) => {
      const page = options.page ?? 1;
      const perPage = options.perPage ?? 20;
      if (!Number.isInteger(page) || page < 1 || !Number.isInteger(perPage) || perPage < 1 || perPage > 100) return errAsync(errors.validation({ page: ["must be a positive integer, per_page 1 to 100"] }));
      return fromStore(store.webHooks.findById(id)).andThen((hook) => {
        if (hook === null) return errAsync(errors.notFound("Hook"));
        const since = new Date(clock.now().getTime() - DELIVERY_LOG_DAYS * 24 * 60 * 60_000);
        return fromStore(store.webHooks.listLogs(hook.id, { since }, { kind: "offset", page, perPage })).map((logs) => ({ hook, items: logs.items, hasNext: logs.hasNext }));
      });
    },
  };
}

/** The reference UrlBlocker's messages. */
function blockedReason(reason: string): string {
  switch (reason) {
    case "scheme":
      return "Only allowed schemes are http, https";
    case "malformed":
      return "URI is invalid";
    case "metadata_address":
      return "Requests to the cloud metadata address are not allowed";
    default:
      return "Requests to the local network are not allowed";
  }
}
