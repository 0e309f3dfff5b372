/**
 * The anchor of issue 21: an authenticated `GET /api/v4/projects/:id` written by hand for this one
 * route, as a good engineer would write it without forgekit — bare `node:http`, the same driver
 * (better-sqlite3 or `pg`) on the same database, statements prepared once (better-sqlite3
 * `prepare`; `pg` named statements, prepared once per connection), the same token check (digest
 * lookup, expiry, revocation, blocked user, scopes, `last_used_at` refresh), the same permission
 * rule (public → anyone, internal → any signed-in user, private → members and administrators) and
 * the same response bytes (headers and body). bench/README.md says what it leaves out.
 *
 * Two statements per request: the token with its user, then the project with its namespace, the
 * namespace chain's full name, the viewer's levels, the open-issue count and the import status.
 */
import { createHash } from "node:crypto";
import type { IncomingMessage, RequestListener, ServerResponse } from "node:http";

/** A row as the driver returns it. */
export type Row = Record<string, unknown>;
/** One prepared statement: its first row (reads) or nothing (writes). */
export type Prepared = (params: unknown[]) => Row | undefined | Promise<Row | undefined>;

/** What the anchor needs of a driver: prepare a statement once, written with `?` placeholders. */
export interface AnchorDriver {
  dialect: "sqlite" | "postgres";
  prepare(sql: string): Prepared;
}

/** better-sqlite3: each statement prepared once, run synchronously. */
export function sqliteDriver(db: { prepare(sql: string): { get(...p: unknown[]): unknown; run(...p: unknown[]): unknown; reader: boolean } }): AnchorDriver {
  return {
    dialect: "sqlite",
    prepare(sql) {
      const statement = db.prepare(sql);
      return statement.reader ? (params) => statement.get(...params) as Row | undefined : (params) => (statement.run(...params), undefined);
    },
  };
}

let names = 0;
/** `pg`: each statement a named query, which `pg` prepares once per connection and then only executes. */
export function postgresDriver(pool: { query(q: { name: string; text: string; values: unknown[] }): Promise<{ rows: Row[] }> }): AnchorDriver {
  return {
    dialect: "postgres",
    prepare(sql) {
      let n = 0;
      const text = sql.replace(/\?/g, () => `$${++n}`);
      const name = `anchor_${++names}`;
      return async (values) => (await pool.query({ name, text, values })).rows[0];
    },
  };
}

const ms = (v: unknown): number | null => (v === null || v === undefined ? null : v instanceof Date ? v.getTime() : typeof v === "string" ? Date.parse(v) : Number(v));
const bool = (v: unknown): boolean => v === true || v === 1 || v === "1";
const iso = (v: unknown): string | null => {
  const t = ms(v);
  return t === null ? null : new Date(t).toISOString();
};
const str = JSON.stringify;
const FEATURE = (n: unknown) => (Number(n) >= 20 ? "enabled" : Number(n) >= 10 ? "private" : "disabled");
const accessEntry = (level: number) => (level > 0 ? `{"access_level":${level},"notification_level":3}` : "null");
const LAST_USED_REFRESH_MS = 10 * 60 * 1000;

/** The statements, per dialect (the full name of the namespace chain is the one dialect difference). */
function statements(dialect: AnchorDriver["dialect"]) {
  const fullName =
    dialect === "sqlite"
      ? `(select group_concat(name, ' / ') from (select c.name from forgekit_namespace_ancestors a join forgekit_namespaces c on c.id = a.ancestor_id where a.namespace_id = p.namespace_id order by a.depth desc))`
      : `(select string_agg(c.name, ' / ' order by a.depth desc) from forgekit_namespace_ancestors a join forgekit_namespaces c on c.id = a.ancestor_id where a.namespace_id = p.namespace_id)`;
  return {
    token: `select t.id, t.kind, t.scopes, t.expires_at, t.revoked, t.last_used_at, u.id as user_id, u.state, u.admin
      from forgekit_access_tokens t join forgekit_users u on u.id = t.user_id where t.digest = ?`,
    touch: `update forgekit_access_tokens set last_used_at = ? where id = ?`,
    impersonation: `select value from forgekit_settings where name = 'impersonation_enabled'`,
    project: `select p.id, p.name, p.path, p.full_path, p.description, p.visibility, p.creator_id, p.repository_storage, p.repository_read_only,
        p.default_branch, p.repository_empty, p.readme_path, p.issues_access_level, p.merge_requests_access_level, p.repository_access_level,
        p.snippets_access_level, p.created_at, p.last_activity_at,
        n.id as n_id, n.kind as n_kind, n.name as n_name, n.path as n_path, n.full_path as n_full_path, n.parent_id as n_parent_id,
        o.username as o_username, o.name as o_name, o.state as o_state, o.avatar_url as o_avatar_url, o.id as o_id,
        ${fullName} as full_name,
        (select m.access_level from forgekit_members m where m.source_type = 'project' and m.source_id = p.id and m.user_id = ? and (m.expires_at is null or m.expires_at > ?)) as project_level,
        (select max(level) from (
          select m.access_level as level from forgekit_namespace_ancestors a join forgekit_members m on m.source_type = 'namespace' and m.source_id = a.ancestor_id
            where a.namespace_id = p.namespace_id and m.user_id = ? and (m.expires_at is null or m.expires_at > ?)
          union all select 50 as level from forgekit_namespace_ancestors a join forgekit_namespaces c on c.id = a.ancestor_id
            where a.namespace_id = p.namespace_id and c.kind = 'user' and c.owner_id = ?) levels) as chain_level,
        (select count(*) from forgekit_issues i where i.project_id = p.id and i.state = 'opened') as open_issues,
        (select s.status from forgekit_project_imports s where s.project_id = p.id) as import_status
      from forgekit_projects p join forgekit_namespaces n on n.id = p.namespace_id left join forgekit_users o on n.kind = 'user' and o.id = n.owner_id
      where p.id = ?`,
  };
}

