/**
 * A diff note's position checked against the repository (reference `DiffNote` validations): the
 * line it names must be in the diff from `base_sha` to `head_sha`, and the position complete; else
 * `400 Bad request - Note {:line_code=>[…], :position=>[…]}` as the reference renders it.
 */
import { err, ok, type Result } from "neverthrow";
import type { DiffPosition } from "../activity/types.js";
import type { Identity } from "../auth/identity.js";
import type { ForgekitConfig } from "../config.js";
import { errors, type ForgekitError } from "../errors.js";
import { readableProject } from "../repository-api/context.js";
import { diffCommits, type FileDiff } from "../repository-api/git/diffs.js";
import type { GitRepo } from "../repository-api/git/repo.js";
import { lineCodeIn, positionErrors, positionOf, type PositionParams } from "./position.js";

/** The files changed from `base` to `head`; none when either is not a commit of the repository. */
async function diffOf(repo: GitRepo | null, base: string, head: string): Promise<FileDiff[]> {
  if (repo === null) return [];
  try {
    return await diffCommits(repo, base, head);
  } catch {
    // Not object ids, or commits the repository does not have: no diff, so no line is in it.
    return [];
  }
}

/** The position of a new diff note on the project `projectRef`'s merge request, or the reference's 400. */
export async function diffNotePosition(config: ForgekitConfig, identity: Identity, params: PositionParams, projectRef: string | undefined): Promise<Result<DiffPosition, ForgekitError>> {
  const position = positionOf(params);
  const project = await readableProject(config, identity, projectRef);
  if (project.isErr()) return err(project.error);
  const diffs = await diffOf(project.value.repo, params.base_sha, params.head_sha);
  const refused = positionErrors(position, lineCodeIn(diffs, position));
  return refused === null ? ok(position) : err(errors.badRequest(refused));
}
