/**
 * Gists import (spec "Import" rule 4; reference §3.3): the forge user's gists with at most 10 files
 * become personal snippets of the caller (every file in the snippet's repository, the first one as
 * the snippet's file; public gists public, secret gists private); gists with more files are skipped
 * and the user gets one message listing them, through the `Notifier` port. One gists import runs
 * per user at a time (the job's unique key). The token and the run's progress (gists done, gists
 * skipped) are kept in instance settings while it runs, so a resumed job imports nothing twice.
 */
import { err, ok, type ResultAsync } from "neverthrow";
import type { User } from "../accounts/types.js";
import { attempt } from "../accounts/service-kit.js";
import type { ForgekitConfig } from "../config.js";
import { errors, type ForgekitError } from "../errors.js";
import type { JobContext, JobHandler } from "../jobs/types.js";
import { loggingNotifier } from "../ports/notifier.js";
import { isRepositoryFilePath } from "../repositories/names.js";
import { inTransactionWithRepository } from "../repositories/provision.js";
import { credentialsBox } from "./credentials.js";
import { externalFailureOf } from "./external-failure.js";
import { restExtForge } from "./extforge/client.js";
import type { ExtForgeGist } from "./extforge/types.js";

export const GISTS_JOB_KIND = "imports.gists";
/** Gist files at most (spec "Limits": Gist files). */
export const GIST_FILES_MAX = 10;
const TITLE_MAX = 255;

interface GistsProgress {
  done: string[];
  skipped: { id: string; url: string; files: number; description: string | null }[];
}

const credentialsKey = (userId: number) => `imports.gists.${userId}.credentials`;
const progressKey = (userId: number) => `imports.gists.${userId}.progress`;
const uniqueKey = (userId: number) => `imports.gists:${userId}`;

const readProgress = (text: string | null): GistsProgress => {
  try {
    const value = JSON.parse(text ?? "") as GistsProgress;
    return Array.isArray(value.done) && Array.isArray(value.skipped) ? value : { done: [], skipped: [] };
  } catch {
    return { done: [], skipped: [] };
  }
};

/** Starts a gists import: 401 for a token the forge refuses, 429 on its rate limit, 422 while one runs. */
export function startGistsImport(config: ForgekitConfig, user: User, token: string): ResultAsync<void, ForgekitError> {
  const box = credentialsBox(config);
  return attempt(async () => {
    const client = (config.imports.extForge ?? restExtForge)({ token, allowLocalNetwork: config.imports.allowLocalNetwork, ...(config.imports.lookup === undefined ? {} : { lookup: config.imports.lookup }), clock: config.clock });
    try {
      await client.currentUser();
    } catch (error) {
      const failure = externalFailureOf(error);
      if (failure?.reason === "unauthorized" || failure?.reason === "forbidden") return err(errors.unauthorized());
      if (failure?.reason === "rate_limited") return err(errors.rateLimited(failure.resetAt === undefined ? 60 : (failure.resetAt.getTime() - config.clock.now().getTime()) / 1000));
      if (failure !== undefined) return err(errors.unprocessable(`Import failed because of a GitHub error: ${failure.detail ?? failure.message}`));
      throw error;
    }
    const started = await config.store.transaction(async (tx) => {
      const now = config.clock.now();
      const job = await tx.jobs.enqueue({ kind: GISTS_JOB_KIND, payload: JSON.stringify({ userId: user.id }), maxAttempts: 5, runAfter: now, uniqueKey: uniqueKey(user.id) }, now);
      if (job === null) return false;
      await tx.settings.set(credentialsKey(user.id), box.seal({ token }));
      await tx.settings.set(progressKey(user.id), JSON.stringify({ done: [], skipped: [] } satisfies GistsProgress));
      return true;
    });
    return started ? ok(undefined) : err(errors.unprocessable("Import already in progress"));
  });
}

/** The commit e-mail of a user: a no-reply address on the instance's host (as snippets use). */
const noreplyEmail = (username: string, baseUrl: string) => `${username}@users.noreply.${new URL(baseUrl).hostname}`;

