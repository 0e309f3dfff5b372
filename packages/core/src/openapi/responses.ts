/**
 * The success response of routes whose table entry declares none (`route.response`), by
 * `METHOD path`: the entity (a component schema of entities.ts) or a list of it. Kept here, beside
 * the schemas, so the capabilities' route files stay as they are.
 */
import type { AnyRoute } from "../http/router.js";
import type { EntityName } from "./entities.js";

type Response = { entity: EntityName; list?: boolean };
const one = (entity: EntityName): Response => ({ entity });
const list = (entity: EntityName): Response => ({ entity, list: true });

const RESPONSES: Record<string, Response> = {
  "GET /users": list("UserBasic"),
  "POST /users": one("UserWithAdmin"),
  "GET /user": one("UserSelf"),
  "GET /users/:id": one("User"),
  "PUT /users/:id": one("UserWithAdmin"),
  "GET /user/emails": list("Email"),
  "POST /user/emails": one("Email"),
  "GET /user/emails/:email_id": one("Email"),
  "GET /users/:id/emails": list("Email"),
  "POST /users/:id/emails": one("Email"),
  "GET /personal_access_tokens": list("PersonalAccessToken"),
  "POST /personal_access_tokens/self/rotate": one("PersonalAccessTokenWithToken"),
  "GET /personal_access_tokens/:id": one("PersonalAccessToken"),
  "POST /personal_access_tokens/:id/rotate": one("PersonalAccessTokenWithToken"),
  "POST /users/:id/personal_access_tokens": one("PersonalAccessTokenWithToken"),
  "POST /user/personal_access_tokens": one("PersonalAccessTokenWithToken"),
  "GET /projects/:id/access_tokens": list("ResourceAccessToken"),
  "POST /projects/:id/access_tokens": one("ResourceAccessTokenWithToken"),
  "GET /projects/:id/access_tokens/:token_id": one("ResourceAccessToken"),
  "POST /projects/:id/access_tokens/self/rotate": one("ResourceAccessTokenWithToken"),
  "POST /projects/:id/access_tokens/:token_id/rotate": one("ResourceAccessTokenWithToken"),
  "GET /groups/:id/access_tokens": list("ResourceAccessToken"),
  "POST /groups/:id/access_tokens": one("ResourceAccessTokenWithToken"),
  "GET /groups/:id/access_tokens/:token_id": one("ResourceAccessToken"),
  "POST /groups/:id/access_tokens/self/rotate": one("ResourceAccessTokenWithToken"),
  "POST /groups/:id/access_tokens/:token_id/rotate": one("ResourceAccessTokenWithToken"),
  "GET /users/:id/impersonation_tokens": list("ImpersonationToken"),
  "POST /users/:id/impersonation_tokens": one("ImpersonationTokenWithToken"),
  "GET /users/:id/impersonation_tokens/:impersonation_token_id": one("ImpersonationToken"),
  "GET /projects": list("Project"),
  "POST /projects": one("Project"),
  "GET /projects/:id": one("Project"),
  "PUT /projects/:id": one("Project"),
  "POST /projects/user/:user_id": one("Project"),
  "GET /users/:id/projects": list("Project"),
  "GET /groups": list("Group"),
  "POST /groups": one("Group"),
  "GET /groups/:id": one("Group"),
  "PUT /groups/:id": one("Group"),
  "GET /groups/:id/subgroups": list("Group"),
  "GET /groups/:id/descendant_groups": list("Group"),
  "GET /groups/:id/projects": list("Project"),
  "GET /projects/:id/members": list("Member"),
  "POST /projects/:id/members": one("Member"),
  "GET /projects/:id/members/all": list("Member"),
  "GET /projects/:id/members/all/:user_id": one("Member"),
  "GET /projects/:id/members/:user_id": one("Member"),
  "PUT /projects/:id/members/:user_id": one("Member"),
  "GET /groups/:id/members": list("Member"),
  "POST /groups/:id/members": one("Member"),
  "GET /groups/:id/members/all": list("Member"),
  "GET /groups/:id/members/all/:user_id": one("Member"),
  "GET /groups/:id/members/:user_id": one("Member"),
  "PUT /groups/:id/members/:user_id": one("Member"),
  "GET /issues": list("Issue"),
  "GET /groups/:id/issues": list("Issue"),
  "GET /projects/:id/issues": list("Issue"),
  "POST /projects/:id/issues": one("Issue"),
  "GET /projects/:id/issues/:issue_iid": one("Issue"),
  "PUT /projects/:id/issues/:issue_iid": one("Issue"),
  "GET /projects/:id/milestones": list("Milestone"),
  "POST /projects/:id/milestones": one("Milestone"),
  "GET /projects/:id/milestones/:milestone_id": one("Milestone"),
  "PUT /projects/:id/milestones/:milestone_id": one("Milestone"),
  "GET /projects/:id/milestones/:milestone_id/issues": list("Issue"),
  "GET /groups/:id/milestones": list("GroupMilestone"),
  "POST /groups/:id/milestones": one("GroupMilestone"),
  "GET /groups/:id/milestones/:milestone_id": one("GroupMilestone"),
  "PUT /groups/:id/milestones/:milestone_id": one("GroupMilestone"),
  "GET /notification_settings": one("NotificationSettings"),
  "PUT /notification_settings": one("NotificationSettings"),
  "GET /groups/:id/notification_settings": one("NotificationSettings"),
  "PUT /groups/:id/notification_settings": one("NotificationSettings"),
  "GET /projects/:id/notification_settings": one("NotificationSettings"),
  "PUT /projects/:id/notification_settings": one("NotificationSettings"),
  "GET /snippets/public": list("Snippet"),
  "GET /snippets": list("Snippet"),
  "POST /snippets": one("Snippet"),
  "GET /snippets/:id": one("Snippet"),
  "PUT /snippets/:id": one("Snippet"),
  "GET /projects/:id/snippets": list("Snippet"),
  "POST /projects/:id/snippets": one("Snippet"),
  "GET /projects/:id/snippets/:snippet_id": one("Snippet"),
  "PUT /projects/:id/snippets/:snippet_id": one("Snippet"),
  "GET /namespaces": list("Namespace"),
  "GET /namespaces/:id": one("Namespace"),
  "GET /namespaces/:id/exists": one("NamespaceExists"),
};

for (const noteable of ["issues/:issue_iid", "merge_requests/:merge_request_iid", "snippets/:snippet_id"]) {
  const base = `/projects/:id/${noteable}`;
  Object.assign(RESPONSES, {
    [`GET ${base}/notes`]: list("Note"),
    [`POST ${base}/notes`]: one("Note"),
    [`GET ${base}/notes/:note_id`]: one("Note"),
    [`PUT ${base}/notes/:note_id`]: one("Note"),
    [`GET ${base}/discussions`]: list("Discussion"),
    [`POST ${base}/discussions`]: one("Discussion"),
    [`GET ${base}/discussions/:discussion_id`]: one("Discussion"),
    [`POST ${base}/discussions/:discussion_id/notes`]: one("Note"),
    [`GET ${base}/discussions/:discussion_id/notes/:note_id`]: one("Note"),
    [`PUT ${base}/discussions/:discussion_id/notes/:note_id`]: one("Note"),
  });
}

/** The route's success response: its own declaration, else this table's entry, else undefined. */
export function routeResponse(route: Pick<AnyRoute, "method" | "path" | "response">): Response | undefined {
  return route.response ?? RESPONSES[`${route.method} ${route.path}`];
}
