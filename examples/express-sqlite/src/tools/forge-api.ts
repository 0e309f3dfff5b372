/**
 * Test support for the real-tool acceptance tests: the API calls a test makes itself (setting up
 * users, projects and pushes, and checking what a tool did), each failing with the call that failed
 * — method, path, status and body — so a report can name it.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { mkdirSync } from "node:fs";
import { promisify } from "node:util";

const execFileAsync = promisify(execFile);

/** A client of `/api/v4` as one token. */
export interface ForgeApi {
  /** The answer's JSON body; throws `METHOD path → status body` unless 2xx. */
  call<T = Record<string, unknown>>(method: string, path: string, body?: unknown): Promise<T>;
  /** Status and body, without throwing. */
  raw(method: string, path: string, body?: unknown): Promise<{ status: number; body: unknown }>;
}

/** A client of `<baseUrl>/api/v4` authenticating with `token`. */
export function forgeApi(baseUrl: string, token: string): ForgeApi {
  const raw = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${baseUrl}/api/v4${path}`, {
      method,
      headers: { "PRIVATE-TOKEN": token, ...(body === undefined ? {} : { "Content-Type": "application/json" }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // not JSON: kept as text
    }
    return { status: res.status, body: parsed };
  };
  return {
    raw,
    call: async <T>(method: string, path: string, body?: unknown) => {
      const res = await raw(method, path, body);
      if (res.status < 200 || res.status > 299) throw new Error(`${method} ${path} → ${res.status} ${JSON.stringify(res.body).slice(0, 600)}`);
      return res.body as T;
    },
  };
}

/** A new user and a personal access token of theirs (made by the administrator). */
export async function createUser(admin: ForgeApi, username: string, scopes = ["api", "read_user", "write_repository"]): Promise<{ id: number; username: string; token: string }> {
  const user = await admin.call<{ id: number }>("POST", "/users", { username, name: username, email: `${username}@example.com`, password: `${username}-password-1`, skip_confirmation: true });
  const pat = await admin.call<{ token: string }>("POST", `/users/${user.id}/personal_access_tokens`, { name: "tool", scopes });
  return { id: user.id, username, token: pat.token };
}

/** Commits `files` (path → content) as one commit on `branch` and pushes it to the project over HTTP. */
export async function pushFiles(httpUrlToRepo: string, token: string, branch: string, files: Record<string, string>, message = "Initial commit"): Promise<string> {
  const work = mkdtempSync(join(tmpdir(), "forgekit-tool-push-"));
  const env = { PATH: process.env["PATH"] ?? "/usr/bin:/bin", HOME: work, GIT_CONFIG_NOSYSTEM: "1", GIT_TERMINAL_PROMPT: "0", GIT_AUTHOR_NAME: "Test", GIT_AUTHOR_EMAIL: "test@example.com", GIT_COMMITTER_NAME: "Test", GIT_COMMITTER_EMAIL: "test@example.com" };
  const git = async (...args: string[]) => (await execFileAsync("git", args, { cwd: work, env })).stdout.trim();
  try {
    const remote = new URL(httpUrlToRepo);
    remote.username = "oauth2";
    remote.password = token;
    await git("init", "-q", "-b", branch);
    for (const [path, content] of Object.entries(files)) {
      mkdirSync(dirname(join(work, path)), { recursive: true });
      writeFileSync(join(work, path), content);
    }
    await git("add", "-A");
    await git("commit", "-q", "-m", message);
    await git("push", "-q", remote.toString(), branch);
    return await git("rev-parse", "HEAD");
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** Polls `read` until `done` holds for its value (up to `timeoutMs`); resolves with the last value read. */
export async function waitFor<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 120_000): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() - started > timeoutMs) return value;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
