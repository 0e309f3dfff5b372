/**
 * Answers whose shape depends on the caller or a parameter: one entity or another (`anyOf` in the
 * document), or an entity with what one route adds to it; and the OpenAPI document itself.
 */
import * as z from "zod";
import { groupSchema, projectBasicSchema, projectSchema, userSchema, userSelfSchema, userWithAdminSchema } from "./accounts.js";
import { userBasicSchema } from "./common.js";

export const currentUserSchema = z.union([userWithAdminSchema, userSelfSchema]).meta({ description: "The current user: `UserWithAdmin` to administrators, else `UserSelf`" });
export const userForViewerSchema = z.union([userWithAdminSchema, userSchema]).meta({ description: "A user: `UserWithAdmin` to administrators, else `User`" });
export const userListEntrySchema = z.union([userWithAdminSchema, userBasicSchema]).meta({ description: "A user of a list: `UserWithAdmin` to administrators, else `UserBasic`" });
export const projectListEntrySchema = z.union([projectSchema, projectBasicSchema]).meta({ description: "A project of a list: `ProjectBasic` with `simple=true`, else `Project`" });

export const groupDetailSchema = groupSchema
  .extend({
    projects: z.array(projectSchema).optional().meta({ description: "the group's projects the caller may see (first 100); absent with `with_projects=false`" }),
    shared_projects: z.array(z.never()).meta({ description: "always empty: forgekit does not share projects with groups" }),
  })
  .meta({ description: "Group with its projects (reference `GroupDetail`)" });

export const openApiDocumentSchema = z
  .object({
    openapi: z.literal("3.1.0"),
    info: z.object({ title: z.string(), version: z.string(), description: z.string(), license: z.object({ name: z.string(), identifier: z.string() }) }),
    servers: z.array(z.object({ url: z.string() })),
    tags: z.array(z.object({ name: z.string() })),
    paths: z.record(z.string(), z.record(z.string(), z.unknown())),
    components: z.record(z.string(), z.record(z.string(), z.unknown())),
  })
  .meta({ description: "An OpenAPI 3.1 document (this one)" });
