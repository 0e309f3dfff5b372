/**
 * What a published package carries (issue 13 "Packages"): a README and the LICENSE in its
 * directory (npm packs both from there), and the manifest fields registries show — repository
 * (pointing at the package's own directory), homepage, bugs, keywords, license.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { root, workspacePackages } from "./workspace-packages.mjs";

const license = readFileSync(join(root, "LICENSE"), "utf8");

describe.each(workspacePackages().map((pkg) => [pkg.name, pkg] as const))("%s", (_name, pkg) => {
  it("has a README that names the package and shows how to install it", () => {
    const readme = readFileSync(join(pkg.dir, "README.md"), "utf8");
    expect(readme).toContain(`# ${pkg.name}`);
    expect(readme).toMatch(/npm install|npx /);
  });

  it("ships the workspace's LICENSE unchanged", () => {
    expect(existsSync(join(pkg.dir, "LICENSE"))).toBe(true);
    expect(readFileSync(join(pkg.dir, "LICENSE"), "utf8")).toBe(license);
    expect(pkg.manifest.license).toBe("MIT");
  });

  it("names its repository directory, homepage, issue tracker and keywords", () => {
    const dir = pkg.dir.slice(root.length + 1);
    expect(pkg.manifest.repository).toMatchObject({ type: "git", directory: dir });
    expect(pkg.manifest.homepage).toMatch(new RegExp(`/${dir}#readme$`));
    expect(pkg.manifest.bugs?.url).toMatch(/^https:\/\//);
    expect(pkg.manifest.keywords).toContain("forgekit");
  });
});
