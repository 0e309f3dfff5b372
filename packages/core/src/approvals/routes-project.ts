/**
 * A project's approval configuration and rules (reference `ee/lib/api/project_approvals.rb`,
 * `project_approval_rules.rb`): `GET/POST /projects/:id/approvals` (reading as the project's code;
 * changing: Maintainer+; `approvals_before_merge` above 0 needs premium), and
 * `/projects/:id/approval_rules[/:approval_rule_id]` (premium; writing: Maintainer+).
 */
import { err, ok, type Result } from "neverthrow";
import * as z from "zod";
import { canAdminProject } from "../access/permissions.js";
import { requireFeature } from "../access/tier.js";
import type { ForgekitConfig } from "../config.js";
import { errors, type ForgekitError } from "../errors.js";
import { p } from "../http/params.js";
import { defineRoute, respond, tagRoutes } from "../http/route-kit.js";
import type { AnyRoute } from "../http/router.js";
import type { Identity } from "../auth/identity.js";
import type { ApprovalRulePatch, ProjectApprovalSettings } from "../ports/approvals-store.js";
import { readableProject } from "../repository-api/context.js";
import { loadNamed, ruleEntity, settingsEntity } from "./entities.js";

const READ = { mode: "optional" } as const;
const WRITE = { mode: "required" } as const;
const ids = () => p.array(p.recordId()).optional();
/** Counts are stored in 32-bit integer columns. */
const MAX_COUNT = 2 ** 31 - 1;
/** The validation message of a count out of range, or null. */
const countProblem = (n: number | undefined): string | null => (n === undefined ? null : n < 0 ? "must be greater than or equal to 0" : n > MAX_COUNT ? `must be less than or equal to ${MAX_COUNT}` : null);
const ruleFields = { name: p.string().optional(), approvals_required: p.int().optional(), user_ids: ids(), group_ids: ids(), usernames: p.array(p.string()).optional(), rule_type: p.enum(["regular", "any_approver"]).optional() };

