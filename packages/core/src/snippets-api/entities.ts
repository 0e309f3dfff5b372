/**
 * JSON shapes of snippets (reference `API::Entities::Snippet`, `PersonalSnippet`,
 * `ProjectSnippet`): `files` with `path` and `raw_url` read from the snippet's repository,
 * `file_name` the first file (the legacy single-file field), URLs of the web pages and the
 * repository.
 */
import type { Project, User } from "../accounts/types.js";
import { iso } from "../accounts/entities/time.js";
import { userBasic } from "../accounts/entities/users.js";
import type { SnippetRecord } from "../ports/review-store.js";

const trim = (baseUrl: string) => baseUrl.replace(/\/$/, "");
const pathUrl = (path: string) => path.split("/").map(encodeURIComponent).join("/");

/** Web URL of the snippet: `/-/snippets/:id` or `/<project>/-/snippets/:id`. */
export function snippetWebUrl(baseUrl: string, snippet: SnippetRecord, project: Project | null): string {
  return project === null ? `${trim(baseUrl)}/-/snippets/${snippet.id}` : `${trim(baseUrl)}/${project.fullPath}/-/snippets/${snippet.id}`;
}

/** The snippet entity. */
export function snippetEntity(baseUrl: string, snippet: SnippetRecord, project: Project | null, author: User | null, files: { ref: string | null; paths: readonly string[] }) {
  const web = snippetWebUrl(baseUrl, snippet, project);
  const repo = project === null ? `snippets/${snippet.id}.git` : `${project.fullPath}/snippets/${snippet.id}.git`;
  const host = new URL(baseUrl).hostname;
  return {
    id: snippet.id,
    title: snippet.title,
    description: snippet.description === "" ? null : snippet.description,
    visibility: snippet.visibility,
    author: author === null ? null : userBasic(author, baseUrl),
    created_at: iso(snippet.createdAt),
    updated_at: iso(snippet.updatedAt),
    project_id: snippet.projectId,
    web_url: web,
    raw_url: `${web}/raw`,
    ssh_url_to_repo: `git@${host}:${repo}`,
    http_url_to_repo: `${trim(baseUrl)}/${repo}`,
    file_name: files.paths[0] ?? snippet.fileName,
    files: files.ref === null ? [] : files.paths.map((path) => ({ path, raw_url: `${web}/raw/${encodeURIComponent(files.ref ?? "")}/${pathUrl(path)}` })),
    imported: snippet.importedFrom !== "none",
    imported_from: snippet.importedFrom,
  };
}
