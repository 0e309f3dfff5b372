/**
 * Schemas of the instance and administration answers (metadata, application settings, OAuth
 * applications), error tracking, imports, and the bare bodies some actions answer with.
 */
import * as z from "zod";
import type { metadataEntity } from "../../instance/version.js";
import type { applicationEntity } from "../../oauth/applications.js";
import { IMPORT_STATUSES } from "../../ports/imports-store.js";
import { type Fits, type Holds, int, timestamp, url } from "./common.js";

export const metadataSchema = z
  .object({
    version: z.string(),
    revision: z.string(),
    kas: z.object({ enabled: z.boolean(), externalUrl: url.nullable(), externalK8sProxyUrl: url.nullable(), version: z.string().nullable() }).meta({ description: "the Kubernetes agent server: not provided (disabled)" }),
    enterprise: z.boolean().meta({ description: "true on the premium and ultimate tiers" }),
  })
  .meta({ description: "Instance metadata (reference `Metadata`)" });

export const applicationSettingsSchema = z
  .object({
    impersonation_enabled: z.boolean(),
    default_branch_protection: z.union([z.literal(0), z.literal(1), z.literal(2), z.literal(3), z.literal(4)]).meta({ description: "reference `Gitlab::Access` branch protection level" }),
    password_authentication_enabled_for_git: z.boolean().meta({ description: "set in the instance's configuration, not here" }),
  })
  .meta({ description: "The application settings forgekit has (reference `ApplicationSetting`)" });

export const applicationSchema = z
  .object({
    id: int,
    application_id: z.string().meta({ description: "the OAuth client id" }),
    application_name: z.string(),
    callback_url: z.string().meta({ description: "the redirect URIs, one per line" }),
    confidential: z.boolean(),
  })
  .meta({ description: "OAuth application (reference `Application`)" });

export const applicationWithSecretSchema = applicationSchema
  .extend({ secret: z.string().meta({ description: "the client secret: shown only here" }) })
  .meta({ description: "OAuth application with its new secret (reference `ApplicationWithSecret`)" });

export const errorTrackingSettingsSchema = z
  .object({ active: z.boolean(), project_name: z.null(), sentry_external_url: z.null(), api_url: z.null(), integrated: z.boolean() })
  .meta({ description: "Error-tracking settings; the external Sentry fields are null: only the integrated backend exists (reference `ErrorTracking::ProjectSetting`)" });

export const errorTrackingClientKeySchema = z
  .object({ id: int, active: z.boolean(), public_key: z.string(), sentry_dsn: url })
  .meta({ description: "Error-tracking client key with its Sentry DSN (reference `ErrorTracking::ClientKey`)" });

export const projectImportSchema = z
  .object({
    id: int,
    name: z.string(),
    full_path: z.string().meta({ description: "URL path with a leading slash" }),
    full_name: z.string(),
    import_source: z.string(),
    import_status: z.enum(IMPORT_STATUSES),
    human_import_status_name: z.string(),
    provider_link: z.string(),
    import_error: z.string().nullable().optional().meta({ description: "only when the import failed" }),
    import_warning: z.string().nullable(),
  })
  .meta({ description: "Import result (reference `ProjectImportEntity`)" });

const counts = z.record(z.string(), int).meta({ description: "per kind of record" });

export const projectImportStatusSchema = z
  .object({
    id: int,
    description: z.string(),
    name: z.string(),
    name_with_namespace: z.string(),
    path: z.string(),
    path_with_namespace: z.string(),
    created_at: timestamp,
    import_status: z.enum([...IMPORT_STATUSES, "none"]),
    import_type: z.enum(["extforge", "extserver"]).nullable(),
    import_source: z.string().nullable(),
    import_error: z.string().nullable(),
    failed_relations: z.array(z.never()),
    stats: z.object({ fetched: counts, imported: counts }),
    progress: z
      .object({ stage: z.string().meta({ description: "the stage running, or `done`" }), stage_number: int, stages: int, items_imported: int })
      .nullable()
      .meta({ description: "forgekit's extension: where a running import is" }),
  })
  .meta({ description: "A project's import status (reference `ProjectImportStatus`)" });

/** A bare message body, e.g. `{"message":"201 Created"}`. */
export const messageSchema = z.object({ message: z.string() }).meta({ description: "A message" });
/** The empty object some actions answer with (e.g. the error-tracking collector). */
export const emptySchema = z.object({}).meta({ description: "An empty object" });
/** The `true` some actions answer with (e.g. `POST /users/:id/activate`). */
export const trueSchema = z.literal(true).meta({ description: "`true`: done" });

/** Compile-time: the schemas match their renderers (a mismatch fails `tsc`). */
export type InstanceSchemasMatchRenderers = [
  Holds<Fits<typeof metadataSchema, ReturnType<typeof metadataEntity>>>,
  Holds<Fits<typeof applicationWithSecretSchema, Required<ReturnType<typeof applicationEntity>>>>,
];
