/**
 * What a push is checked against and what it sets up: the protected branch and tag rules
 * (protected-refs capability) answered through the pre-receive hook (./ref-guard.ts), and the
 * default-branch protection of the first branch pushed into an empty repository.
 */
import type { Project, User } from "../accounts/types.js";
import type { ForgekitConfig } from "../config.js";
import { protectDefaultBranch, refusePush } from "../protected-refs/index.js";
import { runGit, type GitCommandOptions } from "../repositories/git-command.js";
import { answerHook, guardHooksPath } from "./ref-guard.js";
import type { Duplex } from "node:stream";

/** The receive-pack guard of one push, and what runs when the push made the first branch the default. */
export interface PushGuard {
  hooksPath: string;
  onChannel: (channel: Duplex) => void;
  adopted: (branch: string) => Promise<void>;
}

/**
 * Builds the guard of a push to `project` by `user` (null: no user, every protected ref refused)
 * into the repository at `directory` (whose branches, read while the hook waits, say whether this
 * is the first push).
 */
export async function pushGuard(config: Pick<ForgekitConfig, "store" | "logger" | "clock" | "defaultBranchProtection">, project: Project, user: User | null, git: GitCommandOptions, directory: string): Promise<PushGuard> {
  const { store, logger, clock } = config;
  const emptyRepository = async () => (await runGit(git, [`--git-dir=${directory}`, "for-each-ref", "--count=1", "--format=%(refname)", "refs/heads/"])).trim() === "";
  return {
    hooksPath: await guardHooksPath(),
    onChannel: (channel) =>
      answerHook(
        channel,
        async (updates) => refusePush(store, project, user, updates, clock.now(), { emptyRepository: await emptyRepository(), fallback: config.defaultBranchProtection }),
        (error) => logger.log("error", "git_http.push_check_failed", { projectId: project.id, message: error instanceof Error ? error.message : String(error) }),
      ),
    adopted: (branch) => protectDefaultBranch(store, config.defaultBranchProtection, project.id, branch, clock.now()),
  };
}
