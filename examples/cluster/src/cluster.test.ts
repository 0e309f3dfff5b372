/**
 * The example cluster through HAProxy (issue 22): 3 instances of the express example on one
 * PostgreSQL database and one Redis (jobs on BullMQ, the throttle on redisRateLimiter) + 1 `forgekit
 * worker`, round-robin behind HAProxy. Checks a representative part through the proxy: token auth, password-grant failures counted once for all instances,
 * sign-in then the consent page wherever the request lands, a token revoked through one instance
 * refused by all, one winner among 100 racers for an OAuth code, git clone and push, events, a storage
 * move and an import run by the worker, and kill -9 of an instance under writes losing no acknowledged
 * one. Skipped (with a line saying why) without haproxy, redis-server or PostgreSQL.
 */
import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningCluster } from "./cluster.js";
import { startTestCluster, until, why, type TestCluster } from "./test-cluster.js";

if (why !== null) console.log(`examples/cluster: ${why} — the cluster test is skipped`);

describe.skipIf(why !== null)("examples/cluster: 3 instances + 1 worker behind HAProxy on one PostgreSQL database and one Redis", { timeout: 300_000 }, () => {
  let test: TestCluster;
  let cluster: RunningCluster;
  let dir = "";
  let token = "";
  let adminToken = "";

  beforeAll(async () => {
    test = await startTestCluster("cluster");
    ({ cluster, dir, token, adminToken } = test);
  }, 420_000);

  afterAll(async () => {
    await test?.close();
  });

  it("serves the printed token through the proxy on every instance", async () => {
    expect(token).toMatch(/\S{20,}/);
    for (let i = 0; i < 6; i++) {
      const me = await fetch(`${cluster.url}/api/v4/user`, { headers: { "PRIVATE-TOKEN": token } });
      expect(me.status).toBe(200);
      expect(await me.json()).toMatchObject({ username: "alice" });
    }
  });

  it("throttles password-grant failures round-robin over 3 instances at the count of one (the 11th attempt is 429)", async () => {
    const attempt = (password: string) =>
      fetch(`${cluster.url}/oauth/token`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ grant_type: "password", username: "bob", password }).toString(),
      });
    for (let i = 0; i < 10; i++) expect((await attempt(`wrong-${i}`)).status).toBe(400);
    expect((await attempt("bob-demo-password")).status).toBe(429);
  });

  it("shows the consent page after signing in, whichever instance each request reaches", async () => {
    const authorize = /(\/oauth\/authorize\?\S+)/.exec(cluster.banner)?.[1] ?? "";
    const signIn = await fetch(`${cluster.url}/users/sign_in`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ username: "alice", password: "alice-demo-password", return_to: "/" }).toString(),
      redirect: "manual",
    });
    expect(signIn.status).toBe(303);
    const cookie = (signIn.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
    for (let i = 0; i < 3; i++) {
      const consent = await fetch(`${cluster.url}${authorize}`, { headers: { cookie }, redirect: "manual" });
      expect(consent.status).toBe(200);
      expect(await consent.text()).toMatch(/<form/);
    }
  });

  it("redeems an authorization code raced by 100 clients across the instances exactly once", async () => {
    const authorize = /(\/oauth\/authorize\?\S+)/.exec(cluster.banner)?.[1] ?? "";
    const clientId = /client_id:\s+(\S+)/.exec(cluster.banner)?.[1] ?? "";
    const clientSecret = /client_secret:\s+(\S+)/.exec(cluster.banner)?.[1] ?? "";
    const signIn = await fetch(`${cluster.url}/users/sign_in`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ username: "alice", password: "alice-demo-password", return_to: "/" }).toString(),
      redirect: "manual",
    });
    const cookie = (signIn.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
    const page = await (await fetch(`${cluster.url}${authorize}`, { headers: { cookie } })).text();
    const action = /<form method="post" action="([^"]+)"/.exec(page)?.[1]?.replace(/&amp;/g, "&") ?? "";
    const form = new URLSearchParams([...page.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((m): [string, string] => [m[1] ?? "", (m[2] ?? "").replace(/&amp;/g, "&").replace(/&#(\d+);/g, (_, c: string) => String.fromCharCode(Number(c)))]));
    form.set("decision", "approve");
    const approved = await fetch(new URL(action, cluster.url), { method: "POST", headers: { cookie, "content-type": "application/x-www-form-urlencoded", origin: cluster.url }, body: form.toString(), redirect: "manual" });
    expect(approved.status, await approved.clone().text()).toBe(302);
    const code = new URL(approved.headers.get("location") ?? "").searchParams.get("code") ?? "";
    expect(code).not.toBe("");
    const redirectUri = new URL(`${cluster.url}${authorize}`).searchParams.get("redirect_uri") ?? "";
    const statuses = await Promise.all(
      Array.from({ length: 100 }, () =>
        fetch(`${cluster.url}/oauth/token`, {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams({ grant_type: "authorization_code", code, redirect_uri: redirectUri, client_id: clientId, client_secret: clientSecret }).toString(),
        }).then((r) => r.status),
      ),
    );
    expect(statuses.filter((status) => status === 200)).toHaveLength(1);
  });

  it("refuses a token revoked through one instance on every following request", async () => {
    const me = (await (await fetch(`${cluster.url}/api/v4/user`, { headers: { "PRIVATE-TOKEN": token } })).json()) as { id: number };
    const created = await fetch(`${cluster.url}/api/v4/users/${me.id}/personal_access_tokens`, {
      method: "POST",
      headers: { "PRIVATE-TOKEN": adminToken, "content-type": "application/json" },
      body: JSON.stringify({ name: "cluster", scopes: ["api"] }),
    });
    expect(created.status, await created.clone().text()).toBe(201);
    const fresh = (await created.json()) as { id: number; token: string };
    expect((await fetch(`${cluster.url}/api/v4/user`, { headers: { "PRIVATE-TOKEN": fresh.token } })).status).toBe(200);
    expect((await fetch(`${cluster.url}/api/v4/personal_access_tokens/${fresh.id}`, { method: "DELETE", headers: { "PRIVATE-TOKEN": adminToken } })).status).toBe(204);
    for (let i = 0; i < 3; i++) expect((await fetch(`${cluster.url}/api/v4/user`, { headers: { "PRIVATE-TOKEN": fresh.token } })).status).toBe(401);
  });

  it("clones and pushes through the proxy; the pushed branch is served by every instance", async () => {
    const git = (args: string[], cwd?: string) => promisify(execFile)("git", args, { ...(cwd === undefined ? {} : { cwd }), env: { ...process.env, GIT_TERMINAL_PROMPT: "0" } });
    const target = join(dir, "clone");
    const remote = new URL(`${cluster.url}/demo/website.git`);
    remote.username = "oauth2";
    remote.password = token;
    await git(["clone", "--quiet", remote.toString(), target]);
    await git(["-c", "user.name=Alice", "-c", "user.email=alice@example.com", "commit", "--quiet", "--allow-empty", "-m", "through the proxy"], target);
    await git(["push", "--quiet", "origin", "HEAD:refs/heads/cluster-push"], target);
    for (let i = 0; i < 3; i++) {
      const branch = await fetch(`${cluster.url}/api/v4/projects/demo%2Fwebsite/repository/branches/cluster-push`, { headers: { "PRIVATE-TOKEN": token } });
      expect(branch.status).toBe(200);
    }
  });

  const api = (path: string, init: RequestInit & { as?: string } = {}) =>
    fetch(`${cluster.url}/api/v4${path}`, { ...init, headers: { "PRIVATE-TOKEN": init.as ?? token, "content-type": "application/json", ...(init.headers as Record<string, string> | undefined) } });
  const json = async <T>(response: Response): Promise<T> => (await response.json()) as T;

  it("lists an issue opened through one instance in the project's events on every instance", async () => {
    const opened = await api("/projects/demo%2Fwebsite/issues", { method: "POST", body: JSON.stringify({ title: "an event through the proxy" }) });
    expect(opened.status).toBe(201);
    const issue = await json<{ id: number }>(opened);
    for (let i = 0; i < 3; i++) {
      const events = await api("/projects/demo%2Fwebsite/events?target_type=issue");
      expect(events.status).toBe(200);
      expect(await json<{ action_name: string; target_id: number }[]>(events)).toContainEqual(expect.objectContaining({ action_name: "opened", target_id: issue.id }));
    }
  });

  it("runs a storage move scheduled through the proxy in the worker (jobs on BullMQ: none in the database's table)", async () => {
    const scheduled = await api("/projects/demo%2Fwebsite/repository_storage_moves", { method: "POST", as: adminToken, body: JSON.stringify({ destination_storage_name: "secondary" }) });
    expect(scheduled.status, await scheduled.clone().text()).toBe(201);
    const move = await json<{ id: number; project: { id: number } }>(scheduled);
    let state = "";
    await until(
      async () => {
        state = (await json<{ state: string }>(await api(`/projects/${move.project.id}/repository_storage_moves/${move.id}`, { as: adminToken }))).state;
        return state === "finished" || state === "failed";
      },
      () => `the move stayed ${state}`,
    );
    expect(state).toBe("finished");
    expect(await json<{ repository_storage: string }>(await api(`/projects/${move.project.id}`, { as: adminToken }))).toMatchObject({ repository_storage: "secondary" });
    for (let i = 0; i < 3; i++) {
      const branches = await api("/projects/demo%2Fwebsite/repository/branches");
      expect(branches.status).toBe(200);
      expect((await json<unknown[]>(branches)).length).toBeGreaterThan(0);
    }
    const rows = await sql<{ n: string }>`select count(*) as n from forgekit_jobs`.execute(test.db);
    expect(Number(rows.rows[0]?.n)).toBe(0);
  });

  it("imports a project through the proxy: the worker runs the import, each issue once", async () => {
    const body = /--data '([^']+)'/.exec(cluster.banner)?.[1] ?? "";
    const path = /into (\S+):\n/.exec(cluster.banner)?.[1] ?? "";
    expect(body).not.toBe("");
    const started = await api("/import/github", { method: "POST", body });
    expect(started.status, await started.clone().text()).toBe(201);
    let status = "";
    let importError: string | null = null;
    await until(
      async () => {
        const state = await json<{ import_status: string; import_error: string | null }>(await api(`/projects/${encodeURIComponent(path)}/import`));
        status = state.import_status;
        importError = state.import_error;
        return status === "finished" || status === "failed";
      },
      () => `the import stayed ${status}`,
    );
    expect(status, `import_error: ${importError ?? "none"}`).toBe("finished");
    const issues = await json<{ title: string }[]>(await api(`/projects/${encodeURIComponent(path)}/issues?per_page=100`));
    const titles = issues.map((i) => i.title);
    expect(titles.length).toBe(3);
    expect(new Set(titles).size).toBe(titles.length);
  });

  it("loses no acknowledged write when an instance is killed (kill -9) under load", async () => {
    const created: number[] = [];
    const write = async (i: number) => {
      const r = await fetch(`${cluster.url}/api/v4/projects/demo%2Fwebsite/issues`, {
        method: "POST",
        headers: { "PRIVATE-TOKEN": token, "content-type": "application/json" },
        body: JSON.stringify({ title: `write ${i}` }),
      }).catch(() => null);
      if (r?.status === 201) created.push(((await r.json()) as { iid: number }).iid);
    };
    for (let i = 0; i < 15; i++) await write(i);
    const victim = cluster.instances[1];
    const gone = new Promise((resolve) => victim?.process.once("exit", resolve));
    victim?.process.kill("SIGKILL");
    await gone;
    // Its server is gone with it (no child process kept it alive).
    expect(await fetch(`http://127.0.0.1:${victim?.port ?? 0}/api/v4/projects`).then(() => "answered", () => "refused")).toBe("refused");
    for (let i = 15; i < 40; i++) await write(i);
    // The proxy fails over: most writes after the kill are acknowledged by the two others.
    expect(created.length).toBeGreaterThanOrEqual(30);
    for (const iid of created) {
      const issue = await fetch(`${cluster.url}/api/v4/projects/demo%2Fwebsite/issues/${iid}`, { headers: { "PRIVATE-TOKEN": token } });
      expect(issue.status).toBe(200);
    }
  });
});
