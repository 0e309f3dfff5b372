/** Pushes (host API: `fk.pushes`): a host's git layer reports each ref update; forgekit records the `pushed` event. */
import type { ResultAsync } from "neverthrow";
import { inTransaction } from "../accounts/service-kit.js";
import type { ForgekitConfig } from "../config.js";
import type { ForgekitError } from "../errors.js";
import { recordEvent } from "../events/record.js";
import type { Event, PushData } from "../events/types.js";

/** Input of {@link PushesService.record}. */
export interface RecordPushInput {
  projectId: number;
  authorId: number;
  /** Branch or tag name without `refs/heads/` / `refs/tags/`. */
  ref: string;
  /** Default `branch`. */
  refType?: "branch" | "tag";
  /** Default: `created` when there is no `commitFrom`, `removed` when there is no `commitTo`, else `pushed`. */
  action?: PushData["action"];
  /** Previous tip (40 or 64 hex digits); null / absent for a new ref. */
  commitFrom?: string | null;
  /** New tip; null / absent for a removed ref. */
  commitTo?: string | null;
  /** Commits pushed (default 0). */
  commitCount?: number;
  /** Title of the newest commit; cut to 70 characters. */
  commitTitle?: string | null;
}

/** Pushes service. */
export interface PushesService {
  /** Records the push as a `pushed` event ("pushed new" / "pushed to" / "deleted"). 400 validation, 404 Project / User. */
  record(input: RecordPushInput): ResultAsync<Event, ForgekitError>;
}

/** Builds the pushes service. */
export function pushesService(config: ForgekitConfig): PushesService {
  const { store, clock } = config;
  return {
    record(input) {
      const commitFrom = input.commitFrom ?? null;
      const commitTo = input.commitTo ?? null;
      const action = input.action ?? (commitFrom === null ? "created" : commitTo === null ? "removed" : "pushed");
      const push: PushData = {
        commitCount: input.commitCount ?? 0,
        action,
        refType: input.refType ?? "branch",
        commitFrom,
        commitTo,
        ref: input.ref,
        commitTitle: input.commitTitle ?? null,
      };
      return inTransaction(store, (tx) => recordEvent(tx, { projectId: input.projectId, authorId: input.authorId, action: "pushed", push }, clock.now()));
    },
  };
}
