/**
 * The quick start's import (issue 10 §5): the forge stand-in of `@forgekit/core/testing` on
 * 127.0.0.1 serving one small repository (`octocat/hello-world`: two branches, a tag, labels, a
 * milestone, three issues — one with a screenshot attached —, a pull request, comments and a review
 * comment), and the one command the
 * banner prints to import it into Alice's namespace with `POST /api/v4/import/github`. The demo
 * instance allows imports from the local network for this (`imports.allowLocalNetwork`) and runs a
 * worker, so the import finishes in the quick-start process.
 *
 * On the forge, `octocat` shows Alice's e-mail: its issues and comments become Alice's; `hubot`
 * shows none, so the importer is their author and the text names them ("*Created by: hubot*").
 */
import type { Forgekit } from "@forgekit/core";
import type { ExtForgeStandInRepository } from "@forgekit/core/testing";

/** The forge token the printed command hands to forgekit (the stand-in's, not a real forge's). */
export const DEMO_FORGE_TOKEN = "demo-forge-token";
/** The repository's id on the forge (`repo_id`). */
export const DEMO_FORGE_REPO_ID = 1296269;
/** Where the printed command imports to. */
export const DEMO_IMPORT_NAMESPACE = "alice";

/** A started forge stand-in and the command that imports its repository. */
export interface DemoImport {
  /** The stand-in's URL (`github_hostname`). */
  forgeUrl: string;
  /** The project path the command creates (`alice/hello-world`, or `-2`, `-3`… when taken). */
  projectPath: string;
  /** `curl -X POST …/api/v4/import/github …`: one line, shell-quoted. */
  command: string;
  close(): Promise<void>;
}

/** Quotes a value for a POSIX shell. */
function shellQuote(value: string): string {
  return /^[\w@%+=:,./-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`;
}

/** Where the stand-in serves the screenshot issue #1 links to (an attachment on the forge's web host). */
const SCREENSHOT_PATH = "/user-attachments/assets/7d1c6a3e-hello";
/** A 1×1 PNG: the screenshot. */
const SCREENSHOT = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==", "base64");

/** Issue #1's text: it links the screenshot on the forge's web host. */
const screenshotIssueBody = (forgeUrl: string) => `\`hello.txt\` says *Hello world*: ![screenshot](${forgeUrl}${SCREENSHOT_PATH})`;

/** The stand-in's data set: a small repository with one of each thing an import brings. */
const demoRepository = (): ExtForgeStandInRepository => ({
  id: DEMO_FORGE_REPO_ID,
  owner: "octocat",
  name: "hello-world",
  description: "A small repository on the forge stand-in, for the quick start's import",
  git: {
    defaultBranch: "main",
    commits: [
      { message: "Initial commit", files: { "README.md": "# Hello, world\n\nImported into forgekit from the forge stand-in.\n" }, tags: ["v0.1.0"] },
      { message: "Say hello in French", branch: "feature/bonjour", files: { "hello-fr.txt": "Bonjour le monde\n" } },
      { message: "Add a greeting", files: { "hello.txt": "Hello, world\n" } },
    ],
  },
  labels: [
    { name: "bug", color: "d73a4a", description: "Something is not working" },
    { name: "enhancement", color: "a2eeef", description: "New feature or request" },
  ],
  milestones: [{ number: 1, title: "v1.0", description: "The first release" }],
  issues: [
    { number: 1, title: "The greeting is missing a comma", body: null, author: "octocat", labels: ["bug"], milestone: 1, assignees: ["octocat"] },
    { number: 2, title: "Greet in more languages", body: "French first, then others.", author: "hubot", labels: ["enhancement"], milestone: 1 },
    { number: 4, title: "Add a licence", body: "Which one?", author: "hubot", state: "closed", closedAt: "2024-01-03T00:00:00Z" },
  ],
  pulls: [{ number: 3, title: "Say hello in French", body: "Closes #2.", author: "hubot", head: "feature/bonjour", labels: ["enhancement"], milestone: 1 }],
  comments: [
    { id: 11, issue: 1, body: "Confirmed, and it is in the README too.", author: "hubot" },
    { id: 12, issue: 1, body: "Fixed on main.", author: "octocat" },
    { id: 13, issue: 3, body: "Looks good to me.", author: "octocat" },
  ],
  reviewComments: [{ id: 21, pull: 3, body: "Maybe « Bonjour, le monde » ?", path: "hello-fr.txt", line: 1, author: "octocat", createdAt: "2024-01-01T00:05:00Z" }],
});

/** The first of `hello-world`, `hello-world-2`, … that is not a project of the namespace yet. */
async function freeName(fk: Forgekit, namespace: string, name: string): Promise<string> {
  for (let n = 1; n < 1000; n++) {
    const candidate = n === 1 ? name : `${name}-${n}`;
    const found = await fk.projects.findByIdOrPath(`${namespace}/${candidate}`);
    if (found.isErr()) return candidate;
  }
  return `${name}-${Date.now()}`;
}

/**
 * Starts the forge stand-in and makes the import command for `baseUrl` with `token` (Alice's). The
 * stand-in ships in `@forgekit/core/testing`, which needs Vitest: where that cannot be loaded (an
 * installed CLI without dev dependencies), this resolves to the reason instead.
 */
export async function startDemoImport(fk: Forgekit, baseUrl: string, token: string, email: string): Promise<DemoImport | { unavailable: string }> {
  let testing: typeof import("@forgekit/core/testing");
  try {
    testing = await import("@forgekit/core/testing");
  } catch (error) {
    return { unavailable: `the forge stand-in (@forgekit/core/testing) could not be loaded: ${error instanceof Error ? error.message : String(error)}` };
  }
  const repository = demoRepository();
  const forge = await testing.startExtForgeStandIn({
    users: [
      { id: 583231, login: "octocat", name: "The Octocat", email, token: DEMO_FORGE_TOKEN },
      { id: 7, login: "hubot", name: "Hubot", email: null, token: "demo-hubot-token" },
    ],
    repos: [repository],
    attachments: { [SCREENSHOT_PATH]: { body: SCREENSHOT, contentType: "image/png" } },
  });
  // Issue #1 links the screenshot at the stand-in's URL, known once it listens (its lists are made on the first request).
  const [first] = repository.issues ?? [];
  if (first !== undefined) first.body = screenshotIssueBody(forge.url);
  const name = await freeName(fk, DEMO_IMPORT_NAMESPACE, "hello-world");
  const body = JSON.stringify({
    personal_access_token: DEMO_FORGE_TOKEN,
    repo_id: DEMO_FORGE_REPO_ID,
    github_hostname: forge.url,
    target_namespace: DEMO_IMPORT_NAMESPACE,
    new_name: name,
    optional_stages: { attachments_import: true },
  });
  const command = [
    "curl -X POST",
    `-H ${shellQuote(`PRIVATE-TOKEN: ${token}`)}`,
    `-H ${shellQuote("Content-Type: application/json")}`,
    `--data ${shellQuote(body)}`,
    `${baseUrl}/api/v4/import/github`,
  ].join(" ");
  return { forgeUrl: forge.url, projectPath: `${DEMO_IMPORT_NAMESPACE}/${name}`, command, close: () => forge.close() };
}
