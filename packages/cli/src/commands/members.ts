/** `forgekit members add`. */
import type { ResultAsync } from "neverthrow";
import type { ForgekitError } from "@forgekit/core";
import { memberRecord } from "../output.js";
import { UsageError } from "../usage-error.js";
import { accessLevel, accessLevelName, isoDate } from "../values.js";
import type { Command } from "./context.js";

const membersAdd: Command = {
  name: "members add",
  summary: "add a user to a group or a project at an access level",
  options: {
    user: { type: "string", placeholder: "<user>", description: "user id or username", required: true },
    group: { type: "string", placeholder: "<group>", description: "group id or full path (or use --project)" },
    project: { type: "string", placeholder: "<project>", description: "project id or full path (or use --group)" },
    "access-level": { type: "string", placeholder: "<level>", description: "guest, reporter, developer, maintainer, owner (or 10-50)", required: true },
    "expires-at": { type: "string", placeholder: "<YYYY-MM-DD>", description: "membership expiry date" },
  },
  notes: ["Group memberships are inherited by subgroups and their projects."],
  run: ({ fk }, args) => {
    const group = args.string("group");
    const project = args.string("project");
    if ((group === undefined) === (project === undefined)) throw new UsageError("give exactly one of --group or --project", "members add");
    const level = accessLevel("--access-level", args.required("access-level"));
    const expires = args.string("expires-at");
    const expiresAt = expires === undefined ? null : isoDate("--expires-at", expires);
    const source: ResultAsync<{ sourceType: "namespace" | "project"; sourceId: number; label: string }, ForgekitError> =
      group !== undefined
        ? fk.groups.findByIdOrPath(group).map((g) => ({ sourceType: "namespace" as const, sourceId: g.id, label: `group ${g.fullPath}` }))
        : fk.projects.findByIdOrPath(project ?? "").map((p) => ({ sourceType: "project" as const, sourceId: p.id, label: `project ${p.fullPath}` }));
    return source.andThen((target) =>
      fk.users
        .findByIdOrUsername(args.required("user"))
        .andThen((user) =>
          fk.members
            .add({ sourceType: target.sourceType, sourceId: target.sourceId, userId: user.id, accessLevel: level, expiresAt })
            .map((member) => ({
              json: memberRecord(member),
              text: [`added @${user.username} to ${target.label} as ${accessLevelName(member.accessLevel)}`],
            })),
        ),
    );
  },
};

/** The members commands. */
export const membersCommands: Command[] = [membersAdd];
