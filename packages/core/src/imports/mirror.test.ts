/** The repository stage's fetch (`mirrorInto`) against a local repository standing in for the external one. */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestForgekit, type TestForgekit } from "../testing/fixtures.js";
import { MirrorFailure, mirrorInto } from "./mirror.js";

const env = { ...process.env, GIT_AUTHOR_NAME: "a", GIT_AUTHOR_EMAIL: "a@example.com", GIT_COMMITTER_NAME: "a", GIT_COMMITTER_EMAIL: "a@example.com", GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: "/dev/null" };
const git = (dir: string, args: string[], input?: string) => execFileSync("git", [`--git-dir=${dir}`, ...args], { env, input: input ?? "" }).toString().trim();

/** A bare repository whose `main` is one commit of `entries` (`<name>` → file content), written with plumbing. */
function sourceRepository(root: string, name: string, entry: string): { dir: string; commit: string } {
  const dir = join(root, `${name}.git`);
  execFileSync("git", ["init", "-q", "--bare", dir], { env });
  const blob = git(dir, ["hash-object", "-w", "--stdin"], "[core]\n");
  const inner = git(dir, ["mktree"], `100644 blob ${blob}\tconfig\n`);
  const tree = git(dir, ["mktree"], `040000 tree ${inner}\t${entry}\n`);
  const commit = git(dir, ["commit-tree", tree, "-m", name]);
  git(dir, ["update-ref", "refs/heads/main", commit]);
  return { dir, commit };
}

describe("mirrorInto (an import's repository stage)", () => {
  let t: TestForgekit;
  let root: string;
  beforeAll(async () => {
    t = await createTestForgekit();
    root = mkdtempSync(join(tmpdir(), "forgekit-mirror-"));
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  const projectDir = (project: TestForgekit["projects"]["personal"]) => t.fk.config.repositoryStorage.localPath?.(project.repositoryStorage, { kind: "project", id: project.id }) ?? "";
  const mirror = (project: TestForgekit["projects"]["personal"], url: string) =>
    mirrorInto(t.fk.config.repositoryStorage, project, { url, env: {} }, { defaultBranch: "main", timeoutMs: 60_000, secrets: [] });

  for (const [i, entry] of [".git", ".GIT"].entries()) {
    it(`a tree holding \`${entry}/config\` is refused by git's object checks (fsck): nothing is kept, no ref is made`, async () => {
      const source = sourceRepository(root, `evil-${i}`, entry);
      const project = await t.createProject({ namespaceId: t.groups.grp.id, path: `mirror-evil-${i}`, name: `mirror evil ${i}`, visibility: "private", creatorId: t.users.alice.id });
      const failure = await mirror(project, `file://${source.dir}`).then(() => null, (error: unknown) => error);
      expect(failure).toBeInstanceOf(MirrorFailure);
      expect((failure as Error).message).toContain("hasDotgit");
      expect(git(projectDir(project), ["for-each-ref"])).toBe("");
      expect(() => git(projectDir(project), ["cat-file", "-e", source.commit])).toThrow();
    });
  }

  it("an ordinary repository is fetched", async () => {
    const source = sourceRepository(root, "fine", "docs");
    const project = await t.createProject({ namespaceId: t.groups.grp.id, path: "mirror-fine", name: "mirror fine", visibility: "private", creatorId: t.users.alice.id });
    expect(await mirror(project, `file://${source.dir}`)).toEqual({ branches: 1, tags: 0 });
    expect(git(projectDir(project), ["rev-parse", "refs/heads/main"])).toBe(source.commit);
  });
});
