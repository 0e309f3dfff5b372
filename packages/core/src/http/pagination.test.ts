import { describe, expect, it } from "vitest";
import type { HttpRequest } from "./types.js";
import { encodeCursor, keysetHeaders, keysetPage } from "./pagination-keyset.js";
import { offsetHeaders, offsetPage } from "./pagination-offset.js";
import { cgiEscape, toQuery } from "./links.js";

const req = (path: string, rawQuery = ""): HttpRequest => ({ method: "GET", path, rawQuery, headers: {} });
const BASE = "https://host/prefix/";

describe("offset pagination", () => {
  it("defaults, clamping, page ≤ 0, negative per_page → 20, blank values → defaults", () => {
    expect(offsetPage({})._unsafeUnwrap()).toEqual({ kind: "offset", page: 1, perPage: 20 });
    expect(offsetPage({ page: "3", per_page: "101" })._unsafeUnwrap()).toEqual({ kind: "offset", page: 3, perPage: 100 });
    expect(offsetPage({ page: "-1", per_page: "-5" })._unsafeUnwrap()).toEqual({ kind: "offset", page: 1, perPage: 20 });
    expect(offsetPage({ page: "", per_page: null })._unsafeUnwrap()).toEqual({ kind: "offset", page: 1, perPage: 20 });
    expect(offsetPage({ page: 2, per_page: 5 })._unsafeUnwrap()).toEqual({ kind: "offset", page: 2, perPage: 5 });
  });

  it("errors: per_page=0 not allowed; non-integers invalid, joined", () => {
    expect(offsetPage({ per_page: "0" })._unsafeUnwrapErr()).toEqual({ code: "invalid_param", param: "per_page", reason: "has a value not allowed" });
    expect(offsetPage({ page: "x", per_page: "y" })._unsafeUnwrapErr()).toEqual({
      code: "invalid_param", param: "page", reason: "is invalid, per_page is invalid",
    });
  });

  it("an empty collection: x-total 0, x-total-pages 1, links first and last to page 1", () => {
    const h = offsetHeaders(BASE, req("/api/v4/projects"), {}, { kind: "offset", page: 1, perPage: 20 }, { total: 0, hasNext: false });
    expect(h).toEqual({
      link: '<https://host/prefix/api/v4/projects?page=1&per_page=20>; rel="first", <https://host/prefix/api/v4/projects?page=1&per_page=20>; rel="last"',
      "x-next-page": "", "x-page": "1", "x-per-page": "20", "x-prev-page": "", "x-total": "0", "x-total-pages": "1",
    });
  });

  it("links repeat arrays, hashes and CGI-escaped values, page/per_page replaced", () => {
    const h = offsetHeaders(BASE, req("/api/v4/events"), { page: "7", b: ["x y", "z&"], a: { k: "é" }, per_page: "99" }, { kind: "offset", page: 2, perPage: 10 }, { total: 15, hasNext: false });
    expect(h["link"]).toBe(
      '<https://host/prefix/api/v4/events?a%5Bk%5D=%C3%A9&b%5B%5D=x+y&b%5B%5D=z%26&page=1&per_page=10>; rel="prev", ' +
        '<https://host/prefix/api/v4/events?a%5Bk%5D=%C3%A9&b%5B%5D=x+y&b%5B%5D=z%26&page=1&per_page=10>; rel="first", ' +
        '<https://host/prefix/api/v4/events?a%5Bk%5D=%C3%A9&b%5B%5D=x+y&b%5B%5D=z%26&page=2&per_page=10>; rel="last"',
    );
  });

  it("Rails to_query escaping: only *-._ and alphanumerics stay; empty arrays and nulls keep their key", () => {
    expect(cgiEscape("a b!'()~*-._")).toBe("a+b%21%27%28%29%7E*-._");
    expect(toQuery({ z: [], y: null, x: undefined })).toBe("y=&z%5B%5D=");
  });
});

