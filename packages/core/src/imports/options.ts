/**
 * The `imports` section of the instance configuration (issue 10 §3): whether imports may reach the
 * local network, and (for hosts and tests) the name resolution and client factories imports use.
 */
import * as z from "zod";
import type { ExtForgeClientFactory } from "./extforge/client.js";
import type { ExtServerClientFactory } from "./extserver/client.js";
import type { HostLookup } from "./url-guard.js";

const fn = <T>(name: string) => z.custom<T>((value) => typeof value === "function", { message: `must be a function (${name})` });

export const importsOptionsSchema = z.strictObject({
  /**
   * Allow `extforge_hostname`, `extserver_url`, clone URLs and redirects to reach loopback, private
   * and link-local addresses (default false: they are refused with 400 "Invalid URL: …"). Cloud
   * metadata addresses stay refused. Tests and the demo turn it on to import from 127.0.0.1.
   */
  allowLocalNetwork: z.boolean().default(false),
  /** Name resolution of the URL guard (default: the system resolver). */
  lookup: fn<HostLookup>("HostLookup").optional(),
  /** Builds the external forge client (default: `restExtForge`, GitHub REST v3 on the guarded fetch). */
  extForge: fn<ExtForgeClientFactory>("ExtForgeClientFactory").optional(),
  /** Builds the external repository server client (default: `fetchExtServer`, Bitbucket Server REST 1.0). */
  extServer: fn<ExtServerClientFactory>("ExtServerClientFactory").optional(),
  /** Longest one git fetch of an imported repository may run, in ms (default 30 minutes). */
  gitTimeoutMs: z.number().int().positive().default(30 * 60 * 1000),
});

export type ImportsOptions = z.output<typeof importsOptionsSchema>;