/** The handler of `imports.gists`. */
export function gistsJobHandler(config: ForgekitConfig): JobHandler<{ userId: number }> {
  const { store, clock } = config;
  const box = credentialsBox(config);
  const notifier = config.notifier ?? loggingNotifier(config.logger);

  const importGist = async (user: User, gist: ExtForgeGist): Promise<void> => {
    const files = gist.files.filter((f) => isRepositoryFilePath(f.name));
    const first = files[0];
    if (first === undefined) return;
    const created = await inTransactionWithRepository(config, async (tx) => {
      const progress = readProgress(await tx.settings.get(progressKey(user.id)));
      if (progress.done.includes(gist.id)) return err(errors.conflict("imported already"));
      const title = (gist.description ?? "").trim() === "" ? first.name : (gist.description ?? "").trim().slice(0, TITLE_MAX);
      const snippet = await tx.activity.snippets.create(
        { projectId: null, authorId: user.id, title, fileName: first.name, content: first.content, visibility: gist.public ? "public" : "private", importedFrom: "extforge" },
        gist.createdAt,
      );
      progress.done.push(gist.id);
      await tx.settings.set(progressKey(user.id), JSON.stringify(progress));
      const commit = { files: files.map((f) => ({ path: f.name, content: f.content })), message: "Initial commit", author: { name: user.name, email: noreplyEmail(user.username, config.baseUrl) }, date: gist.createdAt };
      return ok({ value: snippet, repository: { storage: config.defaultRepositoryStorage, ref: { kind: "snippet" as const, id: snippet.id }, options: { commit } } });
    });
    if (created.isErr() && created.error.code !== "conflict") throw new Error(`gist ${gist.id} could not be imported: ${created.error.code}`, { cause: created.error });
  };

  const finish = async (user: User) => {
    const progress = readProgress(await store.settings.get(progressKey(user.id)));
    if (progress.skipped.length > 0) {
      const email = await store.emails.primaryFor(user.id);
      const lines = progress.skipped.map((g) => `- ${g.url} (${g.files} files)${g.description ? `: ${g.description}` : ""}`);
      try {
        await notifier.notify(
          { id: user.id, username: user.username, email: email?.email ?? null },
          { subject: "Some gists were not imported", body: `These gists have more than ${GIST_FILES_MAX} files and were not imported as snippets:\n\n${lines.join("\n")}\n` },
        );
      } catch (error) {
        config.logger.log("warn", "imports.notify_failed", { userId: user.id, error: error instanceof Error ? error.message : String(error) });
      }
    }
    await store.transaction(async (tx) => {
      await tx.settings.set(credentialsKey(user.id), null);
      await tx.settings.set(progressKey(user.id), null);
    });
  };

  return async (ctx: JobContext<{ userId: number }>) => {
    const user = await store.users.findById(ctx.payload.userId);
    const stored = await store.settings.get(credentialsKey(ctx.payload.userId));
    const credentials = stored === null ? null : box.open(stored);
    if (user === null || credentials === null) return;
    const client = (config.imports.extForge ?? restExtForge)({ token: credentials.token, allowLocalNetwork: config.imports.allowLocalNetwork, ...(config.imports.lookup === undefined ? {} : { lookup: config.imports.lookup }), clock });
    try {
      for await (const page of client.gists({ maxFiles: GIST_FILES_MAX })) {
        for (const gist of page.items) {
          if (gist.fileCount > GIST_FILES_MAX) {
            await ctx.step(`skip gist ${gist.id}`, () =>
              store.transaction(async (tx) => {
                const progress = readProgress(await tx.settings.get(progressKey(user.id)));
                if (progress.skipped.some((s) => s.id === gist.id)) return;
                progress.skipped.push({ id: gist.id, url: gist.htmlUrl, files: gist.fileCount, description: gist.description });
                await tx.settings.set(progressKey(user.id), JSON.stringify(progress));
              }),
            );
          } else await ctx.step(`gist ${gist.id}`, () => importGist(user, gist));
        }
      }
    } catch (error) {
      if (ctx.signal.aborted) throw error;
      const failure = externalFailureOf(error);
      const permanent = failure !== undefined && ["unauthorized", "forbidden", "not_found", "blocked_url"].includes(failure.reason);
      if (!permanent && ctx.attempt < ctx.job.maxAttempts) throw error;
      config.logger.log("warn", "imports.gists_failed", { userId: user.id, error: failure?.message ?? (error instanceof Error ? error.message : String(error)) });
    }
    await finish(user);
  };
}