describe("keyset pagination", () => {
  const projects = { orderBy: "id", sort: ["asc", "desc"], cursor: "id", defaults: { sort: "desc" } } as const;

  it("no pagination param, or pagination=offset → null (offset pagination)", () => {
    expect(keysetPage({}, projects)._unsafeUnwrap()).toBeNull();
    expect(keysetPage({ pagination: "offset" }, null)._unsafeUnwrap()).toBeNull();
  });

  it("an unknown pagination value → pagination does not have a valid value", () => {
    expect(keysetPage({ pagination: "cursor" }, projects)._unsafeUnwrapErr()).toEqual({
      code: "invalid_param", param: "pagination", reason: "does not have a valid value",
    });
  });

  it("validates order_by and sort against the allowed combination → 405 otherwise", () => {
    const notAvailable = { code: "not_allowed_error", message: "Keyset pagination is not yet available for this type of request" };
    expect(keysetPage({ pagination: "keyset" }, projects)._unsafeUnwrapErr()).toEqual(notAvailable);
    expect(keysetPage({ pagination: "keyset", order_by: "id", sort: "up" }, projects)._unsafeUnwrapErr()).toEqual(notAvailable);
    expect(keysetPage({ pagination: "keyset", order_by: "id" }, null)._unsafeUnwrapErr()).toEqual(notAvailable);
  });

  it("reads id_after (asc) / id_before (desc) and per_page", () => {
    expect(keysetPage({ pagination: "keyset", order_by: "id", sort: "asc", id_after: "5", per_page: "500" }, projects)._unsafeUnwrap()).toEqual({
      kind: "keyset", after: "5", perPage: 100, orderBy: "id", sort: "asc", cursorParam: "id_after",
    });
    expect(keysetPage({ pagination: "keyset", order_by: "id", id_before: "9", id_after: "1" }, projects)._unsafeUnwrap()).toMatchObject({
      after: "9", sort: "desc", cursorParam: "id_before",
    });
    expect(keysetPage({ pagination: "keyset", order_by: "id", id_before: "x" }, projects)._unsafeUnwrapErr()).toMatchObject({ param: "id_before" });
  });

  it("an id cursor beyond the id column is invalid (stores compare it with an integer column)", () => {
    expect(keysetPage({ pagination: "keyset", order_by: "id", sort: "asc", id_after: "2147483647" }, projects)._unsafeUnwrap()).toMatchObject({ after: "2147483647" });
    for (const v of ["2147483648", "99999999999", 2 ** 40]) {
      expect(keysetPage({ pagination: "keyset", order_by: "id", sort: "asc", id_after: v }, projects)._unsafeUnwrapErr()).toEqual({ code: "invalid_param", param: "id_after", reason: "is invalid" });
    }
  });

  it("opaque cursors round-trip through base64url", () => {
    const groups = { orderBy: "name", sort: ["asc"], cursor: "opaque" } as const;
    const page = keysetPage({ pagination: "keyset", order_by: "name", sort: "asc", cursor: encodeCursor("name:ünïcode/1") }, groups)._unsafeUnwrap();
    expect(page?.after).toBe("name:ünïcode/1");
    expect(keysetPage({ pagination: "keyset", order_by: "name", sort: "asc", cursor: "_w" }, groups).isErr()).toBe(true);
  });

  it("keysetHeaders: next link replaces the old cursor; nothing at the end or on an empty page", () => {
    const page = keysetPage({ pagination: "keyset", order_by: "id", sort: "asc" }, projects)._unsafeUnwrap();
    if (page === null) throw new Error("expected keyset");
    const params = { pagination: "keyset", order_by: "id", sort: "asc", id_after: "3" };
    expect(keysetHeaders(BASE, req("/api/v4/projects"), params, page, { items: [1], nextCursor: "9" })).toEqual({
      link: '<https://host/prefix/api/v4/projects?id_after=9&order_by=id&pagination=keyset&sort=asc>; rel="next"',
    });
    expect(keysetHeaders(BASE, req("/api/v4/projects"), params, page, { items: [1], nextCursor: null })).toEqual({});
    expect(keysetHeaders(BASE, req("/api/v4/projects"), params, page, { items: [], nextCursor: "9" })).toEqual({});
  });
});
