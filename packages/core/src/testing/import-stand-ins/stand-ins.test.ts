import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startExtForgeStandIn, startExtServerStandIn, type ExtForgeStandIn } from "./index.js";

describe("forge stand-in", () => {
  let now = Date.UTC(2025, 0, 1);
  let forge: ExtForgeStandIn;
  beforeAll(async () => {
    forge = await startExtForgeStandIn({ rateLimit: { limit: 3, windowSeconds: 60 }, now: () => now, repos: [{ id: 1, owner: "o", name: "r", labels: Array.from({ length: 5 }, (_, i) => ({ name: `l${i}` })) }] });
  });
  afterAll(async () => forge.close());
  const get = (path: string, token = "standin-forge-token") => fetch(`${forge.url}${path}`, { headers: { authorization: `token ${token}` } });

  it("answers 401 Bad credentials for an unknown token", async () => {
    const response = await get("/user", "nope");
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ message: "Bad credentials" });
  });

  it("pages with an absolute Link header at the root and under /api/v3", async () => {
    const response = await get("/api/v3/repos/o/r/labels?per_page=2&page=2");
    expect((await response.json()) as unknown[]).toHaveLength(2);
    const link = response.headers.get("link") ?? "";
    expect(link).toContain(`<${forge.url}/api/v3/repos/o/r/labels?per_page=2&page=3>; rel="next"`);
    expect(link).toContain('rel="last"');
    expect(link).toContain('rel="prev"');
  });

  it("counts requests per token and answers 403 with X-RateLimit-Remaining 0 until the window resets", async () => {
    now += 120_000; // a fresh window
    const remaining: (string | null)[] = [];
    for (let i = 0; i < 3; i++) remaining.push((await get("/user")).headers.get("x-ratelimit-remaining"));
    expect(remaining).toEqual(["2", "1", "0"]);
    const limited = await get("/user");
    expect(limited.status).toBe(403);
    expect(limited.headers.get("x-ratelimit-remaining")).toBe("0");
    expect(Number(limited.headers.get("x-ratelimit-reset"))).toBe(Math.ceil((now + 60_000) / 1000));
    now += 61_000;
    expect((await get("/user")).status).toBe(200);
  });

  it("records requests without credentials", () => {
    expect(JSON.stringify(forge.requests)).not.toContain("standin-forge-token");
    expect(forge.requests.some((r) => r.path === "/user" && r.status === 401)).toBe(true);
  });
});

describe("repository server stand-in", () => {
  it("answers 401 with the server's error body and pages with start/limit", async () => {
    const server = await startExtServerStandIn({ repos: [{ id: 1, projectKey: "K", slug: "s", generatedPullRequests: 3 }] });
    try {
      expect((await fetch(`${server.url}/rest/api/1.0/projects/K/repos/s`)).status).toBe(401);
      const auth = { authorization: `Basic ${Buffer.from("standin-user:standin-server-token").toString("base64")}` };
      const page = (await (await fetch(`${server.url}/rest/api/1.0/projects/K/repos/s/pull-requests?state=ALL&limit=2`, { headers: auth })).json()) as Record<string, unknown>;
      expect(page).toMatchObject({ start: 0, limit: 2, size: 2, isLastPage: false, nextPageStart: 2 });
      const last = (await (await fetch(`${server.url}/rest/api/1.0/projects/K/repos/s/pull-requests?state=ALL&limit=2&start=2`, { headers: auth })).json()) as Record<string, unknown>;
      expect(last).toMatchObject({ start: 2, size: 1, isLastPage: true });
      expect(last["nextPageStart"]).toBeUndefined();
    } finally {
      await server.close();
    }
  });
});
