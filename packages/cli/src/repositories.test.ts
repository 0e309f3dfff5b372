/** The CLI's repository shards: `default` and `secondary` under repositories/ next to the SQLite file. */
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { hashedRepositoryPath } from "@forgekit/core";
import { repositoryStorages } from "./database.js";
import { cliSandbox } from "./test-support.js";

const sandbox = cliSandbox();
afterAll(() => sandbox.cleanup());

describe("repository shards of the CLI", () => {
  it("are default and secondary next to an SQLite file, under ./data/repositories otherwise", () => {
    expect(repositoryStorages({ kind: "sqlite", path: "/srv/forge/forgekit.db" }, "/cwd")).toEqual({
      default: { path: "/srv/forge/repositories/default" },
      secondary: { path: "/srv/forge/repositories/secondary" },
    });
    expect(repositoryStorages({ kind: "postgres", url: "postgres://x/y" }, "/cwd")).toEqual({
      default: { path: "/cwd/data/repositories/default" },
      secondary: { path: "/cwd/data/repositories/secondary" },
    });
    const memory = repositoryStorages({ kind: "sqlite", path: ":memory:" }, "/cwd");
    expect(memory["default"]?.path.startsWith(tmpdir())).toBe(true);
  });

  it("a project created with the CLI has its bare repository on the shard it names", async () => {
    expect((await sandbox.run("migrate")).code).toBe(0);
    expect((await sandbox.run("users", "create", "--username", "ann", "--name", "Ann", "--email", "ann@example.com")).code).toBe(0);
    const made = await sandbox.run("--json", "projects", "create", "--namespace", "ann", "--name", "Far", "--repository-storage", "secondary");
    expect(made.code).toBe(0);
    const project = made.json<{ id: number; repository_storage: string }>();
    expect(project.repository_storage).toBe("secondary");
    const path = join(sandbox.dir, "repositories", "secondary", hashedRepositoryPath({ kind: "project", id: project.id }));
    expect(execFileSync("git", [`--git-dir=${path}`, "rev-parse", "--is-bare-repository"], { encoding: "utf8" }).trim()).toBe("true");
    expect(existsSync(join(sandbox.dir, "repositories", "default", hashedRepositoryPath({ kind: "project", id: project.id })))).toBe(false);
    const unknown = await sandbox.run("projects", "create", "--namespace", "ann", "--name", "Nowhere", "--repository-storage", "tertiary");
    expect(unknown.code).not.toBe(0);
    expect(unknown.stderr).toContain("repository_storage");
  });
});
