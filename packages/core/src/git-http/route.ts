/**
 * Which git smart-HTTP request a path is (git's `http-protocol` documentation; the reference's
 * `/<namespace>/<project>(.git)/info/refs|git-upload-pack|git-receive-pack` routes).
 */

/** The three smart-HTTP endpoints. */
export type GitEndpoint = "info/refs" | "git-upload-pack" | "git-receive-pack";

/** A matched request: the project's full path (decoded, without `.git`) and the endpoint. */
export interface GitRoute {
  projectPath: string;
  endpoint: GitEndpoint;
}

const ENDPOINT = /\/(info\/refs|git-upload-pack|git-receive-pack)$/;

/**
 * Splits `path` (percent-encoded) into project path and endpoint; `null` when it is not a git
 * request: wrong method for the endpoint, fewer than two path segments before it (a project lives
 * in a namespace), empty, `.` or `..` segments, or bad percent-encoding.
 */
export function matchGitRoute(method: string, path: string): GitRoute | null {
  const m = ENDPOINT.exec(path);
  if (m === null) return null;
  const endpoint = m[1] as GitEndpoint;
  const upper = method.toUpperCase();
  if (endpoint === "info/refs" ? upper !== "GET" && upper !== "HEAD" : upper !== "POST") return null;
  let repository = path.slice(1, path.length - m[0].length);
  if (repository.endsWith(".git")) repository = repository.slice(0, -4);
  const segments = repository.split("/");
  if (segments.length < 2) return null;
  const decoded: string[] = [];
  for (const segment of segments) {
    let value: string;
    try {
      value = decodeURIComponent(segment);
    } catch {
      return null;
    }
    if (value === "" || value === "." || value === ".." || value.includes("/")) return null;
    decoded.push(value);
  }
  return { projectPath: decoded.join("/"), endpoint };
}

/** The `service` of an info/refs request (`git-upload-pack` / `git-receive-pack`), or null for a dumb or unknown one. */
export function requestedService(rawQuery: string): "git-upload-pack" | "git-receive-pack" | null {
  const service = new URLSearchParams(rawQuery).get("service");
  return service === "git-upload-pack" || service === "git-receive-pack" ? service : null;
}
