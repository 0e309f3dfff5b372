/**
 * The pre-receive check of a push (reference: gitlab-shell's `pre-receive` calling `/internal/allowed`):
 * receive-pack runs with `core.hooksPath` pointing at a small `pre-receive` script that, for each
 * ref update, works out whether the new commit descends from the old one (in git's quarantine, so
 * the pushed objects are visible) and asks this process over a socket on fd 3. The answer is `ok`,
 * or the messages git shows as `remote: GitLab: …` before every ref's
 * `! [remote rejected] <ref> (pre-receive hook declined)`; nothing is applied then.
 */
import { constants } from "node:fs";
import { access, chmod, mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Duplex } from "node:stream";
import type { RefUpdate } from "../protected-refs/index.js";

/** The hook: one line `<old> <new> <ref> <ff>` per update, `done`, then prints what it is told. */
const PRE_RECEIVE = `#!/bin/sh
# forgekit: ask the forgekit process (fd 3) whether these ref updates may go.
while read -r old new ref; do
  ff=1
  case "$old" in *[!0]*) case "$new" in *[!0]*) git merge-base --is-ancestor "$old" "$new" 2>/dev/null || ff=0 ;; esac ;; esac
  printf '%s %s %s %s\\n' "$old" "$new" "$ref" "$ff" >&3
done
printf 'done\\n' >&3
status=1
while IFS= read -r line <&3; do
  case "$line" in
    ok) status=0 ;;
    *) printf '%s\\n' "$line" >&2 ;;
  esac
done
exit $status
`;

let hooksDirectory: Promise<string> | null = null;

async function writeHook(directory: string): Promise<void> {
  const hook = join(directory, "pre-receive");
  await writeFile(hook, PRE_RECEIVE, { mode: 0o755 });
  await chmod(hook, 0o755);
}

/**
 * The directory holding the `pre-receive` script (made once per process, private to its user).
 * The script is checked on every push and written again when something removed it (a temporary
 * folder cleaner): git silently skips a missing hook, which would let every push through.
 */
export async function guardHooksPath(): Promise<string> {
  hooksDirectory ??= mkdtemp(join(tmpdir(), "forgekit-hooks-")).then(async (directory) => {
    await writeHook(directory);
    return directory;
  });
  const pending = hooksDirectory;
  try {
    const directory = await pending;
    const hook = join(directory, "pre-receive");
    if (!(await access(hook, constants.X_OK).then(() => true, () => false))) {
      await mkdir(directory, { recursive: true, mode: 0o700 });
      await writeHook(directory);
    }
    return directory;
  } catch (error) {
    if (hooksDirectory === pending) hooksDirectory = null;
    throw error;
  }
}

/** Refusal messages of a push (each shown as `GitLab: <message>`), empty when every update may go. */
export type PushDecision = (updates: RefUpdate[]) => Promise<string[]>;

/** Most bytes of update lines read from the hook (a push of very many refs is refused whole beyond it). */
const MAX_HOOK_BYTES = 8 * 1024 * 1024;

/**
 * Answers the hook on `channel`: reads the update lines up to `done`, asks `decide`, writes `ok` or
 * the messages, and closes. A decision that fails refuses the push.
 */
export function answerHook(channel: Duplex, decide: PushDecision, onError: (error: unknown) => void): void {
  let text = "";
  let answered = false;
  const reply = (lines: string[]) => {
    answered = true;
    channel.end(lines.map((line) => `${line}\n`).join(""));
  };
  channel.on("error", onError);
  channel.on("data", (chunk: Buffer) => {
    if (answered) return;
    text += chunk.toString("utf8");
    if (text.length > MAX_HOOK_BYTES) return reply(["GitLab: Push contains too many ref updates."]);
    if (text !== "done\n" && !text.endsWith("\ndone\n")) return;
    const updates: RefUpdate[] = [];
    for (const line of text.split("\n")) {
      const m = /^([0-9a-f]{40}|[0-9a-f]{64}) ([0-9a-f]{40}|[0-9a-f]{64}) (\S+) ([01])$/.exec(line);
      if (m !== null) updates.push({ oldId: m[1] as string, newId: m[2] as string, ref: m[3] as string, fastForward: m[4] === "1" });
    }
    decide(updates).then(
      (messages) => reply(messages.length === 0 ? ["ok"] : messages.map((message) => `GitLab: ${message}`)),
      (error: unknown) => {
        onError(error);
        reply(["GitLab: Failed to check the push. Please try again."]);
      },
    );
  });
}
