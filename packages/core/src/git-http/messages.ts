/**
 * What git prints for a refused request (`remote: …`): the reference's texts (`Gitlab::GitAccess`
 * error messages, the HTTP Basic denial of `GitHttpClientController`), sent as `text/plain`.
 */
import type { GitAccess } from "../oauth/git-credentials.js";
import type { GitHttpResponse } from "./types.js";

/** The realm of the Basic challenge (reference `send_challenges`). */
export const GIT_REALM = "GitLab";

/**
 * The texts git clients show when an HTTPS git request is refused (not found, wrong credentials, no push
 * access, …).
 */
export const gitMessages = {
  unauthorized:
    "HTTP Basic: Access denied. If a password was provided for Git authentication, the password was incorrect or you're required to use a token instead of a password. If a token was provided, it was either incorrect, expired, or improperly scoped.",
  projectNotFound: "The project you were looking for could not be found or you don't have permission to view it.",
  noRepository: "A repository for this project does not exist yet.",
  commandNotAllowed: "The command you're trying to execute is not allowed.",
  readOnly: "The repository is temporarily read-only. Please try again later.",
  authDownload: "You are not allowed to download code.",
  authUpload: "You are not allowed to upload code.",
  download: "You are not allowed to download code from this project.",
  push: "You are not allowed to push code to this project.",
  bodyConsumed: "The request body was read before forgekit could stream it to git: mount forgekit before body parsers, or keep them off git paths.",
  unsupportedEncoding: "Unsupported Content-Encoding: git sends gzip or nothing.",
  unsupportedMediaType: "Unsupported Media Type",
  badRequest: "The request body is not a git request: git could not read it.",
  failed: "The git service failed. Please try again later.",
  unavailable: "The server is temporarily unavailable. Please try again later.",
} as const;

/** A text/plain response; git shows its body. */
export function gitText(status: number, message: string, headers: Record<string, string> = {}): GitHttpResponse {
  return { status, headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-cache", ...headers }, body: `${message}\n` };
}

/** 401 with the Basic challenge, so that git asks for (or retries with) credentials. */
export function gitUnauthorized(): GitHttpResponse {
  return gitText(401, gitMessages.unauthorized, { "www-authenticate": `Basic realm="${GIT_REALM}"` });
}

/** The message for a token without the scope the access needs. */
export const scopeMessage = (access: GitAccess) => (access === "read" ? gitMessages.authDownload : gitMessages.authUpload);
/** The message for a role below what the access needs. */
export const roleMessage = (access: GitAccess) => (access === "read" ? gitMessages.download : gitMessages.push);

/** 503 with `Retry-After`: the store is unavailable or password hashing is at capacity; git shows the text. */
export function gitUnavailable(retryAfterSeconds: number): GitHttpResponse {
  return gitText(503, gitMessages.unavailable, { "retry-after": String(retryAfterSeconds) });
}
