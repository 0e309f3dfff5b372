import { describe, expect, it } from "vitest";
import { nextLink, routeUrl } from "./rest.js";

describe("routeUrl", () => {
  it("fills the path's placeholders (encoded) and sends the other parameters as the query", () => {
    expect(routeUrl("https://forge.test/api/v3/", "GET /repos/{owner}/{repo}/issues", { owner: "octo", repo: "a b", state: "all", page: 2 })).toEqual({
      method: "GET",
      url: "https://forge.test/api/v3/repos/octo/a%20b/issues?state=all&page=2",
    });
  });

  it("leaves undefined parameters out and rejects a missing path parameter", () => {
    expect(routeUrl("https://api.forge.test", "GET /gists", { since: undefined }).url).toBe("https://api.forge.test/gists");
    expect(() => routeUrl("https://api.forge.test", "GET /users/{username}", {})).toThrow(/username is missing/);
  });
});

describe("nextLink", () => {
  it("finds the rel=\"next\" target among the Link header's relations", () => {
    const link = '<https://f.test/x?page=1>; rel="prev", <https://f.test/x?page=3>; rel="next", <https://f.test/x?page=9>; rel="last"';
    expect(nextLink(link)).toBe("https://f.test/x?page=3");
  });

  it("is undefined on the last page or without a header", () => {
    expect(nextLink('<https://f.test/x?page=1>; rel="first", <https://f.test/x?page=2>; rel="prev"')).toBeUndefined();
    expect(nextLink(undefined)).toBeUndefined();
  });
});
