/**
 * Convention suites: offset and keyset pagination (spec "Pagination", "Limits"; reference §3.4,
 * §3.5; client-compatibility §6.4, §6.5, §6.23).
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { HttpHarness, HttpSuite } from "../http-harness.js";
import { createConventionInstance, FIXTURE_BASE_URL, FIXTURE_GROUPS, FIXTURE_PROJECTS } from "./conventions-fixture.js";

const url = (query: string, path = "/api/v4/projects") => `${FIXTURE_BASE_URL}${path}?${query}`;

/** Follows `rel="next"` links (rewritten from the configured base URL to the test server) to the end. */
async function followNext(h: HttpHarness, first: string): Promise<{ pages: unknown[][]; last: Record<string, string> }> {
  const pages: unknown[][] = [];
  let target: string | undefined = first;
  let last: Record<string, string> = {};
  for (let i = 0; target !== undefined && i < 20; i++) {
    const r = await h.request("GET", target.slice(FIXTURE_BASE_URL.length));
    expect(r.status).toBe(200);
    pages.push(r.json as unknown[]);
    last = r.headers;
    target = /<([^>]+)>; rel="next"/.exec(r.headers["link"] ?? "")?.[1];
  }
  return { pages, last };
}

/** HTTP suite: offset pagination (`page`, `per_page`, the `X-*` headers and `Link`). */
export const offsetPaginationSuite: HttpSuite = (h) => {
  describe("conventions: pagination (offset)", () => {
    beforeAll(async () => {
      await h.serve(createConventionInstance());
    });

    it("defaults page 1, per_page 20; x-* headers and Link rels next, first, last", async () => {
      const r = await h.request("GET", "/api/v4/projects");
      expect((r.json as unknown[]).length).toBe(20);
      expect(r.headers).toMatchObject({
        "x-page": "1", "x-per-page": "20", "x-next-page": "2", "x-prev-page": "", "x-total": "45", "x-total-pages": "3",
      });
      expect(r.headers["link"]).toBe(
        `<${url("page=2&per_page=20")}>; rel="next", <${url("page=1&per_page=20")}>; rel="first", <${url("page=3&per_page=20")}>; rel="last"`,
      );
    });

    it("Link URLs are absolute from the base URL and repeat the whole query, keys sorted, rels prev, next, first, last", async () => {
      const r = await h.request("GET", "/api/v4/projects", { query: "search=a b&per_page=10&page=2&order_by=id&labels[]=x&f[k]=v" });
      const q = (n: number) => url(`f%5Bk%5D=v&labels%5B%5D=x&order_by=id&page=${n}&per_page=10&search=a+b`);
      expect(r.headers["link"]).toBe(`<${q(1)}>; rel="prev", <${q(3)}>; rel="next", <${q(1)}>; rel="first", <${q(5)}>; rel="last"`);
      expect(r.headers).toMatchObject({ "x-page": "2", "x-prev-page": "1", "x-next-page": "3", "x-total-pages": "5" });
    });

    it("the last page has no next link and an empty x-next-page", async () => {
      const r = await h.request("GET", "/api/v4/projects", { query: "page=3" });
      expect((r.json as unknown[]).length).toBe(5);
      expect(r.headers["x-next-page"]).toBe("");
      expect(r.headers["link"]).not.toContain('rel="next"');
      expect(r.headers["link"]).toContain('rel="prev"');
    });

    it("per_page above 100 is clamped to 100", async () => {
      const r = await h.request("GET", "/api/v4/projects", { query: "per_page=500" });
      expect(r.headers["x-per-page"]).toBe("100");
      expect(r.headers["x-total-pages"]).toBe("1");
      expect((r.json as unknown[]).length).toBe(FIXTURE_PROJECTS);
    });

    it("per_page=0 → 400 {\"error\":\"per_page has a value not allowed\"}", async () => {
      const r = await h.request("GET", "/api/v4/projects", { query: "per_page=0" });
      expect(r.status).toBe(400);
      expect(r.text).toBe('{"error":"per_page has a value not allowed"}');
    });

    it("non-integer page / per_page → 400 {\"error\":\"page is invalid\"} / per_page is invalid", async () => {
      expect((await h.request("GET", "/api/v4/projects", { query: "page=abc" })).json).toEqual({ error: "page is invalid" });
      expect((await h.request("GET", "/api/v4/projects", { query: "per_page=1.5" })).json).toEqual({ error: "per_page is invalid" });
    });

    it("page ≤ 0 is treated as page 1", async () => {
      for (const page of ["0", "-3"]) {
        const r = await h.request("GET", "/api/v4/projects", { query: { page } });
        expect(r.headers["x-page"]).toBe("1");
      }
    });

    it("pagination=offset is offset pagination", async () => {
      const r = await h.request("GET", "/api/v4/projects", { query: "pagination=offset" });
      expect(r.headers["x-total"]).toBe("45");
    });

    it("a page past the end is empty with x-total-pages at least 1 and a prev link", async () => {
      const r = await h.request("GET", "/api/v4/projects", { query: "page=9" });
      expect(r.json).toEqual([]);
      expect(r.headers).toMatchObject({ "x-page": "9", "x-prev-page": "8", "x-next-page": "", "x-total-pages": "3" });
    });

    it("more than 10,000 records: x-total, x-total-pages and the last link are omitted", async () => {
      const r = await h.request("GET", "/api/v4/events");
      expect(r.headers["x-total"]).toBeUndefined();
      expect(r.headers["x-total-pages"]).toBeUndefined();
      expect(r.headers).toMatchObject({ "x-page": "1", "x-per-page": "20", "x-next-page": "2" });
      expect(r.headers["link"]).toBe(
        `<${url("page=2&per_page=20", "/api/v4/events")}>; rel="next", <${url("page=1&per_page=20", "/api/v4/events")}>; rel="first"`,
      );
    });
  });
};

