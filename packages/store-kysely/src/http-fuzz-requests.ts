/**
 * Test-only: random requests built from an instance's REAL route table for the HTTP fuzz test
 * (http-fuzz.test.ts). Each request takes a route (method + path template), fills its
 * placeholders with ids, full paths, usernames, huge numbers, NUL bytes, unicode and long text,
 * and adds query or body parameters named after the route's own parameters (plus common and
 * random names) with the same kinds of values, and credentials: none, a user's token, the admin's
 * token with `sudo`, or garbage.
 */
import type { HttpRequest, Route } from "@forgekit/core";
import fc from "fast-check";

/** What the generator knows of the seeded world: values that name real records. */
export interface FuzzWorld {
  /** Every route of the instance (`fk.routes`). */
  routes: readonly Pick<Route, "method" | "path" | "paramNames">[];
  /** Ids of seeded records (users, namespaces, projects, tokens, keys, iterations). */
  ids: readonly number[];
  /** Usernames and full paths of seeded users, groups and projects (`grp/sub/private-project`). */
  names: readonly string[];
  /** Plaintext tokens: the admin's (with `sudo`) first. */
  tokens: readonly string[];
}

const encoder = new TextEncoder();

/** Percent-encodes the UTF-8 bytes of `text` (a lone surrogate becomes U+FFFD, as on the wire). */
export function percentEncode(text: string): string {
  let out = "";
  for (const byte of encoder.encode(text)) {
    const c = String.fromCharCode(byte);
    out += /[A-Za-z0-9_.~-]/.test(c) ? c : `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
  }
  return out;
}

/** Numbers around and beyond every integer column and JavaScript's safe range. */
const HUGE = ["0", "-1", "-2147483648", "-99999999999", "99999999999", "9999999999999999", "2147483647", "2147483648", "-2147483649", "4294967296", "9007199254740993", "99999999999999999999", "1e400", "00001", "+7", "1.5", "0x10", " 3"];

/** Text no column can hold, or that stresses decoding: NUL, control, unicode, over-long (the git fuzz uses it too). */
export const NASTY = ["\u0000", "a\u0000b", "grp/\u0000", "\u0000/\u0000", "\u0001\u001f", "\ud800", "x\udfffy", "\uffff", "😀", "é", "a".repeat(256), "b".repeat(1000), "grp/".repeat(80), "%", "%zz", " ", "", "null", "true", "[]", "{}"];

/** Raw path segments as a client might send them (already percent-encoded, or malformed). */
export const RAW_SEGMENTS = ["%00", "a%00b", "grp%2F%00", "%2F", "%C0%80", "%ED%A0%80", "%F0%9F%98%80", "%EF%BF%BF", "%zz", "%", "..", "5.json", "grp%2Fpublic-project.json"];

/** Keyset cursors as the stores write them (base64url JSON `[name, id]`), holding what no store can compare. */
const CURSORS = [["\u0000", 1], ["grp", 2147483648], ["grp", 9007199254740991], ["grp", -1], ["grp", 0]].map((c) => Buffer.from(JSON.stringify(c), "utf8").toString("base64url"));

/** Keyset pagination requests (`pagination=keyset`, an ordering and its cursor), which random names alone rarely reach. */
function keysetParams(world: FuzzWorld): fc.Arbitrary<[string, string][]> {
  const cursor = fc.oneof(fc.constantFrom(...HUGE), fc.constantFrom(...CURSORS), textValue(world));
  const ordering = fc.constantFrom(["id", "asc", "id_after"], ["id", "desc", "id_before"], ["name", "asc", "cursor"]);
  return fc.tuple(ordering, cursor, fc.constantFrom("1", "20", "100", "99999999999"))
    .map(([[orderBy, sort, name], value, perPage]) => [["pagination", "keyset"], ["order_by", orderBy], ["sort", sort], [name, value], ["per_page", perPage]]);
}

/** A value that may name something, name nothing, or be invalid. */
function textValue(world: FuzzWorld): fc.Arbitrary<string> {
  return fc.oneof(
    { arbitrary: fc.constantFrom(...world.ids.map(String)), weight: 3 },
    { arbitrary: fc.constantFrom(...world.names), weight: 3 },
    { arbitrary: fc.constantFrom(...HUGE), weight: 2 },
    { arbitrary: fc.constantFrom(...NASTY), weight: 3 },
    fc.constantFrom("asc", "desc", "keyset", "offset", "id", "name", "all", "active", "opened", "current", "watch", "global", "custom", "disabled", "2024-05-01", "2024-05-01T12:00:00Z", "api", "sudo", "read_user"),
    fc.string({ maxLength: 12 }),
    fc.string({ unit: "binary", maxLength: 12 }),
    fc.string({ minLength: 250, maxLength: 300 }),
  );
}

/** A JSON value for a body parameter: text as above, or numbers, booleans, null, arrays, objects. */
function jsonValue(world: FuzzWorld): fc.Arbitrary<unknown> {
  const scalar = fc.oneof(
    { arbitrary: textValue(world), weight: 4 },
    fc.constantFrom(0, -1, 2147483647, 2147483648, -2147483649, 2 ** 53 + 2, 1e300, 1.5, true, false, null),
    fc.integer(),
  );
  return fc.oneof({ arbitrary: scalar, weight: 6 }, fc.array(scalar, { maxLength: 3 }), fc.dictionary(fc.constantFrom("k", "level", "name", "\u0000"), scalar, { maxKeys: 2 }));
}

const COMMON_NAMES = ["search", "username", "sudo", "private_token", "access_token", "page", "per_page", "pagination", "cursor", "id_after", "order_by", "sort", "scope", "state", "name", "scopes", "scopes[]", "expires_at", "level", "notification_email", "active", "integrated", "key_id", "id", "sentry_key", "before", "after", "updated_before", "include_ancestors", "with_projects", "visibility", "min_access_level", "repository_storage", "redirect_uri", "confidential"];

/** A parameter name: the route's own (most often), a common one, or random text. */
function paramName(route: FuzzWorld["routes"][number]): fc.Arbitrary<string> {
  const own = route.paramNames ?? [];
  return fc.oneof(
    ...(own.length > 0 ? [{ arbitrary: fc.constantFrom(...own), weight: 5 }] : []),
    { arbitrary: fc.constantFrom(...COMMON_NAMES), weight: 2 },
    { arbitrary: fc.string({ maxLength: 8 }), weight: 1 },
  );
}

/** A path placeholder's value, as it appears on the wire. */
function segment(world: FuzzWorld): fc.Arbitrary<string> {
  return fc.oneof(
    { arbitrary: textValue(world).map(percentEncode), weight: 8 },
    // Ids of real records often, so requests get past the lookups to the parameters behind them.
    { arbitrary: fc.constantFrom(...world.ids.map(String)), weight: 4 },
    { arbitrary: fc.constantFrom(...RAW_SEGMENTS), weight: 2 },
  );
}

/** Credentials: mostly a seeded token (the admin's most often), sometimes none, garbage or a `Sudo` / `Authorization` header. */
function credentials(world: FuzzWorld): fc.Arbitrary<Record<string, string>> {
  const token = fc.oneof({ arbitrary: fc.constantFrom(...world.tokens), weight: 4 }, { arbitrary: fc.constant(world.tokens[0] ?? ""), weight: 3 }, fc.constantFrom("glpat-nope", "", "\u0000"));
  return fc.oneof(
    { arbitrary: token.map((t) => ({ "private-token": t })), weight: 6 },
    { arbitrary: fc.constant({}), weight: 2 },
    { arbitrary: fc.tuple(token, textValue(world)).map(([t, sudo]) => ({ "private-token": t, sudo })), weight: 2 },
    fc.constantFrom("Bearer nope", "Bearer \u0000", "Basic Zm9vOmJhcg==").map((authorization) => ({ authorization })),
  );
}

/** Builds a query string or form body from name/value pairs. */
function encodePairs(pairs: readonly (readonly [string, string])[]): string {
  return pairs.map(([k, v]) => `${percentEncode(k)}=${percentEncode(v)}`).join("&");
}

/** Long generated text shortened for failure reports (`aaaa…(300)`). */
function clip(text: string): string {
  return text.length <= 200 ? text : `${text.slice(0, 200)}…(${text.length})`;
}

/** A request, plus how to print it when it fails. */
export interface FuzzRequest {
  request: HttpRequest;
  /** `METHOD /path?query` and the body text, for failure reports. */
  describe(): string;
}

/** Random requests over `world.routes`. */
export function fuzzRequests(world: FuzzWorld): fc.Arbitrary<FuzzRequest> {
  const routed = fc.constantFrom(...world.routes).chain((route) => {
    const placeholders = route.path.split("/").filter((s) => s.startsWith(":")).length;
    const params = fc.tuple(fc.array(fc.tuple(paramName(route), textValue(world)), { maxLength: 5 }), fc.oneof({ arbitrary: fc.constant([]), weight: 4 }, keysetParams(world)))
      .map(([random, keyset]) => [...keyset, ...random]);
    const body = fc.oneof(
      { arbitrary: fc.constant(undefined), weight: 2 },
      { arbitrary: fc.dictionary(paramName(route), jsonValue(world), { maxKeys: 5 }).map((v) => ["application/json", JSON.stringify(v)] as const), weight: 3 },
      fc.array(fc.tuple(paramName(route), textValue(world)), { maxLength: 5 }).map((p) => ["application/x-www-form-urlencoded", encodePairs(p)] as const),
      fc.string({ maxLength: 40 }).map((s) => ["application/json", s] as const),
    );
    return fc.record({
      method: fc.oneof({ arbitrary: fc.constant(route.method as string), weight: 9 }, fc.constantFrom("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS")),
      segments: fc.array(segment(world), { minLength: placeholders, maxLength: placeholders }),
      suffix: fc.constantFrom("", "", "", "", ".json", "/"),
      query: params.map(encodePairs),
      body,
      headers: credentials(world),
    }).map(({ method, segments, suffix, query, body: b, headers }) => {
      let i = 0;
      const path = `/api/v4${route.path.replace(/:[a-z_]+/g, () => segments[i++] ?? "x")}${suffix}`;
      return { method, path, query, body: b, headers };
    });
  });
  return routed.map(({ method, path, query, body, headers }): FuzzRequest => {
    const request: HttpRequest = { method, path, rawQuery: query, headers: { ...headers } };
    if (body !== undefined) {
      request.headers["content-type"] = body[0];
      request.body = encoder.encode(body[1]);
    }
    return {
      request,
      describe: () => `${method} ${clip(path)}${query === "" ? "" : `?${clip(query)}`} headers=${clip(JSON.stringify(headers))}${body === undefined ? "" : ` body(${body[0]})=${clip(JSON.stringify(body[1]))}`}`,
    };
  });
}
