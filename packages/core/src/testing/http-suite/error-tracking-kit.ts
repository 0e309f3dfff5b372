/**
 * Shared world of the error-tracking HTTP suites: the seeded instance plus callers at every role
 * the reference distinguishes on `grp/public-project` (Maintainer, Developer, Reporter), a
 * `read_api` token, and request helpers.
 */
import { gzipSync } from "node:zlib";
import { expect } from "vitest";
import { AccessLevel, type Project } from "../../accounts/types.js";
import { createTestForgekit, must, type TestForgekit } from "../fixtures.js";
import type { HttpHarness, HttpResult } from "../http-harness.js";

/** The world the suites run in. */
export interface ErrorTrackingWorld {
  t: TestForgekit;
  /** The project every role below is a member of (public, in `grp`). */
  project: Project;
  tokens: { maintainer: string; developer: string; reporter: string; readApi: string; admin: string; outsider: string };
}

/** Seeds the world: a Maintainer, a Developer and a Reporter on `grp/public-project`. */
export async function errorTrackingWorld(): Promise<ErrorTrackingWorld> {
  const t = await createTestForgekit();
  const project = t.projects.publicProject;
  const member = async (username: string, level: number) => {
    const user = await t.createUser({ username });
    await t.addMember({ project }, user, level);
    return user;
  };
  const maintainer = await member("maintainer", AccessLevel.Maintainer);
  const developer = await member("developer", AccessLevel.Developer);
  const reporter = await member("reporter", AccessLevel.Reporter);
  return {
    t,
    project,
    tokens: {
      maintainer: (await t.createToken(maintainer.id)).plaintext,
      developer: (await t.createToken(developer.id)).plaintext,
      reporter: (await t.createToken(reporter.id)).plaintext,
      readApi: (await t.createToken(maintainer.id, { scopes: ["read_api"] })).plaintext,
      admin: t.tokens.root,
      // bob has no membership in `secret/hidden` (private).
      outsider: t.tokens.bob,
    },
  };
}

/** `PRIVATE-TOKEN` headers for `token`, none for anonymous. */
export const as = (token?: string): Record<string, string> => (token === undefined ? {} : { "private-token": token });

/** Asserts the status and the exact JSON body. */
export function expectJson(r: HttpResult, status: number, body: unknown): void {
  expect({ status: r.status, body: r.json }).toEqual({ status, body });
  expect(r.headers["content-type"]).toBe("application/json");
}

/** The spec's bodies for the access rules shared by every endpoint of the group. */
export const BODIES = {
  unauthorized: { message: "401 Unauthorized" },
  forbidden: { message: "403 Forbidden" },
  projectNotFound: { message: "404 Project Not Found" },
  noSettings: { message: "404 Error Tracking Setting Not Found" },
  recordNotFound: { message: "404 Not found" },
  notFound: { message: "404 Not Found" },
  parseFailed: { message: "400 Bad request - Failed to parse sentry request" },
  unsupportedPayload: { message: "400 Bad request - Unsupported sentry payload" },
  unsupportedMediaType: { message: "415 Unsupported Media Type" },
  tooLarge: { message: "413 Request Entity Too Large" },
} as const;

/** Turns on integrated error tracking for the project and makes a client key; returns its public key. */
export async function enableCollector(t: TestForgekit, projectId: number): Promise<string> {
  await must(t.fk.errorTracking.putSettings(projectId, { active: true, integrated: true }));
  return (await must(t.fk.errorTracking.createClientKey(projectId))).publicKey;
}

/** An exception event as SDKs send it. */
export function exceptionEvent(type = "TypeError", value = "x is undefined", extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    event_id: "9ec79c33ec9942ab8353589fcb2e04dc",
    timestamp: 1_714_564_800.5,
    platform: "node",
    level: "error",
    environment: "production",
    exception: {
      values: [{ type, value, stacktrace: { frames: [{ filename: "app.js", function: "main" }, { filename: "lib/cart.js", function: "checkout" }] } }],
    },
    ...extra,
  };
}

/** An envelope: header line, then one line per item header and one per payload (`length` given when asked). */
export function envelope(items: { type: string; payload: unknown; withLength?: boolean }[], header: Record<string, unknown> = {}): string {
  const lines = [JSON.stringify({ event_id: "9ec79c33ec9942ab8353589fcb2e04dc", sent_at: "2024-05-01T12:00:00.000Z", ...header })];
  for (const item of items) {
    const payload = JSON.stringify(item.payload);
    const length = item.withLength === true ? { length: Buffer.byteLength(payload) } : {};
    lines.push(JSON.stringify({ type: item.type, ...length }), payload);
  }
  return `${lines.join("\n")}\n`;
}

/** Gzip of a text body. */
export const gzip = (body: string): Uint8Array => new Uint8Array(gzipSync(Buffer.from(body)));

/** POSTs to the collector of `projectId` (`kind` envelope or store), the key in the query unless `key` is null. */
export function collect(
  h: HttpHarness,
  projectId: number | string,
  kind: "envelope" | "store",
  options: { key?: string | null; body?: string | Uint8Array; headers?: Record<string, string>; slash?: boolean } = {},
): Promise<HttpResult> {
  const query = options.key === undefined || options.key === null ? undefined : { sentry_version: "7", sentry_key: options.key };
  const path = `/api/v4/error_tracking/collector/api/${projectId}/${kind}${options.slash === false ? "" : "/"}`;
  return h.request("POST", path, {
    ...(query === undefined ? {} : { query }),
    ...(options.body === undefined ? {} : { body: options.body }),
    headers: options.headers ?? {},
  });
}
