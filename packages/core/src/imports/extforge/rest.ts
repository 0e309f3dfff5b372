/**
 * A thin client for the external forge's REST API v3 on forgekit's own guarded fetch (the import
 * URL guard checks every connection and redirect): `request("GET /repos/{owner}/{repo}", params)`
 * fills the path's `{name}` placeholders from `params` and sends the rest as the query; `pages()`
 * follows the `Link: <…>; rel="next"` header from page to page. JSON bodies are parsed; an answer
 * outside 2xx rejects with an {@link ExtForgeHttpError} carrying the status, headers and body, and a
 * connection failure rejects with the fetch error itself. It replaces `@octokit/rest` (18 MB of
 * install for the few GET routes the importer reads).
 */

/** One answer of the forge: status, lower-cased headers and the parsed body (JSON, else text). */
export interface ExtForgeResponse {
  status: number;
  headers: Record<string, string>;
  data: unknown;
}

/** An answer outside 2xx (the shape `toExtForgeFailure` maps: `status` and `response`). */
export class ExtForgeHttpError extends Error {
  /** The HTTP status. */
  readonly status: number;
  /** The answer's headers and body. */
  readonly response: { headers: Record<string, string>; data: unknown };
  constructor(response: ExtForgeResponse, route: string) {
    super(`${route} answered HTTP ${response.status}`);
    this.name = "ExtForgeHttpError";
    this.status = response.status;
    this.response = { headers: response.headers, data: response.data };
  }
}

/** Options of {@link extForgeRest}. */
export interface ExtForgeRestOptions {
  /** The API root, e.g. `https://api.github.com` or `<origin>/api/v3`. */
  baseUrl: string;
  /** Sent as `Authorization: token <token>`. */
  token: string;
  /** `User-Agent` sent (the forge requires one). */
  userAgent: string;
  /** The fetch to send with (the guarded fetch). */
  fetch: typeof fetch;
}

/** Path and query parameters of a route (undefined ones are left out). */
export type ExtForgeParams = Record<string, string | number | boolean | undefined>;

/** The REST client: single requests and `Link`-paginated lists. */
export interface ExtForgeRest {
  /** `GET` one route (e.g. `"GET /users/{username}"`) with path and query parameters. */
  request(route: string, params?: ExtForgeParams): Promise<ExtForgeResponse>;
  /** Every page of a list route, following `rel="next"` links until there is none. */
  pages(route: string, params?: ExtForgeParams): AsyncGenerator<ExtForgeResponse>;
}

/** The URL of `route` under `baseUrl`: `{name}` placeholders filled, other parameters as the query. */
export function routeUrl(baseUrl: string, route: string, params: ExtForgeParams = {}): { method: string; url: string } {
  const [method = "GET", path = "/"] = route.includes(" ") ? route.split(" ", 2) : ["GET", route];
  const used = new Set<string>();
  const filled = path.replace(/\{(\w+)\}/g, (_, name: string) => {
    used.add(name);
    const value = params[name];
    if (value === undefined) throw new TypeError(`${route}: parameter ${name} is missing`);
    return encodeURIComponent(String(value));
  });
  const url = new URL(baseUrl.replace(/\/+$/, "") + filled);
  for (const [name, value] of Object.entries(params)) {
    if (used.has(name) || value === undefined) continue;
    url.searchParams.set(name, String(value));
  }
  return { method, url: url.href };
}

/** The `rel="next"` target of a `Link` header, if any. */
export function nextLink(link: string | undefined): string | undefined {
  if (link === undefined) return undefined;
  for (const part of link.split(",")) {
    const match = /<([^>]+)>\s*;(.*)/.exec(part.trim());
    const rel = /\brel="?([^";]*)"?/.exec(match?.[2] ?? "")?.[1] ?? "";
    if (match?.[1] !== undefined && rel.split(/\s+/).includes("next")) return match[1];
  }
  return undefined;
}

/** Makes the client; nothing is sent until a method is called. */
export function extForgeRest(options: ExtForgeRestOptions): ExtForgeRest {
  const headers = {
    accept: "application/vnd.github+json",
    authorization: `token ${options.token}`,
    "user-agent": options.userAgent,
    "x-github-api-version": "2022-11-28",
  };

  async function send(method: string, url: string, route: string): Promise<ExtForgeResponse> {
    const response = await options.fetch(url, { method, headers });
    const responseHeaders: Record<string, string> = {};
    response.headers.forEach((value, name) => {
      responseHeaders[name.toLowerCase()] = value;
    });
    const text = await response.text();
    let data: unknown = text;
    if (/\bjson\b/i.test(response.headers.get("content-type") ?? "") && text !== "") {
      try {
        data = JSON.parse(text);
      } catch {
        data = text;
      }
    }
    const answer = { status: response.status, headers: responseHeaders, data };
    if (response.status < 200 || response.status >= 300) throw new ExtForgeHttpError(answer, route);
    return answer;
  }

  return {
    request: (route, params) => {
      const { method, url } = routeUrl(options.baseUrl, route, params);
      return send(method, url, route);
    },
    async *pages(route, params) {
      const first = routeUrl(options.baseUrl, route, params);
      let url: string | undefined = first.url;
      while (url !== undefined) {
        const answer = await send(first.method, url, route);
        yield answer;
        url = nextLink(answer.headers["link"]);
      }
    },
  };
}
