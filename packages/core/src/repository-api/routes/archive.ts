/**
 * `GET /projects/:id/repository/archive[.tar.gz|.tgz|.tar|.zip]` (reference `repositories.rb`):
 * `git archive` of `sha` (default: the default branch), optionally of one `path`, with the
 * reference's `<project>-<ref>-<sha>/` prefix. The archive is built in memory, so it is bounded
 * (MAX_ARCHIVE_BYTES); `tar.bz2` is not offered (git has no built-in bzip2).
 */
import { err, ok } from "neverthrow";
import * as z from "zod";
import { errors } from "../../errors.js";
import { p } from "../../http/params.js";
import { defineRoute, respond } from "../../http/route-kit.js";
import type { AnyRoute } from "../../http/router.js";
import type { RepositoryApiDeps } from "../context.js";
import { entryAt, resolveCommit } from "../git/reads.js";
import { READ_AUTH, withRepository } from "./kit.js";

/** Largest archive forgekit sends. */
export const MAX_ARCHIVE_BYTES = 100 * 1024 * 1024;

const FORMATS = { "tar.gz": { git: "tar.gz", type: "application/gzip" }, tgz: { git: "tar.gz", type: "application/gzip" }, tar: { git: "tar", type: "application/x-tar" }, zip: { git: "zip", type: "application/zip" } } as const;
type Format = keyof typeof FORMATS;

/** Builds the archive routes (one per suffix; no suffix is tar.gz unless `format` says otherwise). */
export function archiveRoutes(deps: RepositoryApiDeps): AnyRoute[] {
  const route = (suffix: Format | null) =>
    defineRoute({
      method: "GET",
      path: `/projects/:id/repository/archive${suffix === null ? "" : `.${suffix}`}`,
      summary: `Download an archive of a project's repository${suffix === null ? "" : ` (.${suffix})`}`,
      auth: READ_AUTH,
      schema: z.object({ sha: p.string().optional(), path: p.string().optional(), format: p.enum(Object.keys(FORMATS) as Format[]).optional() }),
      handler: ({ identity, pathParams, params }) =>
        respond(() =>
          withRepository(deps, identity, pathParams["id"], "read", async ({ project, repo }) => {
            const format = suffix ?? params.format ?? "tar.gz";
            const ref = params.sha ?? project.defaultBranch ?? "HEAD";
            const commit = await resolveCommit(repo, ref);
            // Reference: any failure of the archive is `404 File Not Found`.
            if (commit === null) return err(errors.notFound("File"));
            const path = params.path?.replace(/\/+$/, "") ?? "";
            if (path !== "" && (await entryAt(repo, commit, path)) === null) return err(errors.notFound("File"));
            const name = `${project.path}-${ref.replace(/[^A-Za-z0-9._-]+/g, "-")}-${commit}`;
            const args = ["archive", `--format=${FORMATS[format].git}`, `--prefix=${name}/`, "--end-of-options", commit, ...(path === "" ? [] : [path])];
            const r = await repo.run(args, { maxOutputBytes: MAX_ARCHIVE_BYTES });
            if (r.tooLarge) return err(errors.badRequestMessage(`The archive is larger than ${MAX_ARCHIVE_BYTES / 1024 / 1024} MiB; ask for a path inside the repository`));
            if (r.code !== 0) return err(errors.notFound("File"));
            return ok({ raw: r.stdout, headers: { "content-type": FORMATS[format].type, "content-disposition": `attachment; filename="${name}.${format}"`, "cache-control": "no-cache" } });
          }),
        ),
    });
  return [route(null), route("tar.gz"), route("tgz"), route("tar"), route("zip")];
}