/** The anchor's options: the instance's base URL and clock (the same instant forgekit sees). */
export interface AnchorOptions {
  baseUrl: string;
  now: () => Date;
}

const SECURITY = { "x-content-type-options": "nosniff", "x-frame-options": "SAMEORIGIN" };

function send(res: ServerResponse, status: number, body: string): void {
  res.writeHead(status, { ...SECURITY, "content-type": "application/json", "content-length": Buffer.byteLength(body) });
  res.end(body);
}

/** The hand-written `GET /api/v4/projects/:id` over `driver`. */
export function projectAnchor(driver: AnchorDriver, { baseUrl, now }: AnchorOptions): RequestListener {
  const sql = statements(driver.dialect);
  const token = driver.prepare(sql.token);
  const touch = driver.prepare(sql.touch);
  const impersonation = driver.prepare(sql.impersonation);
  const project = driver.prepare(sql.project);
  const host = new URL(baseUrl).hostname;
  const dateParam = driver.dialect === "sqlite" ? (d: Date) => d.getTime() : (d: Date) => d;

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const match = req.method === "GET" ? /^\/api\/v4\/projects\/(\d+)$/.exec(req.url ?? "") : null;
    if (match === null) return send(res, 404, `{"error":"404 Not Found"}`);
    const raw = req.headers["private-token"];
    if (typeof raw !== "string") return send(res, 401, `{"message":"401 Unauthorized"}`);
    const at = now();
    const t = await token([createHash("sha256").update(raw, "utf8").digest("hex")]);
    if (t === undefined) return send(res, 401, `{"message":"401 Unauthorized"}`);
    const expires = ms(t["expires_at"]);
    if (expires !== null && expires <= at.getTime()) return send(res, 401, `{"error":"invalid_token","error_description":"Token has expired."}`);
    if (bool(t["revoked"])) return send(res, 401, `{"error":"invalid_token","error_description":"Token was revoked. You have to re-authorize from the user."}`);
    if (t["state"] !== "active") return send(res, 403, `{"message":"403 Forbidden - Your account has been ${t["state"] === "blocked" ? "blocked" : "deactivated"}."}`);
    const scopes = JSON.parse(String(t["scopes"])) as string[];
    if (!scopes.includes("api") && !scopes.includes("read_api")) return send(res, 403, `{"error":"insufficient_scope","scope":"api read_api"}`);
    if (t["kind"] === "impersonation" && (await impersonation([]))?.["value"] === "false") return send(res, 401, `{"error":"invalid_token"}`);
    const lastUsed = ms(t["last_used_at"]);
    if (lastUsed === null || at.getTime() - lastUsed >= LAST_USED_REFRESH_MS) await touch([dateParam(at), t["id"]]);

    const userId = t["user_id"];
    const when = dateParam(at);
    const p = await project([userId, when, userId, when, userId, Number(match[1])]);
    if (p === undefined) return send(res, 404, `{"message":"404 Project Not Found"}`);
    const admin = bool(t["admin"]);
    const projectLevel = Number(p["project_level"] ?? 0);
    const chainLevel = Number(p["chain_level"] ?? 0);
    const visibility = p["visibility"] as string;
    if (visibility === "private" && !admin && Math.max(projectLevel, chainLevel) === 0) return send(res, 404, `{"message":"404 Project Not Found"}`);
    const userNamespace = p["n_kind"] === "user";
    const groupLevel = userNamespace ? 0 : chainLevel;
    const access = admin ? 50 : Math.max(projectLevel, groupLevel);
    send(res, 200, render(p, { baseUrl, host, admin, access, projectLevel, groupLevel, userNamespace }));
  }
  return (req, res) => {
    handle(req, res).catch((error: unknown) => send(res, 500, str({ message: String(error) })));
  };
}

interface Facts {
  baseUrl: string;
  host: string;
  admin: boolean;
  access: number;
  projectLevel: number;
  groupLevel: number;
  userNamespace: boolean;
}

