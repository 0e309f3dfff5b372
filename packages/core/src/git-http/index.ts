/** Git over HTTP (smart protocol): the capability adapters hand git requests to (issue 9 §2). */
export { gitHttpService, type GitHttpDeps } from "./service.js";
export { matchGitRoute, requestedService, type GitEndpoint, type GitRoute } from "./route.js";
export { basicCredentials } from "./basic-auth.js";
export { GIT_REALM, gitMessages } from "./messages.js";
export type { GitHttpRequest, GitHttpResponse, GitHttpServer } from "./types.js";
