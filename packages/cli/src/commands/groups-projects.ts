/** `forgekit groups create` and `forgekit projects create`. */
import { okAsync, ResultAsync } from "neverthrow";
import type { ForgekitError } from "@forgekit/core";
import { groupLine, groupRecord, projectLine, projectRecord } from "../output.js";
import { oneOf } from "../values.js";
import type { Command } from "./context.js";
import { namespaceId } from "./resolve.js";

const VISIBILITIES = ["private", "internal", "public"] as const;

const groupsCreate: Command = {
  name: "groups create",
  summary: "create a group or, with --parent, a subgroup",
  options: {
    path: { type: "string", placeholder: "<path>", description: "URL path segment", required: true },
    name: { type: "string", placeholder: "<name>", description: "display name (default: the path)" },
    parent: { type: "string", placeholder: "<group>", description: "parent group id or full path" },
    visibility: { type: "string", placeholder: "<visibility>", description: "private (default), internal or public; never more open than the parent" },
    description: { type: "string", placeholder: "<text>", description: "description" },
    owner: { type: "string", placeholder: "<user>", description: "user id or username made Owner of the group" },
  },
  run: ({ fk }, args) => {
    const path = args.required("path");
    const visibility = args.string("visibility");
    const checkedVisibility = visibility === undefined ? undefined : oneOf("--visibility", visibility, VISIBILITIES);
    const parent = args.string("parent");
    const owner = args.string("owner");
    const description = args.string("description");
    const parentId: ResultAsync<number | null, ForgekitError> = parent === undefined ? okAsync(null) : fk.groups.findByIdOrPath(parent).map((g) => g.id);
    const ownerId: ResultAsync<number | undefined, ForgekitError> =
      owner === undefined ? okAsync(undefined) : fk.users.findByIdOrUsername(owner).map((u) => u.id);
    return ResultAsync.combine([parentId, ownerId])
      .map(([parentId, ownerId]) => ({ parentId, ownerId }))
      .andThen(({ parentId, ownerId }) =>
        fk.groups.create({
          path,
          name: args.string("name") ?? path,
          parentId,
          ...(checkedVisibility === undefined ? {} : { visibility: checkedVisibility }),
          ...(description === undefined ? {} : { description }),
          ...(ownerId === undefined ? {} : { ownerId }),
        }),
      )
      .map((group) => ({ json: groupRecord(group), text: [`created ${groupLine(group)}`] }));
  },
};

const projectsCreate: Command = {
  name: "projects create",
  summary: "create a project in a group or a user's namespace",
  options: {
    namespace: { type: "string", placeholder: "<namespace>", description: "group id or full path, or a username", required: true },
    name: { type: "string", placeholder: "<name>", description: "display name", required: true },
    path: { type: "string", placeholder: "<path>", description: "URL path segment (default: derived from the name)" },
    visibility: { type: "string", placeholder: "<visibility>", description: "private (default), internal or public; never more open than its group" },
    description: { type: "string", placeholder: "<text>", description: "description" },
    "repository-storage": { type: "string", placeholder: "<shard>", description: "repository storage shard (default: the first configured)" },
  },
  run: ({ fk }, args) => {
    const name = args.required("name");
    const visibility = args.string("visibility");
    const checkedVisibility = visibility === undefined ? undefined : oneOf("--visibility", visibility, VISIBILITIES);
    const path = args.string("path");
    const description = args.string("description");
    const storage = args.string("repository-storage");
    return namespaceId(fk, args.required("namespace"))
      .andThen((nsId) =>
        fk.projects.create({
          namespaceId: nsId,
          name,
          ...(path === undefined ? {} : { path }),
          ...(checkedVisibility === undefined ? {} : { visibility: checkedVisibility }),
          ...(description === undefined ? {} : { description }),
          ...(storage === undefined ? {} : { repositoryStorage: storage }),
        }),
      )
      .map((project) => ({ json: projectRecord(project), text: [`created ${projectLine(project)}`] }));
  },
};

/** The groups and projects commands. */
export const groupAndProjectCommands: Command[] = [groupsCreate, projectsCreate];