/** The project entity (reference `ProjectWithAccess`), written as one template. */
function render(p: Row, f: Facts): string {
  const { baseUrl } = f;
  const fullPath = p["full_path"] as string;
  const web = `${baseUrl}/${fullPath}`;
  const api = `${baseUrl}/api/v4/projects/${String(p["id"])}`;
  const branch = (p["default_branch"] as string | null) ?? "main";
  const readme = typeof p["readme_path"] === "string" && p["readme_path"] !== "" ? `${web}/-/blob/${`${branch}/${p["readme_path"]}`.split("/").map(encodeURIComponent).join("/")}` : null;
  const issues = FEATURE(p["issues_access_level"]);
  const mrs = FEATURE(p["merge_requests_access_level"]);
  const snippets = FEATURE(p["snippets_access_level"]);
  const ownerWeb = `${baseUrl}/${String(p["o_username"] ?? p["n_full_path"])}`;
  const namespaceWeb = f.userNamespace ? ownerWeb : `${baseUrl}/groups/${String(p["n_full_path"])}`;
  const owner = f.userNamespace && p["o_id"] !== null && p["o_id"] !== undefined
    ? `"owner":{"id":${Number(p["o_id"])},"username":${str(p["o_username"])},"name":${str(p["o_name"])},"state":${str(p["o_state"])},"locked":false,"avatar_url":${str(p["o_avatar_url"])},"web_url":${str(ownerWeb)}},`
    : "";
  return `{"id":${String(p["id"])},"description":${str(p["description"])},"name":${str(p["name"])},"name_with_namespace":${str(`${String(p["full_name"])} / ${String(p["name"])}`)},"path":${str(p["path"])},"path_with_namespace":${str(fullPath)},"created_at":${str(iso(p["created_at"]))},"default_branch":${str(branch)},"tag_list":[],"topics":[],"ssh_url_to_repo":${str(`git@${f.host}:${fullPath}.git`)},"http_url_to_repo":${str(`${web}.git`)},"web_url":${str(web)},"readme_url":${str(readme)},"forks_count":0,"avatar_url":null,"star_count":0,"last_activity_at":${str(iso(p["last_activity_at"]))},`
    + `"namespace":{"id":${String(p["n_id"])},"name":${str(p["n_name"])},"path":${str(p["n_path"])},"kind":${str(p["n_kind"])},"full_path":${str(p["n_full_path"])},"parent_id":${str(p["n_parent_id"] ?? null)},"avatar_url":${f.userNamespace ? str(p["o_avatar_url"] ?? null) : "null"},"web_url":${str(namespaceWeb)}},`
    + `"_links":{"self":${str(api)},"issues":${str(`${api}/issues`)},"merge_requests":${str(`${api}/merge_requests`)},"repo_branches":${str(`${api}/repository/branches`)},"labels":${str(`${api}/labels`)},"events":${str(`${api}/events`)},"members":${str(`${api}/members`)},"cluster_agents":${str(`${api}/cluster_agents`)}},`
    + `"packages_enabled":false,"empty_repo":${String(p["repository_empty"] === null || bool(p["repository_empty"]))},"archived":false,"visibility":${str(p["visibility"])},${owner}"resolve_outdated_diff_discussions":false,`
    + `"issues_enabled":${String(issues !== "disabled")},"merge_requests_enabled":${String(mrs !== "disabled")},"wiki_enabled":false,"jobs_enabled":false,"snippets_enabled":${String(snippets !== "disabled")},"container_registry_enabled":false,"service_desk_enabled":false,"service_desk_address":null,`
    + `"can_create_merge_request_in":${String(mrs !== "disabled" && f.access >= 30)},"issues_access_level":"${issues}","repository_access_level":"${FEATURE(p["repository_access_level"])}","merge_requests_access_level":"${mrs}","forking_access_level":"disabled","wiki_access_level":"disabled","builds_access_level":"disabled","snippets_access_level":"${snippets}","pages_access_level":"disabled","analytics_access_level":"disabled","container_registry_access_level":"disabled",`
    + `"emails_disabled":false,"emails_enabled":true,"shared_runners_enabled":false,"lfs_enabled":false,"creator_id":${str(p["creator_id"] ?? null)},"import_status":${str(p["import_status"] ?? "none")},"open_issues_count":${Number(p["open_issues"] ?? 0)},"ci_default_git_depth":null,"public_jobs":false,"shared_with_groups":[],`
    + `"only_allow_merge_if_pipeline_succeeds":false,"request_access_enabled":false,"only_allow_merge_if_all_discussions_are_resolved":false,"remove_source_branch_after_merge":true,"merge_method":"merge","squash_option":"default_off","autoclose_referenced_issues":true,"repository_read_only":${String(bool(p["repository_read_only"]))},`
    + `${f.admin ? `"repository_storage":${str(p["repository_storage"])},` : ""}"permissions":{"project_access":${accessEntry(f.projectLevel)},"group_access":${accessEntry(f.groupLevel)}}}`;
}