/** HTTP suite: keyset pagination (`pagination=keyset`, `Link` headers, cursors). */
export const keysetPaginationSuite: HttpSuite = (h) => {
  describe("conventions: pagination (keyset)", () => {
    beforeAll(async () => {
      await h.serve(createConventionInstance());
    });

    it("projects asc: Link rel=\"next\" carries id_after and repeats the query; no x-total headers", async () => {
      const r = await h.request("GET", "/api/v4/projects", { query: "pagination=keyset&order_by=id&sort=asc&per_page=20&search=p" });
      expect((r.json as { id: number }[]).map((p) => p.id)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
      expect(r.headers["link"]).toBe(`<${url("id_after=20&order_by=id&pagination=keyset&per_page=20&search=p&sort=asc")}>; rel="next"`);
      for (const name of ["x-total", "x-total-pages", "x-page", "x-next-page"]) expect(r.headers[name]).toBeUndefined();
    });

    it("following next links reaches the end: an empty array and no Link header", async () => {
      const { pages, last } = await followNext(h, url("pagination=keyset&order_by=id&sort=asc&per_page=20"));
      expect(pages.map((p) => p.length)).toEqual([20, 20, 5, 0]);
      expect(last["link"]).toBeUndefined();
    });

    it("projects desc uses id_before; sort defaults to desc", async () => {
      const r = await h.request("GET", "/api/v4/projects", { query: "pagination=keyset&order_by=id&per_page=2" });
      expect((r.json as { id: number }[]).map((p) => p.id)).toEqual([45, 44]);
      expect(r.headers["link"]).toBe(`<${url("id_before=44&order_by=id&pagination=keyset&per_page=2")}>; rel="next"`);
    });

    it("an ordering the resource does not support → 405 {\"error\":\"Keyset pagination is not yet available for this type of request\"}", async () => {
      const r = await h.request("GET", "/api/v4/projects", { query: "pagination=keyset&order_by=name&sort=asc" });
      expect(r.status).toBe(405);
      expect(r.text).toBe('{"error":"Keyset pagination is not yet available for this type of request"}');
    });

    it("a resource without keyset support → 405", async () => {
      const r = await h.request("GET", "/api/v4/events", { query: "pagination=keyset&order_by=id&sort=desc" });
      expect(r.status).toBe(405);
      expect(r.json).toEqual({ error: "Keyset pagination is not yet available for this type of request" });
    });

    it("groups: an opaque cursor in the next link, followed to the end", async () => {
      const { pages, last } = await followNext(h, url("pagination=keyset&order_by=name&sort=asc&per_page=2", "/api/v4/groups"));
      expect(pages.flat()).toEqual(FIXTURE_GROUPS.map((name) => ({ name })));
      expect(last["link"]).toBeUndefined();
      const first = await h.request("GET", "/api/v4/groups", { query: "pagination=keyset&order_by=name&sort=asc&per_page=2" });
      expect(first.headers["link"]).toMatch(/^<https:\/\/forge\.example\.test\/prefix\/api\/v4\/groups\?cursor=[A-Za-z0-9_-]+&order_by=name&pagination=keyset&per_page=2&sort=asc>; rel="next"$/);
    });

    it("an undecodable cursor → 400 {\"error\":\"cursor is invalid\"}", async () => {
      const r = await h.request("GET", "/api/v4/groups", { query: "pagination=keyset&order_by=name&sort=asc&cursor=***" });
      expect(r.status).toBe(400);
      expect(r.json).toEqual({ error: "cursor is invalid" });
    });
  });
};