/** Builds the configuration and rule routes. */
export function projectApprovalRoutes(config: ForgekitConfig): AnyRoute[] {
  const { store, clock, baseUrl } = config;

  /** The readable project, and with `admin` only for Maintainers+ (403); with `rules` only on premium (403). */
  const projectFor = async (identity: Identity, id: string | undefined, options: { admin: boolean; rules: boolean }) => {
    const o = await readableProject(config, identity, id);
    if (o.isErr()) return err(o.error);
    if (options.rules) {
      const gate = requireFeature(config.tier, "approvalRules");
      if (gate.isErr()) return err(gate.error);
    }
    if (options.admin && !(await canAdminProject(store, identity.user, o.value.project, clock.now()))) return err(errors.forbidden());
    return ok(o.value.project);
  };

  const renderRule = async (identity: Identity, rule: Parameters<typeof ruleEntity>[2]) => ruleEntity(baseUrl, await loadNamed(config, identity.user, rule.userIds, rule.groupIds), rule);

  /** The rule fields given, checked: users that exist (by id or username), groups that exist. */
  const ruleInput = async (projectId: number, params: { name?: string | undefined; approvals_required?: number | undefined; user_ids?: number[] | undefined; group_ids?: number[] | undefined; usernames?: string[] | undefined }, ruleId: number | null): Promise<Result<ApprovalRulePatch, ForgekitError>> => {
    const messages: Record<string, string[]> = {};
    if (params.name !== undefined && params.name.trim() === "") messages["name"] = ["can't be blank"];
    else if (params.name !== undefined && params.name.length > 255) messages["name"] = ["is too long (maximum is 255 characters)"];
    else if (params.name !== undefined && (await store.approvals.rules(projectId)).some((r) => r.id !== ruleId && r.name === params.name)) messages["name"] = ["has already been taken"];
    const count = countProblem(params.approvals_required);
    if (count !== null) messages["approvals_required"] = [count];
    if (Object.keys(messages).length > 0) return err(errors.validation(messages));
    let userIds: number[] | undefined;
    if (params.user_ids !== undefined || params.usernames !== undefined) {
      const byId = (await store.users.findByIds(params.user_ids ?? [])).map((u) => u.id);
      const byName: number[] = [];
      for (const name of params.usernames ?? []) {
        const u = await store.users.findByUsername(name);
        if (u !== null) byName.push(u.id);
      }
      userIds = [...new Set([...byId, ...byName])];
    }
    let groupIds: number[] | undefined;
    if (params.group_ids !== undefined) {
      groupIds = [];
      for (const id of params.group_ids) if ((await store.namespaces.findById(id))?.kind === "group") groupIds.push(id);
    }
    return ok({
      ...(params.name === undefined ? {} : { name: params.name }),
      ...(params.approvals_required === undefined ? {} : { approvalsRequired: params.approvals_required }),
      ...(userIds === undefined ? {} : { userIds }),
      ...(groupIds === undefined ? {} : { groupIds }),
    });
  };

  return tagRoutes("Merge request approvals", [
    defineRoute({
      method: "GET",
      path: "/projects/:id/approvals",
      summary: "Get the project's approval configuration",
      auth: READ,
      schema: z.object({}),
      handler: ({ identity, pathParams }) =>
        respond(async () => {
          const project = await projectFor(identity, pathParams["id"], { admin: false, rules: false });
          if (project.isErr()) return err(project.error);
          return ok({ body: settingsEntity(await store.approvals.settings(project.value.id)) });
        }),
    }),
    defineRoute({
      method: "POST",
      path: "/projects/:id/approvals",
      summary: "Change the project's approval configuration",
      auth: WRITE,
      schema: z.object({
        approvals_before_merge: p.int().optional(),
        reset_approvals_on_push: p.bool().optional(),
        disable_overriding_approvers_per_merge_request: p.bool().optional(),
        merge_requests_author_approval: p.bool().optional(),
        merge_requests_disable_committers_approval: p.bool().optional(),
      }),
      handler: ({ identity, pathParams, params }) =>
        respond(async () => {
          const project = await projectFor(identity, pathParams["id"], { admin: true, rules: false });
          if (project.isErr()) return err(project.error);
          const count = countProblem(params.approvals_before_merge);
          if (count !== null) return err(errors.validation({ approvals_before_merge: [count] }));
          if (params.approvals_before_merge !== undefined && params.approvals_before_merge > 0) {
            const gate = requireFeature(config.tier, "approvalRules");
            if (gate.isErr()) return err(gate.error);
          }
          const patch: Partial<ProjectApprovalSettings> = {
            ...(params.approvals_before_merge === undefined ? {} : { approvalsBeforeMerge: params.approvals_before_merge }),
            ...(params.reset_approvals_on_push === undefined ? {} : { resetApprovalsOnPush: params.reset_approvals_on_push }),
            ...(params.disable_overriding_approvers_per_merge_request === undefined ? {} : { disableOverridingApproversPerMergeRequest: params.disable_overriding_approvers_per_merge_request }),
            ...(params.merge_requests_author_approval === undefined ? {} : { mergeRequestsAuthorApproval: params.merge_requests_author_approval }),
            ...(params.merge_requests_disable_committers_approval === undefined ? {} : { mergeRequestsDisableCommittersApproval: params.merge_requests_disable_committers_approval }),
          };
          return ok({ status: 201, body: settingsEntity(await store.approvals.updateSettings(project.value.id, patch)) });
        }),
    }),
    defineRoute({
      method: "GET",
      path: "/projects/:id/approval_rules",
      summary: "List the project's approval rules (premium)",
      auth: READ,
      schema: z.object({}),
      handler: ({ identity, pathParams }) =>
        respond(async () => {
          const project = await projectFor(identity, pathParams["id"], { admin: false, rules: true });
          if (project.isErr()) return err(project.error);
          const body = [];
          for (const rule of await store.approvals.rules(project.value.id)) body.push(await renderRule(identity, rule));
          return ok({ body });
        }),
    }),
    defineRoute({
      method: "GET",
      path: "/projects/:id/approval_rules/:approval_rule_id",
      summary: "Get one approval rule (premium)",
      auth: READ,
      schema: z.object({ approval_rule_id: p.recordId() }),
      handler: ({ identity, pathParams, params }) =>
        respond(async () => {
          const project = await projectFor(identity, pathParams["id"], { admin: false, rules: true });
          if (project.isErr()) return err(project.error);
          const rule = await store.approvals.findRule(project.value.id, params.approval_rule_id);
          return rule === null ? err(errors.notFound()) : ok({ body: await renderRule(identity, rule) });
        }),
    }),
    defineRoute({
      method: "POST",
      path: "/projects/:id/approval_rules",
      summary: "Create an approval rule (premium)",
      auth: WRITE,
      schema: z.object({ ...ruleFields, name: p.string(), approvals_required: p.int() }),
      handler: ({ identity, pathParams, params }) =>
        respond(async () => {
          const project = await projectFor(identity, pathParams["id"], { admin: true, rules: true });
          if (project.isErr()) return err(project.error);
          const input = await ruleInput(project.value.id, params, null);
          if (input.isErr()) return err(input.error);
          const rule = await store.approvals.createRule({ projectId: project.value.id, name: params.name, approvalsRequired: params.approvals_required, userIds: input.value.userIds ?? [], groupIds: input.value.groupIds ?? [] });
          return ok({ status: 201, body: await renderRule(identity, rule) });
        }),
    }),
    defineRoute({
      method: "PUT",
      path: "/projects/:id/approval_rules/:approval_rule_id",
      summary: "Change an approval rule (premium)",
      auth: WRITE,
      schema: z.object({ approval_rule_id: p.recordId(), ...ruleFields }),
      handler: ({ identity, pathParams, params }) =>
        respond(async () => {
          const project = await projectFor(identity, pathParams["id"], { admin: true, rules: true });
          if (project.isErr()) return err(project.error);
          if ((await store.approvals.findRule(project.value.id, params.approval_rule_id)) === null) return err(errors.notFound());
          const input = await ruleInput(project.value.id, params, params.approval_rule_id);
          if (input.isErr()) return err(input.error);
          const rule = await store.approvals.updateRule(project.value.id, params.approval_rule_id, input.value);
          return rule === null ? err(errors.notFound()) : ok({ body: await renderRule(identity, rule) });
        }),
    }),
    defineRoute({
      method: "DELETE",
      path: "/projects/:id/approval_rules/:approval_rule_id",
      summary: "Delete an approval rule (premium)",
      auth: WRITE,
      schema: z.object({ approval_rule_id: p.recordId() }),
      handler: ({ identity, pathParams, params }) =>
        respond(async () => {
          const project = await projectFor(identity, pathParams["id"], { admin: true, rules: true });
          if (project.isErr()) return err(project.error);
          return (await store.approvals.removeRule(project.value.id, params.approval_rule_id)) ? ok({ status: 204 }) : err(errors.notFound());
        }),
    }),
  ]);
}
