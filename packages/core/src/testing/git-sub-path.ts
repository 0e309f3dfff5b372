/**
 * The sub-path recipe for git over HTTP, for both adapters' mount tests: forgekit at the root with
 * `{ paths: [] }` (the OAuth discovery aliases only) next to a mount below `/forge`. Git below
 * `/forge` must reach the `/forge` mount, and the root mount must serve no git at all.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { HttpInstance } from "../http/instance.js";
import { createGitClient, gitUrl, pushOneCommit, type GitClient } from "./git-cli.js";
import { createTestForgekit, type TestForgekit } from "./fixtures.js";
import type { ServedInstance } from "./http-harness.js";

/**
 * Registers the recipe's cases; `serve` builds the host with both mounts of `instance`, and
 * `expectHost` checks that a root git path was answered by the host, not by forgekit.
 */
export function describeGitBelowSubPath(name: string, serve: (instance: HttpInstance) => Promise<ServedInstance>, expectHost: (response: Response) => Promise<void>): void {
  describe(name, () => {
    let served: ServedInstance;
    let t: TestForgekit;
    let git: GitClient;
    beforeAll(async () => {
      t = await createTestForgekit();
      git = createGitClient();
      served = await serve(t.fk);
    });
    afterAll(async () => {
      await served.close();
      git.cleanup();
    });

    it("git below /forge is served by the /forge mount: push, then an anonymous clone of the public project", async () => {
      await pushOneCommit(git, gitUrl(`${served.url}/forge`, "grp/public-project.git", { username: "alice", password: t.tokens.alice }), "below /forge");
      const clone = git.path("clone");
      await git.must(["clone", "-q", gitUrl(`${served.url}/forge`, "grp/public-project.git"), clone]);
      expect((await git.must(["log", "-1", "--format=%s"], { cwd: clone })).trim()).toBe("below /forge");
    });

    it("the root mount with paths: [] serves no git: a root git path is the host's", async () => {
      const r = await fetch(`${served.url}/grp/public-project.git/info/refs?service=git-upload-pack`);
      expect(r.headers.get("content-type") ?? "").not.toContain("git");
      await expectHost(r);
    });
  });
}
