/**
 * The example cluster through HAProxy (issue 22): 3 instances of the express example on one
 * PostgreSQL database + 1 `forgekit worker`, round-robin behind HAProxy. Checks a representative
 * part through the proxy: token auth, password-grant failures counted once for all instances,
 * sign-in then the consent page wherever the request lands, a token revoked through one instance
 * refused by all, one winner among 100 racers for an OAuth code, git clone and push, and kill -9 of an instance under writes losing no acknowledged one. Skipped (with a line saying why) without haproxy or PostgreSQL.
 */
import { execFile, execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { fromUrl } from "@forgekit/store-kysely";
import { Kysely, sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startCluster, type RunningCluster } from "./cluster.js";

const pgUrl = process.env["FORGEKIT_TEST_POSTGRES_URL"] ?? "";
const haproxy = (() => {
  try {
    execFileSync("haproxy", ["-v"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
})();
const why = !haproxy ? "haproxy is not installed (apt-get install -y haproxy)" : pgUrl === "" ? "FORGEKIT_TEST_POSTGRES_URL is not set" : null;
if (why !== null) console.log(`examples/cluster: ${why} — the cluster test is skipped`);

describe.skipIf(why !== null)("examples/cluster: 3 instances + 1 worker behind HAProxy on one PostgreSQL database", { timeout: 240_000 }, () => {
  const dir = mkdtempSync(join(tmpdir(), "forgekit-cluster-"));
  const name = `forgekit_test_cluster_${process.pid}_${Date.now().toString(36)}`;
  let admin: Kysely<unknown>;
  let cluster: RunningCluster;
  let token = "";
  let adminToken = "";

  beforeAll(async () => {
    admin = new Kysely<unknown>({ dialect: fromUrl(pgUrl, { postgres: { max: 1 } }).dialect });
    await sql`create database ${sql.id(name)}`.execute(admin);
    const target = new URL(pgUrl);
    target.pathname = `/${name}`;
    cluster = await startCluster({ port: 0, database: target.toString(), dataDir: join(dir, "data"), instances: 3 });
    token = /PRIVATE-TOKEN: (\S+)' \S+\/api\/v4\/user/.exec(cluster.banner)?.[1] ?? "";
    adminToken = /@admin\s+\(admin\)\s+(\S+)/.exec(cluster.banner)?.[1] ?? "";
  }, 240_000);

  afterAll(async () => {
    await cluster?.stop();
    await sql`drop database if exists ${sql.id(name)} with (force)`.execute(admin);
    await admin.destroy();
    rmSync(dir, { recursive: true, force: true });
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
